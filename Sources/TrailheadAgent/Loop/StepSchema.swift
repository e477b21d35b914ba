import Foundation
import TrailheadSchema

/// The schema of one agent turn: the model answers with exactly one JSON value that is either
/// a call of one enabled tool, several calls, or the final answer.
///
/// ```
/// anyOf: [ {"name": "findPointsOfInterest", "arguments": {…its schema…}},   one branch per tool
///          [ …tool branches…, 2 to `maximumCalls` ],                         when allowed
///          {"answer": {…output schema, narrowed…}} ]                        once grounded
/// ```
///
/// The schema changes per turn (see `GroundingGuard`): the final branch appears only once the
/// information tools have answered, and its grounded fields are narrowed to enums of what they
/// returned — so a small model can neither finish early nor invent a date or a place.
struct StepSchema: Sendable {
    struct ToolBranch: Sendable {
        var name: String
        var arguments: GeneratedContent
    }

    var tools: [ToolBranch]
    /// The output schema, already narrowed for this turn; `nil` while the final answer is not offered.
    var final: GeneratedContent?
    /// Offer a branch with several calls at once (run concurrently) when > 1.
    var maximumCalls: Int
    /// Fewest calls in a turn that calls tools: 2 or more leaves only the branch with several
    /// calls (an agent that wants several searches at once, of different kinds).
    var minimumCalls: Int
    /// Whether the final answer is written as `{"answer": …}` (false when there are no tools:
    /// the answer is then the output schema itself).
    var wrapsFinal: Bool

    init(tools: [ToolBranch], final: GeneratedContent?, maximumCalls: Int = 1, minimumCalls: Int = 1, wrapsFinal: Bool = true) {
        self.tools = tools
        self.final = final
        self.maximumCalls = maximumCalls
        self.minimumCalls = max(1, min(minimumCalls, maximumCalls))
        self.wrapsFinal = wrapsFinal
    }

    /// The member names of a turn. Chosen by measurement on BFCL with the 1.5B model: the model's
    /// own habit for a call is `{"name": …, "arguments": …}`, and "answer" reads as the way to say
    /// that no tool is needed (see docs/DESIGN.md).
    struct Keys: Sendable, Equatable {
        var call: String
        var arguments: String
        var calls: String?
        var final: String

        static let standard = Keys(call: "name", arguments: "arguments", calls: nil, final: "answer")

        /// The keys of this build, or of `TRAILHEAD_STEP_KEYS=call,arguments,calls|-,final` while a
        /// variant is being measured.
        static let current: Keys = {
            guard let text = ProcessInfo.processInfo.environment["TRAILHEAD_STEP_KEYS"] else { return .standard }
            let parts = text.split(separator: ",").map(String.init)
            guard parts.count == 4 else { return .standard }
            return Keys(call: parts[0], arguments: parts[1], calls: parts[2] == "-" ? nil : parts[2], final: parts[3])
        }()
    }

    static var keys: Keys { .current }

    /// The step schema as a JSON Schema document of Trailhead's subset.
    var json: GeneratedContent {
        if !wrapsFinal, let final { return final }
        let keys = Self.keys
        // Schemas with `$ref`s (a recursive answer, say) are kept whole under the step's `$defs`.
        var embedding = SchemaEmbedding()
        let toolBranches = tools.map { Self.branch(ToolBranch(name: $0.name, arguments: embedding.embed($0.arguments, as: "tool." + $0.name))) }
        let callList = ProcessInfo.processInfo.environment["TRAILHEAD_CALL_LIST"] == "1" && maximumCalls > 1
        var branches = minimumCalls > 1 || callList ? [] : toolBranches
        let counted = ProcessInfo.processInfo.environment["TRAILHEAD_CALL_COUNT"].flatMap { $0.isEmpty ? nil : $0 }
        if let countKey = counted, let callsKey = keys.calls, maximumCalls > 1, !toolBranches.isEmpty {
            // Say how many calls first, then make exactly that many.
            let items: GeneratedContent = toolBranches.count == 1 ? toolBranches[0] : ["anyOf": .array(toolBranches)]
            branches = (minimumCalls...maximumCalls).map { n in
                Self.object([countKey: ["const": .number(Double(n))], callsKey: [
                    "type": "array", "minItems": .number(Double(n)), "maxItems": .number(Double(n)), "items": ["$ref": "#/$defs/call"],
                ]])
            }
            if let final { branches.append(Self.object([keys.final: final])) }
            return ["$defs": ["call": items], "anyOf": .array(branches)]
        }
        if maximumCalls > 1, !toolBranches.isEmpty {
            let items: GeneratedContent = toolBranches.count == 1 ? toolBranches[0] : ["anyOf": .array(toolBranches)]
            let array: GeneratedContent = [
                "type": "array", "minItems": .number(Double(callList ? minimumCalls : max(2, minimumCalls))),
                "maxItems": .number(Double(maximumCalls)), "items": items,
            ]
            branches.append(keys.calls.map { Self.object([$0: array]) } ?? array)
        }
        if let final { branches.append(Self.object([keys.final: embedding.embed(final, as: "final")])) }
        return embedding.adding(to: branches.count == 1 ? branches[0] : ["anyOf": .array(branches)])
    }

    private static func branch(_ tool: ToolBranch) -> GeneratedContent {
        object([keys.call: ["const": .string(tool.name)], keys.arguments: tool.arguments])
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
enum Step: Sendable, Equatable {
    case call([ToolCallRequest])
    case final(GeneratedContent)

    /// Reads a parsed turn that already matched the step schema.
    init?(_ content: GeneratedContent) {
        let keys = StepSchema.keys
        if let final = content[keys.final] {
            self = .final(final)
        } else if let calls = keys.calls.map({ content[$0]?.arrayValue }) ?? content.arrayValue {
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
        let keys = StepSchema.keys
        guard let tool = content[keys.call]?.stringValue else { return nil }
        self.init(tool: tool, arguments: content[keys.arguments] ?? [:])
    }
}
