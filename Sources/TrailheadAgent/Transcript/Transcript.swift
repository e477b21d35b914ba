import Foundation
import TrailheadSchema

/// What happened in a session, entry by entry: its instructions, each prompt, each model turn,
/// each tool call and its output, repairs, and the responses. Typed in Swift, and `Codable` as
/// the JSON Lines file `agent transcript` reads: one object per entry, `kind` and `timestamp`
/// first, then the entry's fields (plain JSON, so other programs read transcripts without us).
public struct Transcript: Sendable, Equatable, Codable, RandomAccessCollection {
    public var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Entry { entries[position] }

    public enum Entry: Sendable, Equatable {
        case instructions(Instructions)
        case prompt(Prompt)
        case modelTurn(ModelTurn)
        case toolCall(ToolCall)
        case toolOutput(ToolOutput)
        case repair(Repair)
        case response(Response)
        case error(Failure)
        case cancelled(Cancellation)
    }

    /// The session's instructions as the model read them, its tools, and its output schema.
    public struct Instructions: Sendable, Equatable, Codable {
        public var timestamp: String? = Transcript.now()
        public var text: String
        public var tools: [String]
        public var outputSchema: GeneratedContent?
        /// What an agent records to run the session again (`agent plan` records its request).
        public var request: GeneratedContent?

        public init(text: String, tools: [String], outputSchema: GeneratedContent? = nil, request: GeneratedContent? = nil) {
            self.text = text
            self.tools = tools
            self.outputSchema = outputSchema
            self.request = request
        }
    }

    public struct Prompt: Sendable, Equatable, Codable {
        public var timestamp: String? = Transcript.now()
        public var text: String
        public init(text: String) { self.text = text }
    }

    /// One answer of the model: its raw text, what it parsed to (absent when it was not JSON),
    /// which model answered, and its cost.
    public struct ModelTurn: Sendable, Equatable, Codable {
        public var timestamp: String? = Transcript.now()
        public var turn: Int
        public var text: String
        public var parsed: GeneratedContent?
        public var model: String
        public var tokensIn: Int?
        /// Of `tokensIn`, how many the server served from its prompt cache.
        public var cachedTokensIn: Int?
        public var tokensOut: Int?
        public var latencyMs: Double
        /// Why generation stopped (`stop`, `length`: cut at the token limit).
        public var finishReason: String?
        /// The server's own time reading the prompt and decoding (llama.cpp's timings), when it says.
        public var serverPromptMs: Double?
        public var serverDecodeMs: Double?
        /// At a decision between a call and the answer, the share of a call in the model's probability of a call
        /// or the answer (`ToolDecision`), and whether the session committed this turn to a call.
        public var callProbability: Double?
        public var committedToCall: Bool?
        /// At the end of the turn's chain of calls, the share of another call in the model's
        /// probabilities (`ToolDecision.chainThreshold`, `checkedChainThreshold`); at or above a
        /// threshold the turn was asked again with one call more.
        public var chainContinuation: Double?

        public init(
            turn: Int, text: String, parsed: GeneratedContent?, model: String, tokensIn: Int?, cachedTokensIn: Int? = nil,
            tokensOut: Int?, latencyMs: Double, finishReason: String? = nil, serverPromptMs: Double? = nil, serverDecodeMs: Double? = nil
        ) {
            self.turn = turn
            self.text = text
            self.parsed = parsed
            self.model = model
            self.tokensIn = tokensIn
            self.cachedTokensIn = cachedTokensIn
            self.tokensOut = tokensOut
            self.latencyMs = latencyMs.rounded()
            self.finishReason = finishReason
            self.serverPromptMs = serverPromptMs.map { ($0 * 10).rounded() / 10 }
            self.serverDecodeMs = serverDecodeMs.map { ($0 * 10).rounded() / 10 }
        }

        /// Prompt tokens the server had to read (not served from its cache).
        public var uncachedTokensIn: Int? { tokensIn.map { $0 - (cachedTokensIn ?? 0) } }
    }

    /// A tool call: asked for by the model at `turn`, or made before the first turn from the
    /// request (`prefetched`, turn 0).
    public struct ToolCall: Sendable, Equatable, Codable {
        public var timestamp: String? = Transcript.now()
        public var turn: Int
        public var id: String
        public var tool: String
        public var arguments: GeneratedContent
        public var prefetched: Bool?

        /// Optional arguments the model filled with a placeholder ("None", "unknown"…), left out
        /// of the call (`PlaceholderArguments`), each as `name: value`.
        public var dropped: [String]?

        /// (Only calls whose arguments passed their schema are made and recorded: the others go
        /// back to the model as a repair.)
        public init(turn: Int, id: String, tool: String, arguments: GeneratedContent, prefetched: Bool = false, dropped: [String] = []) {
            self.turn = turn
            self.id = id
            self.tool = tool
            self.arguments = arguments
            self.prefetched = prefetched ? true : nil
            self.dropped = dropped.isEmpty ? nil : dropped
        }
    }

