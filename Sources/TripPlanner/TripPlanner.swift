import PointsOfInterestTypes
import TrailheadAgent
import TrailheadModels
import TrailheadSchema

/// The flagship agent, a client of the session API like any other: plans a trip to a landmark
/// with the points-of-interest, calendar and contacts tools, and answers with an `Itinerary`
/// grounded in what they returned. `agent plan`, `agent eval` and `agent transcript replay` all
/// run it through `makeSession`, `plan` and `itinerary(from:transcript:)`.
///
/// The model is asked only for what needs a model: which places to look for, which to visit
/// when, and the words. What the request and the tools already decide is decided here, not
/// generated: the calendar and the contacts are asked before the first turn; the days are the
/// first stretch of free days the calendar allows; the destination, the dates, each place's
/// category, the time of day and the companions are filled in from the tools' results. (Each
/// token the model writes costs ~0.1 s on a 2-core machine; a plan with all of them generated
/// took 446 tokens and 49 s for its last turn alone.)
public struct TripPlanner: Sendable {
    public var request: TripRequest
    /// Describe the answer's schema in the prompt too (the output is constrained either way).
    public var includeSchemaInPrompt: Bool
    public var maximumTurns: Int
    /// Activities each day gets.
    public var activitiesPerDay: Int

    public init(request: TripRequest, includeSchemaInPrompt: Bool = false, maximumTurns: Int = 10, activitiesPerDay: Int = 2) {
        self.request = request
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.maximumTurns = maximumTurns
        self.activitiesPerDay = activitiesPerDay
    }

    /// The planner's plugins, the bundled ones whose tools it knows: what `agent plan`, `agent eval`
    /// and `agent serve` plan with unless told otherwise, and all a JSON trip request may choose from.
    public static let plugins = ["poi", "calendar", "contacts"]

    /// Tools the planner leaves out even when their plugin is enabled: they add choices, not
    /// facts (or, for writes, need an approval a plan does not ask for).
    public static let unusedTools: Set<String> = ["describeLandmark", "calendarEvents", "calendarAddEvents"]

    /// Kinds of place that are not things to do: where the travellers stay (the itinerary's
    /// `lodging`), and towns and airports (where they pass through).
    public static let notActivities: Set<String> = ["lodging", "campground", "town", "airport"]

    /// Kinds of place the travellers stay at.
    public static let stays: Set<String> = ["lodging", "campground"]

    /// How tool results ground the answer: every place is a thing to do the points-of-interest tool
    /// returned (never lodging, a town, an airport, the destination itself or another place the
    /// tool marks as a destination, such as the national park around a village), a different one
    /// for each activity (a repeat is repaired naming the places not used yet); once it has
    /// returned enough for the whole trip it is not asked again. With the
    /// calendar on, it must leave a free day for each day of the trip. Without these there is no
    /// plan: the session ends saying what the tool said (an unknown landmark) rather than letting
    /// the model invent places or dates.
    public var grounding: Grounding {
        let needed = request.days * activitiesPerDay
        return Grounding(
            [
                .field(
                    "/days/*/activities/*/place", from: "findPointsOfInterest", at: "/results/*/name", enough: needed, atLeast: needed,
                    except: [
                        .values([request.landmark]), .valueAt("/landmark/name"), .member("category", in: Array(Self.notActivities).sorted()),
                        .flagged("destination"),
                    ], distinct: true),
                .facts(from: "calendarFreeDays", at: "/freeDays/*", atLeast: request.days),
            ],
            // What is said of a place is the tool's, never the model's.
            quotes: [.quote("/days/*/activities/*/about", from: "findPointsOfInterest", items: "/results/*", member: "description", where: "name", equals: "place")])
    }

    /// The usage message for a failure the request itself causes (its window has too few free
    /// days), nil for others.
    public func requestProblem(_ failure: GroundingFailure) -> String? {
        if failure.tool == "findPointsOfInterest", failure.field != nil, failure.error == nil, failure.found > 0 {
            // The place has things to do, but fewer than the days asked for need.
            return "a \(request.days)-day trip needs \(failure.needed) places to visit, and the points-of-interest tool knows \(failure.found) around \(request.landmark)"
        }
        guard failure.tool == "calendarFreeDays", failure.field == nil else { return nil }
        if let error = failure.error, failure.found == 0 { return "the calendar could not be read: \(error)" }
        return "a \(request.days)-day trip does not fit the free days of \(request.from)…\(request.to): the calendar leaves \(failure.found) free"
    }

