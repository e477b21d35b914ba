import TrailheadSchema

/// The trip planner's answer.
public struct Itinerary: Codable, Sendable, Equatable {
    public struct Day: Codable, Sendable, Equatable {
        public var date: String
        public var activities: [Activity]
    }

    public struct Activity: Codable, Sendable, Equatable {
        /// "morning", "afternoon" or "evening".
        public var time: String
        public var place: String
        public var category: String
        public var note: String
    }

    public var title: String
    public var destination: String
    public var description: String
    public var rationale: String
    public var days: [Day]
    public var companions: [String]?

    public static let times = ["morning", "afternoon", "evening"]

    /// The output schema for a trip of exactly `days` days. Property order is the order the
    /// model writes in: the title first, so a streamed plan shows something at once.
    /// Strings have no `maxLength`: a bounded repetition in the grammar makes llama.cpp's
    /// constrained sampling crawl (measured: 84 tokens in 54 s), and the prompt asks for brevity.
    public static func schema(days: Int, categories: [String], companions: Bool, activitiesPerDay: ClosedRange<Int> = 1...2) -> GeneratedContent {
        let activity: GeneratedContent = [
            "type": "object",
            "properties": [
                "time": ["type": "string", "enum": .array(times.map { .string($0) })],
                "place": ["type": "string", "minLength": 1],
                "category": ["type": "string", "enum": .array(categories.map { .string($0) })],
                "note": ["type": "string", "minLength": 1],
            ],
            "required": ["time", "place", "category", "note"],
            "additionalProperties": false,
        ]
        var properties: JSONObject = [
            "title": ["type": "string", "minLength": 1],
            "destination": ["type": "string", "minLength": 1],
            "description": ["type": "string", "minLength": 1],
            "rationale": ["type": "string", "minLength": 1],
            "days": [
                "type": "array",
                "minItems": .number(Double(days)), "maxItems": .number(Double(days)),
                "items": [
                    "type": "object",
                    "properties": [
                        "date": ["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"],
                        "activities": [
                            "type": "array", "items": activity,
                            "minItems": .number(Double(activitiesPerDay.lowerBound)),
                            "maxItems": .number(Double(activitiesPerDay.upperBound)),
                        ],
                    ],
                    "required": ["date", "activities"],
                    "additionalProperties": false,
                ],
            ],
        ]
        var required: [GeneratedContent] = ["title", "destination", "description", "rationale", "days"]
        if companions {
            properties["companions"] = ["type": "array", "items": ["type": "string"], "minItems": 1, "maxItems": 8]
            required.append("companions")
        }
        return ["type": "object", "properties": .object(properties), "required": .array(required), "additionalProperties": false]
    }

    /// Problems the schema cannot express: dates distinct and in order, no place visited twice.
    public static func check(_ content: GeneratedContent) -> [String] {
        let dates = content["days"]?.arrayValue?.compactMap { $0["date"]?.stringValue } ?? []
        let places = content["days"]?.arrayValue?.flatMap { $0["activities"]?.arrayValue ?? [] }.compactMap { $0["place"]?.stringValue } ?? []
        var problems: [String] = []
        if Set(places).count != places.count { problems.append("/days: visit a different place in each activity") }
        if Set(dates).count != dates.count { problems.append("/days: each day needs a different date") }
        if dates != dates.sorted() { problems.append("/days: put the days in date order") }
        return problems
    }
}
