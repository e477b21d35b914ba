import Foundation
import TrailheadAgent
import TrailheadSchema
import TripPlanner

/// Whether a plan is a good answer to its request: the checks of `agent eval`, from the
/// itinerary and what the tools returned (a transcript's tool outputs). Used for Trailhead's own
/// plans and for a peer's, so both are judged alike.
public struct PlanEvaluation: Sendable {
    public struct Check: Sendable, Equatable, Codable {
        public var name: String
        public var passed: Bool
        /// What was wrong, when it failed.
        public var detail: String
    }

    public var checks: [Check]
    public var passed: Bool { checks.allSatisfy(\.passed) }

    /// The bound in words a peer's notes are checked against (Trailhead's plans write none).
    public static let noteWords = 3...16

    /// The checks of `itinerary` (whole or not: a peer's plan may lack members) against `request`,
    /// given the tools' facts; `plugins` are the enabled plugins (a plan that never asked an enabled
    /// calendar or points-of-interest tool fails the checks they ground); `noteWords` is the notes'
    /// bound in words.
    public init(
        itinerary: Partial<Itinerary>, request: TripRequest, facts given: ToolFacts, plugins: [String], activitiesPerDay: Int = 2,
        noteWords: Int = PlanEvaluation.noteWords.upperBound
    ) {
        var facts = given
        if plugins.contains("calendar"), facts.freeDays == nil { facts.freeDays = [] }
        if plugins.contains("poi"), facts.places == nil { facts.places = [] }
        var checks: [Check] = []
        func check(_ name: String, _ problems: [String]) {
            checks.append(Check(name: name, passed: problems.isEmpty, detail: problems.prefix(3).joined(separator: "; ")))
        }
        let days = itinerary.days ?? []
        let dates = days.compactMap(\.date)
        let activities = days.flatMap { $0.activities ?? [] }
        let places = itinerary.places
        let window = Set(request.window)

        check("days", days.count == request.days ? [] : ["\(days.count) days for a \(request.days)-day request"])
        check("dates in window", dates.filter { !window.contains($0) }.map { "\($0) is outside \(request.from)…\(request.to)" })
        if let free = facts.freeDays {
            let freeSet = Set(free)
            check("free days", dates.filter { !freeSet.contains($0) }.map { "\($0) is not a free day the calendar reported" })
            let run = Self.longestRun(of: free.filter { window.contains($0) })
            let consecutive = TripPlanner.isConsecutive(dates.sorted())
            check("consecutive days", consecutive || run < request.days ? [] : ["\(dates.joined(separator: ", ")) are not consecutive, though \(run) free days in a row exist"])
        }
        if let returned = facts.places {
            let known = Set(returned)
            check("places from the tool", places.filter { !known.contains($0) }.map { "\($0) was not returned by the tool" })
        }
        let companions = itinerary.companions ?? []
        if request.companions.isEmpty {
            check("companions from the request", companions.map { "\($0) was not named in the request" })
        } else {
            let found = Set(facts.contacts ?? [])
            var problems = companions.filter { !found.contains($0) }.map { "\($0) was not found in the contacts" }
            problems += companions.filter { !request.namesCompanion($0) }.map { "\($0) was not named in the request" }
            if companions.isEmpty { problems.append("no companions, though the request names \(request.companions.joined(separator: ", "))") }
            check("companions from the request", problems)
        }
        check("activities a day", days.enumerated().compactMap { index, day in
            let count = day.activities?.count ?? 0
            return count >= activitiesPerDay ? nil : "day \(index + 1) has \(count)"
        })
        check("no place repeated", Itinerary.repeated(places))
        let notes = activities.compactMap(\.note)
        check("notes within bound", notes.filter { $0.split(separator: " ").count > noteWords }.map { "\"\($0.prefix(40))…\" is over \(noteWords) words" })
        // What a person reads: words whole, sentences ended, no note twice, things to do.
        let texts = [itinerary.title, itinerary.description, itinerary.rationale].compactMap { $0 } + notes
        // Words of the names the tools returned are as they spelt them ("McCarran", "LeConte").
        let named = Set((facts.places ?? []).flatMap { $0.split(separator: " ").map(String.init) } + request.landmark.split(separator: " ").map(String.init))
        check("words well formed", texts.compactMap { text in
            Self.malformedWord(in: text, known: named).map { "\"\($0)\" in \"\(text.prefix(50))\"" }
        })
        let sentences = [itinerary.description, itinerary.rationale].compactMap { $0 } + notes
        check("texts end a sentence", sentences.filter { !Self.endsSentence($0) }.map { "\"\($0.suffix(40))\" does not end a sentence" })
        check("no note repeated", Itinerary.repeated(notes.map(Grounding.fold)).map { folded in
            "\"\(notes.first { Grounding.fold($0) == folded } ?? folded)\" more than once"
        })
        let destinations = Set(([request.landmark, itinerary.destination].compactMap { $0 } + facts.landmarks).map(Grounding.fold))
        check("activities are things to do", activities.compactMap { activity in
            guard let place = activity.place else { return nil }
            if destinations.contains(Grounding.fold(place)) { return "\(place) is the destination itself" }
            if facts.destinations.contains(place) { return "\(place) is a destination in itself, not a thing to do there" }
            let category = facts.categories[place] ?? activity.category
            if let category, TripPlanner.notActivities.contains(category) { return "\(place) is a \(category), not a thing to do" }
            return nil
        })
        check("statements agree with the tools", Self.contradictions(in: texts, request: request, facts: facts))
        self.checks = checks
    }