    /// The session for this trip over `model`, with the planner's tools taken from `available`:
    /// the calendar pinned to the request's window, the contacts to the companions it names (and
    /// left out when it names none: companions come only from the request), the places searched
    /// around the landmark by category.
    /// With `transcript`, the session continues that stored conversation (`agent serve`).
    public func makeSession(model: some LanguageModel, tools available: [any Tool], transcript: Transcript? = nil) -> LanguageModelSession {
        let tools = self.tools(from: available)
        let session = transcript.map { LanguageModelSession(model: model, tools: tools, instructions: instructions, grounding: grounding, transcript: $0) }
            ?? LanguageModelSession(model: model, tools: tools, instructions: instructions, grounding: grounding)
        var configuration = session.configuration
        // One turn of place searches (two or three kinds at once, so the days are not all alike),
        // a second if they found too few, then the answer.
        configuration.limits = .init(maximumTurns: maximumTurns, maximumCallsPerTurn: 3, minimumCallsPerTurn: 2, maximumToolTurns: 2)
        let planner = self
        configuration.summarizeToolOutput = { planner.summarize(tool: $0, result: $1) }
        // With the points-of-interest tool, the grounding keeps the places distinct (and names those
        // still unused); without it nothing grounds them, and they are checked here.
        if !session.toolNames.contains("findPointsOfInterest") { configuration.checkAnswer = { Self.check(Partial($0)) } }
        configuration.request = request.content
        session.configuration = configuration
        return session
    }

    /// Plans the trip: prefetches what the request fixes, then streams the model's draft (turn
    /// it into an itinerary with `itinerary(from:facts:)`).
    public func plan(with session: LanguageModelSession, options: GenerationOptions) -> LanguageModelSession.ResponseStream<Draft> {
        session.streamResponse(
            to: prompt(tools: session.toolNames), generating: Draft.self, schema: draftSchema,
            includeSchemaInPrompt: includeSchemaInPrompt, options: options, prefetching: prefetchedCalls(tools: session.toolNames))
    }

    func tools(from available: [any Tool]) -> [any Tool] {
        available.compactMap { tool -> (any Tool)? in
            switch tool.name {
            case _ where Self.unusedTools.contains(tool.name): return nil
            case "calendarFreeDays": return narrowed(tool, fixing: calendarArguments)
            case "searchContacts":
                return request.companions.isEmpty ? nil : narrowed(tool, fixing: contactsArguments, hiding: ["group"])
            case "findPointsOfInterest":
                // The model chooses a kind of place; where is the request's, and towns or
                // airports are not things to do.
                let kinds = (JSONPath.root.appending("category").allowedValues(in: tool.parameters.json) ?? [])
                    .filter { !["town", "airport"].contains($0.stringValue ?? "") }
                return narrowed(
                    tool, fixing: ["landmark": .string(request.landmark)], hiding: ["latitude", "longitude", "radiusKm", "limit", "query"],
                    requiring: ["category"], allowing: kinds.isEmpty ? [:] : ["category": kinds])
            default: return tool
            }
        }
    }

    private var calendarArguments: JSONObject { ["start": .string(request.from), "end": .string(request.to)] }
    private var contactsArguments: JSONObject { ["query": .string(request.companions.joined(separator: ", "))] }

    /// The calls whose arguments the request fixes, made before the first turn: the free days of
    /// the window, the companions it names, and the best-known places around the landmark (of
    /// every kind: when they are enough, the model needs no search turn at all).
    func prefetchedCalls(tools: [String]) -> [ToolCallRequest] {
        var calls: [ToolCallRequest] = []
        if tools.contains("findPointsOfInterest") { calls.append(ToolCallRequest(tool: "findPointsOfInterest", arguments: [:])) }
        if tools.contains("calendarFreeDays") { calls.append(ToolCallRequest(tool: "calendarFreeDays", arguments: .object(calendarArguments))) }
        if tools.contains("searchContacts") { calls.append(ToolCallRequest(tool: "searchContacts", arguments: .object(contactsArguments))) }
        return calls
    }

