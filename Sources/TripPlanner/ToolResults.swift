import TrailheadSchema

/// What the planner reads of each tool's result, decoded once where the JSON arrives (a tool's
/// result is the wire: the members it plans with, the others ignored). A result that does not
/// decode is treated as one with nothing in it. (`findPointsOfInterest`'s is the plugin's own
/// type, read as `Partial<PointsOfInterest>`; `describeLandmark`'s is `LandmarkDescription`.)
public enum ToolResults {
    /// `calendarFreeDays`.
    public struct FreeDays: Codable, Sendable {
        public var freeDays: [String]
    }

    /// `searchContacts`.
    public struct Contacts: Codable, Sendable {
        public var contacts: [Contact]

        public struct Contact: Codable, Sendable {
            public var name: String
            public var homeCity: String?
            public var note: String?
        }
    }

    /// `result` as `type`, or nil when it is not one (optional members of the wrong type are nil).
    public static func decode<T: Decodable>(_ type: T.Type, from result: GeneratedContent) -> T? {
        try? GeneratedContentDecoder(lenient: true).decode(type, from: result)
    }
}