    /// What the plan's texts say of the places the tool returned that its output contradicts
    /// (a kind of place, a number: see `PlaceStatements`).
    static func contradictions(in texts: [String], request: TripRequest, facts: ToolFacts) -> [String] {
        guard let returned = facts.places, !returned.isEmpty else { return [] }
        var seen: Set<String> = []
        let towns = Set(facts.categories.filter { $0.value == "town" }.keys)
        var places = returned.filter { seen.insert($0).inserted }.map { name in
            PlaceStatements.Place(
                name: name, category: facts.categories[name], description: facts.descriptions[name], distanceKm: facts.distances[name],
                isArea: towns.contains(name) || facts.destinations.contains(name))
        }
        // The destination's own names take their words ("Joshua Tree National Park" is not the town "Joshua Tree" and "National Park").
        places += ([request.landmark] + facts.landmarks).filter { seen.insert($0).inserted }.map {
            PlaceStatements.Place(name: $0, category: nil, description: nil, distanceKm: nil, isArea: true)
        }
        let statements = PlaceStatements(places: places, landmarks: [request.landmark] + facts.landmarks)
        return texts.flatMap { statements.contradictions(in: $0) }
    }

    /// The first word of `text` that is glued to another or mangled, as a small model writes them:
    /// punctuation between letters ("aquiet,undeveloped"), marks piled up ("Staycation,!"), a
    /// capital inside a word ("VisitorEducation"), letters after an apostrophe that no
    /// contraction has ("forana'strip"), an empty word (two spaces), or an ellipsis.
    static func malformedWord(in text: String, known: Set<String> = []) -> String? {
        if text.contains("  ") { return "two spaces" }
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            if known.contains(word.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:!?"))) { continue }
            if word.isEmpty || word.contains("…") || word.contains("...") { return word.isEmpty ? "an empty word" : word }
            let scalars = Array(word.unicodeScalars)
            func isLetter(_ index: Int) -> Bool { scalars.indices.contains(index) && CharacterSet.letters.contains(scalars[index]) }
            func isMark(_ index: Int) -> Bool { scalars.indices.contains(index) && ".,;:!?".unicodeScalars.contains(scalars[index]) }
            for index in scalars.indices {
                // "a.m." and "U.S." have one letter between their stops: not glued.
                if isMark(index), index > 0, isLetter(index - 1), isLetter(index + 1), isLetter(index + 2) || scalars[index] != "." { return word }
                if isMark(index), isMark(index + 1) { return word }
                if index > 0, CharacterSet.lowercaseLetters.contains(scalars[index - 1]), CharacterSet.uppercaseLetters.contains(scalars[index]) {
                    return word
                }
            }
            // "Harriet's", "don't", "o'clock" and "O'Neill" are words; "forana'strip" is not.
            if let apostrophe = word.firstIndex(where: { $0 == "'" || $0 == "’" }) {
                let before = word[..<apostrophe].reversed().prefix { $0.isLetter }.count
                let after = word[word.index(after: apostrophe)...].prefix { $0.isLetter }.count
                if before > 1 && after > 2 { return word }
            }
        }
        return nil
    }

    /// Whether `text` ends a sentence: with ".", "!" or "?", not an ellipsis.
    static func endsSentence(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last, ".!?".contains(last) else { return false }
        return !trimmed.hasSuffix("...")
    }

    /// The most consecutive days in `dates`.
    static func longestRun(of dates: [String]) -> Int {
        let days = Set(dates.compactMap { ItineraryFormat.parseDay($0) })
        var longest = 0
        for day in days where !days.contains(day.addingTimeInterval(-86_400)) {
            var length = 1
            while days.contains(day.addingTimeInterval(Double(length) * 86_400)) { length += 1 }
            longest = max(longest, length)
        }
        return longest
    }
}
