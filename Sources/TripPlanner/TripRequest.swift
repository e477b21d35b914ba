import Foundation
import TrailheadSchema

/// What `agent plan` was asked for; its JSON is how a transcript records it.
public struct TripRequest: Sendable, Codable, Equatable {
    public var landmark: String
    public var days: Int
    /// The window to look for free days in (inclusive, YYYY-MM-DD).
    public var from: String
    public var to: String
    public var companions: [String]

    /// How many days a trip may have: the one bound `agent plan --days`, `problem`, the itinerary's
    /// schema and `TripWords` share.
    public static let dayRange = 1...14

    public init(landmark: String, days: Int = 3, from: String? = nil, to: String? = nil, companions: [String] = [], today: Date = Date()) {
        self.landmark = landmark
        self.days = days
        self.from = from ?? Self.day(today, plus: 1)
        self.to = to ?? Self.day(today, plus: 60)
        self.companions = companions
    }

    /// Why no plan can answer this request, checked before any tool or model is asked: an empty
    /// landmark, days outside `dayRange`, a window that is not one, or one with fewer days than the
    /// trip (each message names both numbers). Nil when the request can be planned. The one check of
    /// a request, wherever it comes from: `agent plan`'s options, `agent eval`'s requests file,
    /// `agent serve`'s JSON trip requests and a person's words (`TripWords`).
    public var problem: String? {
        if landmark.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return "the landmark is empty: name a place to go (\"Joshua Tree National Park\")"
        }
        guard Self.dayRange.contains(days) else {
            return "a trip has from \(Self.dayRange.lowerBound) to \(Self.dayRange.upperBound) days, not \(days)"
        }
        guard let first = ItineraryFormat.parseDay(from), let last = ItineraryFormat.parseDay(to) else {
            return "the window \(from)…\(to) is not two dates YYYY-MM-DD"
        }
        guard first <= last else { return "the window starts on \(from), after its end \(to)" }
        let length = window.count
        if length < days {
            return "a \(days)-day trip does not fit the window \(from)…\(to), which has \(length) day\(length == 1 ? "" : "s")"
        }
        return nil
    }

    /// True when `contact` (a contact's full name) is one of the companions the request names
    /// ("Ana" names "Ana Lima").
    public func namesCompanion(_ contact: String) -> Bool {
        let words = Set(contact.lowercased().split(separator: " "))
        return companions.contains { asked in asked.lowercased().split(separator: " ").allSatisfy { words.contains($0) } }
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
    public var content: GeneratedContent { (try? GeneratedContent(encoding: self)) ?? [:] }

    /// A request read back from a transcript.
    public init?(content: GeneratedContent) {
        guard let request = try? content.decode(as: TripRequest.self) else { return nil }
        self = request
    }

    private enum CodingKeys: String, CodingKey { case landmark, days, from, to, companions }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            landmark: try container.decode(String.self, forKey: .landmark), days: try container.decode(Int.self, forKey: .days),
            from: try container.decode(String.self, forKey: .from), to: try container.decode(String.self, forKey: .to),
            companions: try container.decodeIfPresent([String].self, forKey: .companions) ?? [])
    }

    static func day(_ date: Date, plus days: Int, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let shifted = calendar.date(byAdding: .day, value: days, to: date)!
        let parts = calendar.dateComponents([.year, .month, .day], from: shifted)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
}