    // MARK: - What the model writes

    /// Free texts, bounded in words in the grammar above what the prompt asks (under 15). Each is
    /// one sentence, which ends the text: with a bound of 30 and several sentences allowed the model
    /// wrote to the bound; at a bound close to its sentence's length it glued the last words
    /// together to finish it ("making itidolatable" at 14, "fromKyoto" at 18; asked under 12, it
    /// wrote 11 to 19 words on the bench trips).
    public static let titleWords = 2...10, textWords = 4...24

    /// The schema of the model's draft for this request: `request.days` days of
    /// `activitiesPerDay` activities.
    public var draftSchema: GenerationSchema {
        do {
            return try Draft.generationSchema.narrowed { edit in
                edit.count(request.days, at: ["days"])
                edit.count(activitiesPerDay, at: ["days", "*", "activities"])
            }
        } catch {
            preconditionFailure("the draft's schema does not narrow to \(request.days) days: \(error)")
        }
    }

    /// Problems a schema cannot express when no tool grounds the places: no place visited twice.
    static func check(_ draft: Partial<Draft>) -> [String] {
        let repeated = Itinerary.repeated(draft.places)
        return repeated.isEmpty ? [] : ["/days: visit a different place in each activity (\(repeated.joined(separator: ", ")) more than once)"]
    }

    var instructions: Instructions {
        Instructions {
            "You plan trips. Look up places of a few different categories that suit the destination, then answer."
            "Use only places the points-of-interest tool returned, each once, \(activitiesPerDay) a day."
            "Write in plain words, one sentence each."
            // The shape, with descriptions in place of content: given a real example, the 1.5B model
            // copied its notes into every day (measured).
            "The answer's shape (one day): {\"answer\":{\"title\":\"<your own title>\",\"description\":\"<one short sentence on this trip>\",\"rationale\":\"<why these places suit the travellers, briefly>\",\"days\":[{\"activities\":[{\"place\":\"<a place the tool returned>\"},{\"place\":\"<another place>\"}]}]}}"
        }
    }

    func prompt(tools: [String]) -> Prompt {
        var text = "Plan a \(request.days)-day trip to \(request.landmark)"
        if !request.companions.isEmpty { text += " with \(request.companions.joined(separator: ", "))" }
        if tools.contains("calendarFreeDays") {
            text += ", on the days the calendar leaves free (below)."
        } else {
            text += ", on \(Self.naturalDays(Array(request.window.prefix(request.days))))."
        }
        // Asked here, where a small model heeds it most, and below the grammar's bounds so that a
        // model that overshoots still ends its sentence.
        text += " Keep the description and the rationale under 15 words each."
        return Prompt(text)
    }

    // MARK: - What the planner decides

    /// The trip's days: the first stretch of `days` consecutive free days in the window; else the
    /// first free days; without a calendar, the window's first days.
    public func tripDays(freeDays: [String]?) -> [String] {
        let window = request.window
        guard let freeDays else { return Array(window.prefix(request.days)) }
        let free = window.filter(Set(freeDays).contains)
        for start in free.indices {
            let stretch = free[start...].prefix(request.days)
            if stretch.count == request.days, Self.isConsecutive(Array(stretch)) { return Array(stretch) }
        }
        return Array(free.prefix(request.days))
    }

    /// Whether `dates` (YYYY-MM-DD, in order) follow one another day by day.
    public static func isConsecutive(_ dates: [String]) -> Bool {
        let days = dates.compactMap { ItineraryFormat.parseDay($0) }
        return zip(days, days.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 86_400 }
    }

