import TrailheadSchema

/// The schema of one agent turn: the model answers with exactly one JSON object that is either
/// a call of one enabled tool, several calls, or the final answer.
///
/// ```
/// anyOf: [ {"tool": "findPointsOfInterest", "arguments": {…its schema…}},   one branch per tool
///          {"calls": [ …tool branches…, 2 to `maximumCalls` ]},               when allowed
///          {"final": {…output schema, narrowed…}} ]                         once grounded
/// ```
///
/// The schema changes per turn (see `GroundingGuard`): the final branch appears only once the
/// information tools have answered, and its grounded fields are narrowed to enums of what they
/// returned — so a small model can neither finish early nor invent a date or a place.
public struct StepSchema: Sendable {
    public struct ToolBranch: Sendable {
        public var name: String
        public var arguments: GeneratedContent
        public init(name: String, arguments: GeneratedContent) {
            self.name = name
            self.arguments = arguments
        }
    }

    public var tools: [ToolBranch]
    /// The output schema, already narrowed for this turn; `nil` while the final answer is not offered.
    public var final: GeneratedContent?
    /// Offer a branch with several calls at once (run concurrently) when > 1.
    public var maximumCalls: Int
    /// Fewest calls in a turn that calls tools: 2 or more leaves only the branch with several
    /// calls (an agent that wants several searches at once, of different kinds).
    public var minimumCalls: Int
    /// Whether the final answer is written as `{"final": …}` (false when there are no tools:
    /// the answer is then the output schema itself).
    public var wrapsFinal: Bool

    public init(tools: [ToolBranch], final: GeneratedContent?, maximumCalls: Int = 1, minimumCalls: Int = 1, wrapsFinal: Bool = true) {
        self.tools = tools
        self.final = final
        self.maximumCalls = maximumCalls
        self.minimumCalls = max(1, min(minimumCalls, maximumCalls))
        self.wrapsFinal = wrapsFinal
    }

    /// The step schema as a JSON Schema document of Trailhead's subset.
    public var json: GeneratedContent {
        if !wrapsFinal, let final { return final }
        // Schemas with `$ref`s (a recursive answer, say) are kept whole under the step's `$defs`.
        var embedding = SchemaEmbedding()
        let toolBranches = tools.map { Self.branch(ToolBranch(name: $0.name, arguments: embedding.embed($0.arguments, as: "tool." + $0.name))) }
        var branches = minimumCalls > 1 ? [] : toolBranches
        if maximumCalls > 1, !toolBranches.isEmpty {
            branches.append(Self.object(["calls": [
                "type": "array", "minItems": .number(Double(max(2, minimumCalls))), "maxItems": .number(Double(maximumCalls)),
                "items": toolBranches.count == 1 ? toolBranches[0] : ["anyOf": .array(toolBranches)],
            ]]))
        }
        if let final { branches.append(Self.object(["final": embedding.embed(final, as: "final")])) }
        return embedding.adding(to: branches.count == 1 ? branches[0] : ["anyOf": .array(branches)])
    }

    private static func branch(_ tool: ToolBranch) -> GeneratedContent {
        object(["tool": ["const": .string(tool.name)], "arguments": tool.arguments])
    }

    /// A closed object whose members are all required, in the given order.
    private static func object(_ properties: JSONObject) -> GeneratedContent {
        [
            "type": "object",
            "properties": .object(properties),
            "required": .array(properties.keys.map { .string($0) }),
            "additionalProperties": false,
        ]
    }
}

/// What one turn's answer asks for.
public enum Step: Sendable, Equatable {
    case call([ToolCallRequest])
    case final(GeneratedContent)

    /// Reads a parsed turn that already matched the step schema.
    public init?(_ content: GeneratedContent) {
        if let final = content["final"] {
            self = .final(final)
        } else if let calls = content["calls"]?.arrayValue {
            let requests = calls.compactMap(ToolCallRequest.init)
            guard requests.count == calls.count, !requests.isEmpty else { return nil }
            self = .call(requests)
        } else if let request = ToolCallRequest(content) {
            self = .call([request])
        } else {
            return nil
        }
    }
}

/// One call the model asked for.
public struct ToolCallRequest: Sendable, Hashable {
    public var tool: String
    public var arguments: GeneratedContent

    public init(tool: String, arguments: GeneratedContent) {
        self.tool = tool
        self.arguments = arguments
    }

    init?(_ content: GeneratedContent) {
        guard let tool = content["tool"]?.stringValue else { return nil }
        self.init(tool: tool, arguments: content["arguments"] ?? [:])
    }
}
