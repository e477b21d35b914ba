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

    /// Tools the planner leaves out even when their plugin is enabled: they add choices, not
    /// facts (or, for writes, need an approval a plan does not ask for).
    public static let unusedTools: Set<String> = ["describeLandmark", "calendarEvents", "calendarAddEvents"]

    /// How tool results ground the answer: every place is one the points-of-interest tool
    /// returned, and once it has returned enough places for the whole trip it is not asked again.
    public var grounding: Grounding {
        Grounding([.field("/days/*/activities/*/place", from: "findPointsOfInterest", at: "/results/*/name", enough: request.days * activitiesPerDay + 2)])
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
        configuration.checkAnswer = { Self.check($0) }
        configuration.request = request.content
        session.configuration = configuration
        return session
    }

    /// Plans the trip: prefetches what the request fixes, then streams the model's draft (turn
    /// it into an itinerary with `itinerary(from:transcript:)`).
    public func plan(with session: LanguageModelSession, options: GenerationOptions) -> LanguageModelSession.ResponseStream<GeneratedContent> {
        session.streamResponse(
            to: prompt(tools: session.toolNames), generating: GeneratedContent.self, schema: draftSchema,
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
                let kinds = (tool.parameters.json["properties"]?["category"]?["enum"]?.arrayValue ?? [])
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

    /// Free texts, bounded in words in the grammar (the prompt asks for fewer, so a model that
    /// overshoots still closes its sentence).
    public static let titleWords = 2...8, textWords = 4...30, noteWords = 3...16

    /// The model's part of the itinerary: a title, a sentence on the trip, why it suits, and for
    /// each day its places with a note — in day order, `activitiesPerDay` a day.
    public var draftSchema: GenerationSchema {
        let activity = SchemaBuilder.object(properties: ["place": .string(), "note": .text(words: Self.noteWords)])
        let day = SchemaBuilder.object(properties: ["activities": .array(of: activity, count: activitiesPerDay)])
        return SchemaBuilder.object(properties: [
            "title": .text(words: Self.titleWords),
            "description": .text(words: Self.textWords),
            "rationale": .text(words: Self.textWords),
            "days": .array(of: day, count: request.days),
        ]).declaredSchema
    }

    /// Problems a schema cannot express: no place visited twice.
    static func check(_ draft: GeneratedContent) -> [String] {
        let repeated = Itinerary.repeatedPlaces(in: draft)
        return repeated.isEmpty ? [] : ["/days: visit a different place in each activity (\(repeated.joined(separator: ", ")) more than once)"]
    }

    var instructions: Instructions {
        Instructions {
            "You plan trips. Look up places of a few different categories that suit the destination, then answer."
            "Use only places the points-of-interest tool returned, each once, \(activitiesPerDay) a day."
            "Write in plain words; a note gives one piece of advice about its place."
            // The shape, with descriptions in place of content: given a real example, the 1.5B model
            // copied its notes into every day (measured).
            "The answer's shape (one day): {\"answer\":{\"title\":\"<your own title>\",\"description\":\"<one short sentence on this trip>\",\"rationale\":\"<why these places suit the travellers, briefly>\",\"days\":[{\"activities\":[{\"place\":\"<a place the tool returned>\",\"note\":\"<short advice for that place>\"},{\"place\":\"<another place>\",\"note\":\"<short advice for that place>\"}]}]}}"
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
        text += " Keep the description and the rationale under 12 words each, and each note under 8 words."
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
            if stretch.count == request.days, PlanEvaluation.isConsecutive(Array(stretch)) { return Array(stretch) }
        }
        return Array(free.prefix(request.days))
    }

    /// What the model reads of each tool's result: the facts it plans with, not the rest.
    /// (Measured: verbose outputs raised the next turn's time to first token from 0.6 to 2.8 s.)
    public func summarize(tool: String, result: GeneratedContent) -> GeneratedContent {
        func keep(_ item: GeneratedContent, _ keys: [String], shorten: Set<String> = []) -> GeneratedContent {
            var kept = JSONObject()
            for key in keys {
                guard var value = item[key] else { continue }
                if shorten.contains(key), let text = value.stringValue, text.count > 48 { value = .string(String(text.prefix(48)) + "…") }
                kept[key] = value
            }
            return .object(kept)
        }
        switch tool {
        case "calendarFreeDays":
            let days = tripDays(freeDays: result["freeDays"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            return ["tripDays": .string(Self.naturalDays(days))]
        case "findPointsOfInterest":
            let places = (result["results"]?.arrayValue ?? []).prefix(10).map { keep($0, ["name", "category", "description"], shorten: ["description"]) }
            return ["results": .array(Array(places))]
        case "searchContacts":
            let people = (result["contacts"]?.arrayValue ?? []).map { keep($0, ["name", "homeCity", "note"], shorten: ["note"]) }
            return ["contacts": .array(people)]
        default:
            return result
        }
    }

    /// "Saturday 19 December 2026, Sunday 20 December 2026".
    static func naturalDays(_ days: [String]) -> String {
        days.map(ItineraryFormat.dayHeading).joined(separator: ", ")
    }

    /// The itinerary: the model's draft (whole, or a snapshot still being written) with what the
    /// planner decides filled in from the request and the tools' results in `transcript`.
    public func itinerary(from draft: GeneratedContent, transcript: [Transcript.Entry]) -> GeneratedContent {
        itinerary(from: draft, facts: PlanEvaluation.ToolFacts(transcript: transcript))
    }

    public func itinerary(from draft: GeneratedContent, facts: PlanEvaluation.ToolFacts) -> GeneratedContent {
        let dates = tripDays(freeDays: facts.freeDays)
        var itinerary = JSONObject()
        for key in ["title"] { if let value = draft[key] { itinerary[key] = value } }
        itinerary["destination"] = .string(request.landmark)
        for key in ["description", "rationale"] { if let value = draft[key] { itinerary[key] = value } }
        if let days = draft["days"]?.arrayValue {
            itinerary["days"] = .array(days.enumerated().map { index, day in
                var filled = JSONObject()
                if index < dates.count { filled["date"] = .string(dates[index]) }
                let activities = (day["activities"]?.arrayValue ?? []).enumerated().map { position, activity -> GeneratedContent in
                    let place = activity["place"]?.stringValue
                    let category = place.flatMap { facts.categories[$0] }
                    var object = JSONObject()
                    object["time"] = .string(Self.timeOfDay(position: position, category: category).rawValue)
                    if let place { object["place"] = .string(place) }
                    if let category { object["category"] = .string(category) }
                    if let note = activity["note"] { object["note"] = note }
                    return .object(object)
                }
                // In the order of the day (an evening place written first moves last).
                let order: [String: Int] = ["morning": 0, "afternoon": 1, "evening": 2]
                filled["activities"] = .array(activities.enumerated().sorted { a, b in
                    (order[a.element["time"]?.stringValue ?? ""] ?? 0, a.offset) < (order[b.element["time"]?.stringValue ?? ""] ?? 0, b.offset)
                }.map(\.element))
                return .object(filled)
            })
        }
        if !request.companions.isEmpty {
            let found = (facts.contacts ?? []).filter { name in request.companions.contains { PlanEvaluation.names(name, $0) } }
            itinerary["companions"] = .array(Self.unique(found).map { .string($0) })
        }
        return .object(itinerary)
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
