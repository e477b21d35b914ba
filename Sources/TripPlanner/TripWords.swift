import Foundation
import TrailheadSchema

/// A trip asked for in a person's words ("Plan a 2-day trip to Kyoto with Ana next weekend"), as
/// the model reads it under this schema: what the sentence says, nothing more. `request(today:)`
/// makes it the typed `TripRequest` the CLI plans from, or says what is missing.
public struct TripWords: Generable, Sendable, Equatable {
    /// The place to go, as written (nil when the sentence names none).
    public var landmark: String?
    public var days: Int?
    /// The first and last day of the window, YYYY-MM-DD, when the sentence gives dates.
    public var from: String?
    public var to: String?
    /// People the sentence names as coming along.
    public var companions: [String]?

    public static let guides = GuideTable(CodingKeys.self, [
        .landmark: [.description("The place to visit as the person wrote it: a landmark, park, mountain or town. Leave it out when none is named."), .maximumLength(200)],
        .days: [.range(TripRequest.dayRange), .description("How many days the trip lasts, when said")],
        .from: [.pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), .description("The first possible day, YYYY-MM-DD, when dates are said")],
        .to: [.pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), .description("The last possible day, YYYY-MM-DD, when dates are said")],
        .companions: [.maximumCount(8), .description("Names of the people coming along")],
    ])

    public init(landmark: String? = nil, days: Int? = nil, from: String? = nil, to: String? = nil, companions: [String]? = nil) {
        self.landmark = landmark
        self.days = days
        self.from = from
        self.to = to
        self.companions = companions
    }

    /// What the model is told before the sentence: today's date, so "next weekend" has a meaning.
    public static func instructions(today: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEEE yyyy-MM-dd"
        return """
            Read a request for a trip and write down only what it says: the place, the number of days, \
            the dates (as YYYY-MM-DD; today is \(formatter.string(from: today))) and the people it names as coming \
            along (their names only; none when it names nobody). Leave out what it does not say.
            """
    }

    /// Whether the words say anything about when: a date (2026-12-05, 12/5, the 5th), a month, a
    /// weekday, a season or a word like "weekend" or "tomorrow". Without one, dates the model wrote
    /// were invented: asked for "a 2-day trip to Joshua Tree", the 1.5B model gave the window
    /// today…the day after tomorrow, and the planner asked back for dates nobody had given.
    public static func mentionsTime(_ sentence: String) -> Bool {
        let text = sentence.lowercased()
        if text.range(of: #"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}|\b\d{1,2}(st|nd|rd|th)\b"#, options: .regularExpression) != nil { return true }
        let words = Set(text.split { !$0.isLetter }.map(String.init))
        return !words.isDisjoint(with: timeWords)
    }

    private static let timeWords: Set<String> = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "today", "tomorrow", "tonight", "weekend", "week", "month", "christmas", "easter", "holidays",
        "spring", "summer", "autumn", "fall", "winter",
    ]

    /// The question to ask back when the words name no place.
    public static let placeQuestion =
        "Where would you like to go? Name a landmark, a park or a town — for example \"Plan a 2-day trip to Kyoto\"."

    /// The typed request (3 days, and the next 60 days as the window, when not said), or the
    /// question to ask back: no place named, or values the CLI would refuse (`TripRequest.problem`).
    public func request(landmark resolved: String? = nil, today: Date = Date()) -> Result<TripRequest, Question> {
        guard let place = (resolved ?? landmark)?.trimmingCharacters(in: .whitespacesAndNewlines), !place.isEmpty else {
            return .failure(Question(text: Self.placeQuestion))
        }
        var from = from, to = to
        // One date said: the window starts there and is as long as the trip.
        if let first = from, to == nil, let start = ItineraryFormat.parseDay(first) {
            to = TripRequest.day(start, plus: max(1, days ?? 3) - 1, timeZone: TimeZone(identifier: "UTC")!)
        }
        if from == nil, let last = to, let end = ItineraryFormat.parseDay(last) {
            from = TripRequest.day(end, plus: 1 - max(1, days ?? 3), timeZone: TimeZone(identifier: "UTC")!)
        }
        let request = TripRequest(landmark: place, days: days ?? 3, from: from, to: to, companions: companions ?? [], today: today)
        if let problem = request.problem { return .failure(.cannotPlan(problem)) }
        return .success(request)
    }

    /// What to ask the person, as the assistant's answer.
    public struct Question: Error, Sendable, Equatable {
        public var text: String
        public init(text: String) { self.text = text }

        /// A request `agent plan` would refuse, with its message, asked about.
        public static func cannotPlan(_ problem: String) -> Question {
            Question(text: "I can't plan that yet: \(problem). Which dates or how many days?")
        }
    }
}
