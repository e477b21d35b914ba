import TrailheadSchema

/// The trip planner's answer, as the seed's `@Generable struct Itinerary`: its schema is derived
/// from the declaration, with the `@Guide`s in one table. The model writes only a `TripPlanner.Draft`
/// of it; the planner fills in the rest (see `TripPlanner.itinerary(from:facts:)`).
public struct Itinerary: Generable, Sendable, Equatable {
    public var title: String
    public var destination: String
    public var description: String
    public var rationale: String
    public var days: [DayPlan]
    public var companions: [String]?
    /// Where the travellers stay: a lodging place the points-of-interest tool returned (never an
    /// activity).
    public var lodging: String?

    public static let guides = GuideTable(CodingKeys.self, [
        .title: [.words(2...8), .description("A short title of your own")],
        .destination: [.description("The landmark")],
        .description: [.sentence(4...20), .description("One sentence on this trip")],
        .rationale: [.sentence(4...20), .description("Why these dates and places suit the travellers")],
        .days: [.count(TripRequest.dayRange)],
        .companions: [.maximumCount(8), .description("People from the request, as the contacts tool names them")],
        .lodging: [.description("Where the travellers stay, a lodging place the tool returned")],
    ])

    public init(
        title: String, destination: String, description: String, rationale: String, days: [DayPlan], companions: [String]? = nil,
        lodging: String? = nil
    ) {
        self.title = title
        self.destination = destination
        self.description = description
        self.rationale = rationale
        self.days = days
        self.companions = companions
        self.lodging = lodging
    }

    /// Problems the schema cannot express: dates distinct and in order, no place visited twice.
    public static func check(_ itinerary: Partial<Itinerary>) -> [String] {
        let dates = (itinerary.days ?? []).compactMap(\.date)
        var problems: [String] = []
        if !repeated(itinerary.places).isEmpty { problems.append("/days: visit a different place in each activity") }
        if Set(dates).count != dates.count { problems.append("/days: each day needs a different date") }
        if dates != dates.sorted() { problems.append("/days: put the days in date order") }
        return problems
    }

    /// `check(_:)` of an itinerary's JSON (an answer check of the session).
    public static func check(_ content: GeneratedContent) -> [String] { check(Partial(content)) }

    /// The places visited more than once, each named once, in order.
    public static func repeated(_ places: [String]) -> [String] {
        var seen: Set<String> = [], repeated: [String] = []
        for place in places where !seen.insert(place).inserted && !repeated.contains(place) { repeated.append(place) }
        return repeated
    }
}

extension Partial<Itinerary> {
    /// Every activity's place, day by day.
    public var places: [String] { (self.days ?? []).flatMap { $0.activities ?? [] }.compactMap(\.place) }
}

/// One day of the trip.
public struct DayPlan: Generable, Sendable, Equatable {
    public var date: String
    public var activities: [Activity]

    public static let guides = GuideTable(CodingKeys.self, [
        .date: [.description("A free day, YYYY-MM-DD"), .pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")],
        .activities: [.count(2...3)],
    ])

    public init(date: String, activities: [Activity]) {
        self.date = date
        self.activities = activities
    }
}

/// One activity: a place the points-of-interest tool returned, at a time of day.
public struct Activity: Generable, Sendable, Equatable {
    public var time: TimeOfDay
    public var place: String
    /// The place's category, as the points-of-interest tool gave it.
    public var category: String?
    /// Advice on the place (a peer's plans have it; Trailhead's say what the tool says, `about`).
    public var note: String?
    /// What the points-of-interest tool says of the place.
    public var about: String?

    public static let guides = GuideTable(CodingKeys.self, [
        .place: [.description("A place the tool returned")],
        .category: [.description("Its category")],
        .note: [.sentence(3...12), .description("One sentence of advice")],
        .about: [.description("What the tool says of the place")],
    ])

    public init(time: TimeOfDay, place: String, category: String? = nil, note: String? = nil, about: String? = nil) {
        self.time = time
        self.place = place
        self.category = category
        self.note = note
        self.about = about
    }
}

public enum TimeOfDay: String, Codable, Sendable, CaseIterable {
    case morning, afternoon, evening
}