    /// What a call returned: a result, or an error (a tool error, a crash, a timeout).
    public struct ToolOutput: Sendable, Equatable, Codable {
        public var timestamp: String? = Transcript.now()
        public var id: String
        public var tool: String
        public var result: GeneratedContent?
        public var error: String?
        public var latencyMs: Double

        public init(id: String, tool: String, result: GeneratedContent?, error: String?, latencyMs: Double) {
            self.id = id
            self.tool = tool
            self.result = result
            self.error = error
            self.latencyMs = (latencyMs * 1000).rounded() / 1000
        }
    }

    /// A message sent back to the model because its last turn could not be used.
    public struct Repair: Sendable, Equatable, Codable {
        public var timestamp: String? = Transcript.now()
        public var turn: Int
        public var message: String
        public init(turn: Int, message: String) {
            self.turn = turn
            self.message = message
        }
    }

    /// The final answer of a `respond`.
    public struct Response: Sendable, Equatable, Codable {
        public var timestamp: String? = Transcript.now()
        public var content: GeneratedContent
        public var turns: Int
        public init(content: GeneratedContent, turns: Int) {
            self.content = content
            self.turns = turns
        }
    }

    public struct Failure: Sendable, Equatable, Codable {
        public var timestamp: String? = Transcript.now()
        public var message: String
        public init(message: String) { self.message = message }
    }

    public struct Cancellation: Sendable, Equatable, Codable {
        public var timestamp: String? = Transcript.now()
        public var turn: Int
        public init(turn: Int) { self.turn = turn }
    }

    /// ISO 8601 with milliseconds, UTC.
    public static func now() -> String { timestampFormatter.string(from: Date()) }

    /// Made once: a formatter per entry cost more than the rest of a turn (measured in `make bench`).
    nonisolated(unsafe) private static let timestampFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}

extension Transcript.Entry: Codable {
    /// The `kind` member of an entry's JSON object.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case instructions, prompt, modelTurn, toolCall, toolOutput, repair, response, error, cancelled
    }

    public var kind: Kind {
        switch self {
        case .instructions: .instructions
        case .prompt: .prompt
        case .modelTurn: .modelTurn
        case .toolCall: .toolCall
        case .toolOutput: .toolOutput
        case .repair: .repair
        case .response: .response
        case .error: .error
        case .cancelled: .cancelled
        }
    }

    private enum KindKey: String, CodingKey { case kind }

    public init(from decoder: any Decoder) throws {
        let kind = try decoder.container(keyedBy: KindKey.self).decode(Kind.self, forKey: .kind)
        switch kind {
        case .instructions: self = .instructions(try .init(from: decoder))
        case .prompt: self = .prompt(try .init(from: decoder))
        case .modelTurn: self = .modelTurn(try .init(from: decoder))
        case .toolCall: self = .toolCall(try .init(from: decoder))
        case .toolOutput: self = .toolOutput(try .init(from: decoder))
        case .repair: self = .repair(try .init(from: decoder))
        case .response: self = .response(try .init(from: decoder))
        case .error: self = .error(try .init(from: decoder))
        case .cancelled: self = .cancelled(try .init(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: KindKey.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .instructions(let entry): try entry.encode(to: encoder)
        case .prompt(let entry): try entry.encode(to: encoder)
        case .modelTurn(let entry): try entry.encode(to: encoder)
        case .toolCall(let entry): try entry.encode(to: encoder)
        case .toolOutput(let entry): try entry.encode(to: encoder)
        case .repair(let entry): try entry.encode(to: encoder)
        case .response(let entry): try entry.encode(to: encoder)
        case .error(let entry): try entry.encode(to: encoder)
        case .cancelled(let entry): try entry.encode(to: encoder)
        }
    }

    /// The entry as one JSON object, as a transcript line holds it.
    public var content: GeneratedContent {
        // Every member is JSON already: encoding cannot fail.
        (try? GeneratedContent(encoding: self)) ?? .null
    }

    /// Reads one transcript line; an object without a known `kind` is an error naming what it found.
    public init(content: GeneratedContent) throws(TranscriptError) {
        guard case .object = content else { throw TranscriptError("an entry must be a JSON object") }
        guard let name = content["kind"]?.stringValue else { throw TranscriptError("entry has no \"kind\"") }
        guard Kind(rawValue: name) != nil else { throw TranscriptError("unknown entry kind \"\(name)\"") }
        do { self = try content.decode(as: Self.self) } catch {
            throw TranscriptError("a \(name) entry is malformed: \(error)")
        }
    }
}

/// A transcript that cannot be read, with where.
public struct TranscriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