    /// What the model reads of each tool's result: the facts it plans with, not the rest.
    /// (Measured: verbose outputs raised the next turn's time to first token from 0.6 to 2.8 s.)
    public func summarize(tool: String, result: GeneratedContent) -> GeneratedContent {
        switch tool {
        case "calendarFreeDays":
            let days = tripDays(freeDays: ToolResults.decode(ToolResults.FreeDays.self, from: result)?.freeDays ?? [])
            return Self.content(TripDays(tripDays: Self.naturalDays(days)))
        case "findPointsOfInterest":
            // Only things to do: lodging, towns and the destination are not the model's to choose.
            let found = Partial<PointsOfInterest>(result)
            var read = Partial<PointsOfInterest>()
            read.results = (found.results ?? []).filter { isThingToDo($0, around: found.landmark?.name) }.prefix(10).map { place in
                var shown = Partial<PointsOfInterest.Place>()
                shown.name = place.name
                shown.category = place.category
                shown.description = place.description.map(Self.shortened)
                return shown
            }
            return read.content
        case "searchContacts":
            let people = (ToolResults.decode(ToolResults.Contacts.self, from: result)?.contacts ?? []).map {
                ToolResults.Contacts.Contact(name: $0.name, homeCity: $0.homeCity, note: $0.note.map(Self.shortened))
            }
            return Self.content(ToolResults.Contacts(contacts: people))
        default:
            return result
        }
    }

    /// Whether a place the tool returned can be an activity (see `grounding`; one without a name cannot).
    func isThingToDo(_ place: Partial<PointsOfInterest.Place>, around landmark: String?) -> Bool {
        guard let name = place.name.map(Grounding.fold) else { return false }
        if let category = place.category?.rawValue, Self.notActivities.contains(category) { return false }
        if place.destination == true { return false }
        return name != Grounding.fold(request.landmark) && name != landmark.map(Grounding.fold)
    }

    /// The free days as the model reads them.
    private struct TripDays: Encodable { var tripDays: String }

    private static func content(_ value: some Encodable) -> GeneratedContent { (try? GeneratedContent(encoding: value)) ?? [:] }

    /// At most 48 characters of a tool's text, with an ellipsis.
    private static func shortened(_ text: String) -> String { text.count > 48 ? String(text.prefix(48)) + "…" : text }

    /// "Saturday 19 December 2026, Sunday 20 December 2026".
    static func naturalDays(_ days: [String]) -> String {
        days.map(ItineraryFormat.dayHeading).joined(separator: ", ")
    }

    /// The itinerary: the model's draft (a snapshot still being written, or whole) with what the
    /// planner decides filled in from the request and the tools' results in `transcript`.
    public func itinerary(from draft: Partial<Draft>, transcript: [Transcript.Entry]) -> Partial<Itinerary> {
        itinerary(from: draft, facts: ToolFacts(transcript: transcript))
    }

    public func itinerary(from draft: Partial<Draft>, facts: ToolFacts) -> Partial<Itinerary> {
        let dates = tripDays(freeDays: facts.freeDays)
        var itinerary = Partial<Itinerary>()
        itinerary.title = draft.title
        itinerary.destination = request.landmark
        itinerary.description = draft.description
        itinerary.rationale = draft.rationale
        itinerary.days = draft.days?.enumerated().map { index, drafted in
            var day = Partial<DayPlan>()
            day.date = index < dates.count ? dates[index] : nil
            let activities = (drafted.activities ?? []).enumerated().map { position, drafted in
                var activity = Partial<Activity>()
                let category = drafted.place.flatMap { facts.categories[$0] }
                activity.time = Self.timeOfDay(position: position, category: category)
                activity.place = drafted.place
                activity.category = category
                activity.about = drafted.about
                return activity
            }
            // In the order of the day (an evening place written first moves last).
            day.activities = activities.enumerated().sorted { a, b in
                (a.element.time?.order ?? 0, a.offset) < (b.element.time?.order ?? 0, b.offset)
            }.map(\.element)
            return day
        }
        itinerary.lodging = facts.lodging.first
        if !request.companions.isEmpty {
            let found = (facts.contacts ?? []).filter(request.namesCompanion)
            itinerary.companions = Self.unique(found)
        }
        return itinerary
    }

    /// The itinerary of a whole draft (see `itinerary(from:facts:)`).
    public func itinerary(from draft: Draft, facts: ToolFacts) -> Partial<Itinerary> {
        itinerary(from: Partial((try? draft.generatedContent()) ?? [:]), facts: facts)
    }

    /// Morning, then afternoon, then evening; a place for the night sky or a dinner is evening.
    static func timeOfDay(position: Int, category: String?) -> TimeOfDay {
        if let category, ["stargazing", "restaurant"].contains(category) { return .evening }
        return [.morning, .afternoon, .evening][min(position, 2)]
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }
}

extension TimeOfDay {
    /// Its place in the day: morning first.
    var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
