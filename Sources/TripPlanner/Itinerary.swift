import TrailheadSchema

/// The trip planner's answer, as the seed's `@Generable struct Itinerary`: where Foundation
/// Models has `@Guide`, the schema is written beside the properties with `SchemaBuilder`.
/// `TripPlanner.answerSchema` narrows it per request (the number of days, the dates of the
/// window, the categories of the points-of-interest tool).
public struct Itinerary: Generable, Sendable, Equatable {
    public var title: String
    public var destination: String
    public var description: String
    public var rationale: String
    public var days: [DayPlan]
    public var companions: [String]?

    public static let generationSchema = SchemaBuilder.object(properties: [
        "title": .text(words: 2...8, description: "A short title of your own"),
        "destination": .string(description: "The landmark"),
        "description": .text(words: 4...20, description: "One sentence on this trip"),
        "rationale": .text(words: 4...20, description: "Why these dates and places suit the travellers"),
        "days": .array(of: .generable(DayPlan.self), minItems: 1, maxItems: 14),
        "companions": .array(of: .string(), maxItems: 8).described("People from the request, as the contacts tool names them").optional,
    ]).declaredSchema

    /// A snapshot of an itinerary still being written.
    public struct PartiallyGenerated: Decodable, Sendable, Equatable {
        public var title: String?
        public var destination: String?
        public var description: String?
        public var rationale: String?
        public var days: [DayPlan.PartiallyGenerated]?
        public var companions: [String]?
    }

    /// Problems the schema cannot express: dates distinct and in order, no place visited twice.
    public static func check(_ content: GeneratedContent) -> [String] {
        let dates = content["days"]?.arrayValue?.compactMap { $0["date"]?.stringValue } ?? []
        var problems: [String] = []
        if !repeatedPlaces(in: content).isEmpty { problems.append("/days: visit a different place in each activity") }
        if Set(dates).count != dates.count { problems.append("/days: each day needs a different date") }
        if dates != dates.sorted() { problems.append("/days: put the days in date order") }
        return problems
    }

    /// The places an itinerary (or a draft of one) visits more than once, each named once, in order.
    public static func repeatedPlaces(in content: GeneratedContent) -> [String] {
        let places = (content["days"]?.arrayValue ?? []).flatMap { $0["activities"]?.arrayValue ?? [] }.compactMap { $0["place"]?.stringValue }
        var seen: Set<String> = [], repeated: [String] = []
        for place in places where !seen.insert(place).inserted && !repeated.contains(place) { repeated.append(place) }
        return repeated
    }
}

/// One day of the trip.
public struct DayPlan: Generable, Sendable, Equatable {
    public var date: String
    public var activities: [Activity]

    public static let generationSchema = SchemaBuilder.object(properties: [
        "date": .string(description: "A free day, YYYY-MM-DD", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"),
        "activities": .array(of: .generable(Activity.self), minItems: 2, maxItems: 3),
    ]).declaredSchema

    public struct PartiallyGenerated: Decodable, Sendable, Equatable {
        public var date: String?
        public var activities: [Activity.PartiallyGenerated]?
    }
}

/// One activity: a place the points-of-interest tool returned, at a time of day.
public struct Activity: Generable, Sendable, Equatable {
    public var time: TimeOfDay
    public var place: String
    /// The place's category, as the points-of-interest tool gave it.
    public var category: String?
    public var note: String

    public static let generationSchema = SchemaBuilder.object(properties: [
        "time": .enumeration(TimeOfDay.self),
        "place": .string(description: "A place the tool returned"),
        "category": .string(description: "Its category").optional,
        "note": .text(words: 3...12, description: "One sentence of advice"),
    ]).declaredSchema

    public struct PartiallyGenerated: Decodable, Sendable, Equatable {
        public var time: String?
        public var place: String?
        public var category: String?
        public var note: String?
    }
}

public enum TimeOfDay: String, Codable, Sendable, CaseIterable {
    case morning, afternoon, evening
}
