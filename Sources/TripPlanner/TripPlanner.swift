import TrailheadAgent
import TrailheadModels
import TrailheadSchema

/// The flagship agent, a client of the session API like any other: plans a trip to a landmark
/// with the points-of-interest, calendar and contacts tools, and answers with an `Itinerary`
/// grounded in what they returned. `agent plan` and `agent transcript replay` both run it through
/// `makeSession` and `plan`.
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

    /// How tool results ground the answer.
    public static let grounding = Grounding([
        .field("/days/*/date", from: "calendarFreeDays", at: "/freeDays/*"),
        .field("/days/*/activities/*/place", from: "findPointsOfInterest", at: "/results/*/name"),
        .field("/companions/*", from: "searchContacts", at: "/contacts/*/name"),
    ])

    /// The session for this trip over `model`, with the planner's tools taken from `available`:
    /// the calendar pinned to the request's window, the contacts to the companions it names (and
    /// left out when it names none: companions come only from the request), the places searched
    /// around the landmark.
    public func makeSession(model: some LanguageModel, tools available: [any Tool]) -> LanguageModelSession {
        let tools = self.tools(from: available)
        let session = LanguageModelSession(model: model, tools: tools, instructions: instructions(tools: tools), grounding: Self.grounding)
        var configuration = session.configuration
        configuration.limits = .init(maximumTurns: maximumTurns, maximumCallsPerTurn: 3)
        configuration.summarizeToolOutput = Self.summarize
        configuration.checkAnswer = Itinerary.check
        configuration.request = request.content
        session.configuration = configuration
        return session
    }

    /// Plans the trip: prefetches what the request fixes, then streams the itinerary.
    public func plan(with session: LanguageModelSession, options: GenerationOptions) -> LanguageModelSession.ResponseStream<Itinerary> {
        session.streamResponse(
            to: prompt(tools: session.toolNames), generating: Itinerary.self, schema: answerSchema(tools: session),
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
                return narrowed(tool, fixing: ["landmark": .string(request.landmark)], hiding: ["latitude", "longitude", "radiusKm", "limit"])
            default: return tool
            }
        }
    }

    private var calendarArguments: JSONObject { ["start": .string(request.from), "end": .string(request.to)] }
    private var contactsArguments: JSONObject { ["query": .string(request.companions.joined(separator: ", "))] }

    /// The calls whose arguments the request fixes: made before the first turn.
    func prefetchedCalls(tools: [String]) -> [ToolCallRequest] {
        var calls: [ToolCallRequest] = []
        if tools.contains("calendarFreeDays") { calls.append(ToolCallRequest(tool: "calendarFreeDays", arguments: .object(calendarArguments))) }
        if tools.contains("searchContacts") { calls.append(ToolCallRequest(tool: "searchContacts", arguments: .object(contactsArguments))) }
        return calls
    }

    /// The activity categories: the points-of-interest tool's own enum when it is enabled.
    static func categories(tools: [any Tool]) -> [String] {
        let fromTool = tools.first { $0.name == "findPointsOfInterest" }?
            .parameters.json["properties"]?["category"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        return fromTool ?? ["hike", "viewpoint", "campground", "lodging", "restaurant", "cafe", "museum", "marina", "beach",
                            "stargazing", "landmark", "town"]
    }

    /// `Itinerary`'s schema narrowed to this request: exactly `days` days of `activitiesPerDay`
    /// activities, dates inside the window, the destination fixed, the tool's categories, and
    /// companions only when the request names some.
    func answerSchema(tools session: LanguageModelSession) -> GenerationSchema {
        answerSchema(categories: session.toolNames.contains("findPointsOfInterest") ? poiCategories(session) : Self.categories(tools: []),
                     companions: session.toolNames.contains("searchContacts"))
    }

    private func poiCategories(_ session: LanguageModelSession) -> [String] {
        session.parameters(ofTool: "findPointsOfInterest")?.json["properties"]?["category"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
            ?? Self.categories(tools: [])
    }

    public func answerSchema(categories: [String], companions: Bool) -> GenerationSchema {
        let activity = SchemaBuilder.object(properties: [
            "time": .enumeration(TimeOfDay.self),
            "place": .string(),
            "category": .string(enum: categories),
            "note": .text(words: 3...12),
        ])
        let day = SchemaBuilder.object(properties: [
            "date": .string(enum: request.window),
            "activities": .array(of: activity, count: activitiesPerDay),
        ])
        var answer = SchemaBuilder.object(properties: [
            "title": .text(words: 2...8),
            "destination": .constant(.string(request.landmark)),
            "description": .text(words: 4...20),
            "rationale": .text(words: 4...20),
            "days": .array(of: day, count: request.days),
        ])
        if companions {
            answer = answer.adding("companions", .array(of: .string(), minItems: 1, maxItems: max(1, request.companions.count)))
        }
        return answer.declaredSchema
    }

    func instructions(tools: [any Tool]) -> Instructions {
        Instructions {
            "You are a trip planner."
            "Use only dates the calendar reports free, and places the points-of-interest tool returned."
            "Search for places of different categories that suit the landmark, then give each day \(activitiesPerDay) activities at different places and times."
            if !request.companions.isEmpty { "The companions are the people named in the request, as the contacts tool found them." }
            "Keep every text short and specific."
        }
    }

    func prompt(tools: [String]) -> Prompt {
        var text = "Plan a \(request.days)-day trip to \(request.landmark)"
        text += tools.contains("calendarFreeDays") ? " on free days between \(request.from) and \(request.to)" : " between \(request.from) and \(request.to)"
        if !request.companions.isEmpty { text += " with \(request.companions.joined(separator: ", "))" }
        return Prompt(text + ".")
    }

    /// What the model reads of each tool's result: the facts it plans with, not the rest.
    /// (Measured: verbose outputs raised the next turn's time to first token from 0.6 to 2.8 s.)
    public static func summarize(tool: String, result: GeneratedContent) -> GeneratedContent {
        func keep(_ item: GeneratedContent, _ keys: [String], shorten: Set<String> = []) -> GeneratedContent {
            var kept = JSONObject()
            for key in keys {
                guard var value = item[key] else { continue }
                if shorten.contains(key), let text = value.stringValue, text.count > 90 { value = .string(String(text.prefix(90)) + "…") }
                kept[key] = value
            }
            return .object(kept)
        }
        switch tool {
        case "calendarFreeDays":
            let free = result["freeDays"]?.arrayValue ?? []
            return ["freeDays": .array(Array(free.prefix(21)))]
        case "findPointsOfInterest":
            let places = (result["results"]?.arrayValue ?? []).map { keep($0, ["name", "category", "distanceKm"]) }
            return ["results": .array(places)]
        case "searchContacts":
            let people = (result["contacts"]?.arrayValue ?? []).map { keep($0, ["name", "homeCity", "note"], shorten: ["note"]) }
            return ["contacts": .array(people)]
        default:
            return result
        }
    }
}
