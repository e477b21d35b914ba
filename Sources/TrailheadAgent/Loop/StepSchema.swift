import Foundation
import TrailheadSchema

/// The schema of one agent turn: the model answers with exactly one JSON value that is either
/// a call of one enabled tool (with, when several are allowed, more calls chained after it) or the
/// final answer.
///
/// ```
/// anyOf: [ {"name": "getWeather", "arguments": {…its schema…}, "and"?: {…another call…}},   one branch per tool
///          {"answer": {…output schema, narrowed…}} ]                                       once grounded
/// ```
///
/// The first choice is the one that matters most to a small model: `{"name"` (a call) or
/// `{"answer"` (no tool, or done). After each call it chooses again: `,"and":` another call, or
/// `}`. Measured on BFCL with the 1.5B model (docs/DESIGN.md), this keeps the model's answer
/// when no tool fits (a list of calls offered first made it call something almost every time)
/// and still makes one call per thing asked for. A turn that must make several calls (the trip
/// planner's searches of different kinds) has that many links required.
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
    /// Offer further calls in the same turn (run concurrently) when > 1.
    var maximumCalls: Int
    /// Fewest calls in a turn that calls tools (the first links of the chain are required).
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
        var call = "name"
        var arguments = "arguments"
        /// The member of a call that holds the next call of the same turn.
        var next = "and"
        var final = "answer"
    }

    static let keys = Keys()

    /// The step schema as a JSON Schema document of Trailhead's subset.
    var json: GeneratedContent {
        if !wrapsFinal, let final { return final }
        let keys = Self.keys
        // Schemas with `$ref`s (a recursive answer, say) are kept whole under the step's `$defs`.
        var embedding = SchemaEmbedding()
        let chained = maximumCalls > 1 && !tools.isEmpty
        let calls = tools.map { tool -> GeneratedContent in
            let name = "tool." + tool.name
            let arguments = embedding.embed(tool.arguments, as: name)
            guard chained else { return Self.call(name: tool.name, arguments: arguments) }
            // Every link of a chain holds the calls again: each tool's arguments are written once.
            if embedding.definitions[name] == nil { embedding.define(name, arguments) }
            return Self.call(name: tool.name, arguments: ["$ref": .string("#/$defs/" + JSONPointer.escape(name))])
        }
        var branches = calls
        if chained {
            // Link `call<k>` holds at most k calls: a call, and in "and" a `call<k-1>` (`call1` has
            // no "and"). The chain is finite, so the answer has a longest form and the model cannot
            // chain past `maximumCalls`; the first `minimumCalls - 1` links must hold the next.
            embedding.define("call1", Self.anyOf(calls))
            for link in 2...maximumCalls {
                embedding.define("call\(link)", Self.linked(calls, to: "#/$defs/call\(link - 1)", required: link > maximumCalls - minimumCalls + 1))
            }
            branches = [["$ref": .string("#/$defs/call\(maximumCalls)")]]
        }
        if let final { branches.append(Self.object([keys.final: embedding.embed(final, as: "final")])) }
        return embedding.adding(to: branches.count == 1 ? branches[0] : ["anyOf": .array(branches)])
    }

    /// A turn that makes `calls`, chained as the model writes them.
    static func chain(_ calls: [ToolCallRequest]) -> GeneratedContent {
        calls.reversed().reduce(GeneratedContent?.none) { next, call in
            var link: JSONObject = [keys.call: .string(call.tool), keys.arguments: call.arguments]
            if let next { link[keys.next] = next }
            return .object(link)
        } ?? [:]
    }

    /// One of `calls`.
    private static func anyOf(_ calls: [GeneratedContent]) -> GeneratedContent {
        calls.count == 1 ? calls[0] : ["anyOf": .array(calls)]
    }

    /// The calls, each with a member that holds the next call (at `reference`).
    private static func linked(_ calls: [GeneratedContent], to reference: String, required: Bool) -> GeneratedContent {
        let linked = calls.map { call -> GeneratedContent in
            guard case .object(var object) = call, case .object(var properties)? = object["properties"] else { return call }
            properties[keys.next] = ["$ref": .string(reference)]
            object["properties"] = .object(properties)
            if required { object["required"] = .array(properties.keys.map { .string($0) }) }
            return .object(object)
        }
        return anyOf(linked)
    }

    private static func call(name: String, arguments: GeneratedContent) -> GeneratedContent {
        object([keys.call: ["const": .string(name)], keys.arguments: arguments])
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
        } else if let first = ToolCallRequest(content) {
            // A chain: `{"name": …, "arguments": …, "and": {…the next call…}}`.
            var requests = [first]
            var link = content
            while let next = link[keys.next], let call = ToolCallRequest(next) {
                requests.append(call)
                link = next
            }
            self = .call(requests)
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
