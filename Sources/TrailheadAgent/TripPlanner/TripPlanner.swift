import TrailheadSchema

/// The flagship agent: plans a trip to a landmark with the points-of-interest, calendar and
/// contacts tools, and answers with an `Itinerary` grounded in what they returned.
public struct TripPlanner: Sendable {
    /// A tool as the planner sees it.
    public struct ToolInfo: Sendable {
        public var name: String
        public var description: String
        public var arguments: GenerationSchema
        public init(name: String, description: String, arguments: GenerationSchema) {
            self.name = name
            self.description = description
            self.arguments = arguments
        }
    }

    public var request: TripRequest
    public var tools: [ToolInfo]
    /// Copy the tools' argument schemas into the prompt. Unneeded when output is constrained
    /// (the step schema carries them), and it costs prompt tokens: off by default.
    public var includeSchemaInPrompt: Bool
    public var maximumTurns: Int

    public init(request: TripRequest, tools: [ToolInfo], includeSchemaInPrompt: Bool = false, maximumTurns: Int = 10) {
        self.request = request
        self.tools = tools
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.maximumTurns = maximumTurns
    }

    /// The activity categories: the POI tool's own enum when it is enabled.
    public var categories: [String] {
        let fromTool = tools.first { $0.name == "findPointsOfInterest" }?
            .arguments.json["properties"]?["category"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        return fromTool ?? ["hike", "viewpoint", "campground", "lodging", "restaurant", "cafe", "museum",
                            "marina", "beach", "stargazing", "landmark", "town"]
    }

    var usesContacts: Bool { tools.contains { $0.name == "searchContacts" } }

    /// The itinerary schema, its destination fixed to the landmark asked for.
    public var outputSchema: GeneratedContent {
        var schema = Itinerary.schema(days: request.days, categories: categories, companions: usesContacts)
        if case .object(var object) = schema, case .object(var properties)? = object["properties"] {
            properties["destination"] = ["type": "string", "const": .string(request.landmark)]
            object["properties"] = .object(properties)
            schema = .object(object)
        }
        return schema
    }

    /// How tool results ground the final answer.
    public static let groundingRules: [GroundingGuard.Rule] = [
        .init(tool: "calendarFreeDays", target: ["days", "*", "date"]) { result in
            result["freeDays"]?.arrayValue?.compactMap(\.stringValue) ?? []
        },
        .init(tool: "findPointsOfInterest", target: ["days", "*", "activities", "*", "place"]) { result in
            result["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        },
        .init(tool: "searchContacts", target: ["companions", "*"]) { result in
            result["contacts"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        },
    ]

    public var instructions: String {
        var lines = [
            "You are a trip planner. Each turn, answer with one JSON object:",
            "{\"tool\": NAME, \"arguments\": {…}} to call a tool, or {\"final\": ITINERARY} when you have what you need.",
            "Use only dates that the calendar reports free, places that the points-of-interest tool returned, and people the contacts tool found.",
            "Keep every text short: at most 15 words.",
            "Tools:",
        ]
        for tool in tools {
            var line = "- \(tool.name): \(tool.description)"
            if includeSchemaInPrompt { line += " Arguments: \(tool.arguments.json.jsonString)" }
            lines.append(line)
        }
        if includeSchemaInPrompt { lines.append("ITINERARY schema: \(outputSchema.jsonString)") }
        lines.append("Example of a final answer (one day):")
        lines.append(Self.example.jsonString)
        return lines.joined(separator: "\n")
    }

    public var prompt: String {
        var text = "Plan a \(request.days)-day trip to \(request.landmark)"
        if tools.contains(where: { $0.name == "calendarFreeDays" }) {
            text += " on free days between \(request.from) and \(request.to)"
        }
        if !request.companions.isEmpty { text += " with \(request.companions.joined(separator: ", "))" }
        return text + "."
    }

    /// An example answer that shows the shape with descriptions in place of content: with a real
    /// example (measured) the 1.5B model copied its title and description, even its destination.
    static let example: GeneratedContent = [
        "final": [
            "title": "<a short title of your own>",
            "destination": "<the landmark>",
            "description": "<one sentence on this trip>",
            "rationale": "<why these dates and places suit the travellers>",
            "days": [["date": "<a free day>", "activities": [
                ["time": "morning", "place": "<a place the tool returned>", "category": "hike", "note": "<one sentence of advice>"],
            ]]],
            "companions": ["<a person the contacts tool found>"],
        ]
    ]

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
            let places = (result["results"]?.arrayValue ?? []).map { keep($0, ["name", "category", "distanceKm", "description"], shorten: ["description"]) }
            return ["results": .array(places)]
        case "searchContacts":
            let people = (result["contacts"]?.arrayValue ?? []).map { keep($0, ["name", "homeCity", "note"], shorten: ["note"]) }
            return ["contacts": .array(people)]
        default:
            return result
        }
    }

    /// Tools the planner leaves out even when their plugin is enabled: they add choices, not facts.
    public static let unusedTools: Set<String> = ["describeLandmark", "calendarEvents"]

    /// The argument schema the model sees for `tool`. The calendar's window is the request's,
    /// so its `start` and `end` are fixed: a small model then cannot ask about the wrong weeks.
    public func arguments(of tool: ToolInfo) -> GenerationSchema {
        guard tool.name == "calendarFreeDays", case .object(var schema) = tool.arguments.json,
              case .object(var properties)? = schema["properties"]
        else { return tool.arguments }
        properties["start"] = ["type": "string", "const": .string(request.from)]
        properties["end"] = ["type": "string", "const": .string(request.to)]
        schema["properties"] = .object(properties)
        return (try? GenerationSchema(json: .object(schema))) ?? tool.arguments
    }

    /// The state machine for one run.
    public func makeStateMachine() -> AgentStateMachine {
        let names = Set(tools.map(\.name))
        return AgentStateMachine(
            tools: tools.map { AgentStateMachine.Tool(name: $0.name, arguments: arguments(of: $0)) },
            outputSchema: outputSchema,
            grounding: GroundingGuard(rules: Self.groundingRules, enabledTools: names),
            limits: .init(maximumTurns: maximumTurns),
            extraFinalCheck: Itinerary.check)
    }
}
