import Foundation
import TrailheadSchema

/// What `agent plan` was asked for.
public struct TripRequest: Sendable {
    public var landmark: String
    public var days: Int
    /// The window to look for free days in (inclusive, YYYY-MM-DD).
    public var from: String
    public var to: String
    public var companions: [String]

    public init(landmark: String, days: Int = 3, from: String? = nil, to: String? = nil, companions: [String] = [], today: Date = Date()) {
        self.landmark = landmark
        self.days = days
        self.from = from ?? Self.day(today, plus: 1)
        self.to = to ?? Self.day(today, plus: 60)
        self.companions = companions
    }

    /// Every day of the window, in order.
    public var window: [String] {
        guard let first = ItineraryFormat.parseDay(from), let last = ItineraryFormat.parseDay(to), first <= last else { return [from] }
        var days: [String] = []
        var day = first
        while day <= last, days.count < 400 {
            days.append(Self.utcDay(day))
            day = day.addingTimeInterval(86_400)
        }
        return days
    }

    private static func utcDay(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The request as recorded in a transcript.
    public var content: GeneratedContent {
        ["landmark": .string(landmark), "days": .number(Double(days)), "from": .string(from), "to": .string(to),
         "companions": .array(companions.map { .string($0) })]
    }

    /// A request read back from a transcript.
    public init?(content: GeneratedContent) {
        guard let landmark = content["landmark"]?.stringValue, let days = content["days"]?.intValue,
              let from = content["from"]?.stringValue, let to = content["to"]?.stringValue else { return nil }
        self.init(landmark: landmark, days: days, from: from, to: to,
                  companions: content["companions"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    static func day(_ date: Date, plus days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let shifted = calendar.date(byAdding: .day, value: days, to: date)!
        let parts = calendar.dateComponents([.year, .month, .day], from: shifted)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
}
