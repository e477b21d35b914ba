import Foundation
import TrailheadSchema

/// One line of a transcript: a JSON object with a `kind`, a `timestamp`, and the kind's fields.
///
/// Kinds: `instructions`, `prompt`, `modelTurn`, `toolCall`, `toolOutput`, `repair`, `response`,
/// `error`, `cancelled`. Fields are plain JSON so that other programs read transcripts without
/// this code; the static constructors below are the one place that spells each kind's fields.
public struct TranscriptEntry: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case instructions, prompt, modelTurn, toolCall, toolOutput, repair, response, error, cancelled
    }

    public var kind: Kind
    /// ISO 8601 with milliseconds, UTC.
    public var timestamp: String
    public var fields: JSONObject

    public init(kind: Kind, timestamp: String = TranscriptEntry.now(), fields: JSONObject = [:]) {
        self.kind = kind
        self.timestamp = timestamp
        self.fields = fields
    }

    public subscript(field: String) -> GeneratedContent? { fields[field] }

    /// The entry as one JSON object: `kind` and `timestamp` first.
    public var content: GeneratedContent {
        var object: JSONObject = ["kind": .string(kind.rawValue), "timestamp": .string(timestamp)]
        for (key, value) in fields { object[key] = value }
        return .object(object)
    }

    /// Reads an entry back; an object without a known `kind` is an error naming what it found.
    public init(content: GeneratedContent) throws(TranscriptError) {
        guard case .object(var object) = content else { throw TranscriptError("an entry must be a JSON object") }
        guard let name = object["kind"]?.stringValue else { throw TranscriptError("entry has no \"kind\"") }
        guard let kind = Kind(rawValue: name) else { throw TranscriptError("unknown entry kind \"\(name)\"") }
        let timestamp = object["timestamp"]?.stringValue ?? ""
        object["kind"] = nil
        object["timestamp"] = nil
        self.init(kind: kind, timestamp: timestamp, fields: object)
    }

    public static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}

/// A transcript that cannot be read, with where.
public struct TranscriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

// MARK: - The entries the agent writes

extension TranscriptEntry {
    /// The session: its instructions, tools and output schema, and the request that made it
    /// (what `agent transcript replay` needs to run it again).
    public static func instructions(_ text: String, tools: [String], outputSchema: GeneratedContent, request: GeneratedContent? = nil) -> Self {
        var fields: JSONObject = ["text": .string(text), "tools": .array(tools.map { .string($0) }), "outputSchema": outputSchema]
        if let request { fields["request"] = request }
        return Self(kind: .instructions, fields: fields)
    }

    public static func prompt(_ text: String) -> Self {
        Self(kind: .prompt, fields: ["text": .string(text)])
    }

    /// A model's turn: its raw text, what it parsed to (absent when it did not parse), and its cost.
    public static func modelTurn(
        turn: Int, text: String, parsed: GeneratedContent?, model: String,
        tokensIn: Int?, tokensOut: Int?, latencyMs: Double
    ) -> Self {
        var fields: JSONObject = ["turn": .number(Double(turn)), "text": .string(text)]
        if let parsed { fields["parsed"] = parsed }
        fields["model"] = .string(model)
        if let tokensIn { fields["tokensIn"] = .number(Double(tokensIn)) }
        if let tokensOut { fields["tokensOut"] = .number(Double(tokensOut)) }
        fields["latencyMs"] = .number(latencyMs.rounded())
        return Self(kind: .modelTurn, fields: fields)
    }

    /// A call the model asked for, and whether its arguments passed validation.
    public static func toolCall(turn: Int, id: String, tool: String, arguments: GeneratedContent, violations: [String]) -> Self {
        var fields: JSONObject = ["turn": .number(Double(turn)), "id": .string(id), "tool": .string(tool), "arguments": arguments]
        fields["valid"] = .bool(violations.isEmpty)
        if !violations.isEmpty { fields["violations"] = .array(violations.map { .string($0) }) }
        return Self(kind: .toolCall, fields: fields)
    }

    /// What a call returned: a result, or an error (tool error, crash, timeout).
    public static func toolOutput(id: String, tool: String, result: GeneratedContent?, error: String?, latencyMs: Double, restarts: Int = 0) -> Self {
        var fields: JSONObject = ["id": .string(id), "tool": .string(tool)]
        if let result { fields["result"] = result }
        if let error { fields["error"] = .string(error) }
        fields["latencyMs"] = .number((latencyMs * 1000).rounded() / 1000)
        if restarts > 0 { fields["workerRestarts"] = .number(Double(restarts)) }
        return Self(kind: .toolOutput, fields: fields)
    }

    /// A message sent back to the model because its last turn could not be used.
    public static func repair(turn: Int, message: String) -> Self {
        Self(kind: .repair, fields: ["turn": .number(Double(turn)), "message": .string(message)])
    }

    public static func response(_ content: GeneratedContent, turns: Int) -> Self {
        Self(kind: .response, fields: ["content": content, "turns": .number(Double(turns))])
    }

    public static func error(_ message: String) -> Self {
        Self(kind: .error, fields: ["message": .string(message)])
    }

    public static func cancelled(turn: Int) -> Self {
        Self(kind: .cancelled, fields: ["turn": .number(Double(turn))])
    }
}
