import Foundation
import TrailheadSchema
import TrailheadSupport

/// Replays recorded model outputs in order, streaming each in small chunks: deterministic
/// tests, and replaying a transcript.
///
/// The file is JSON Lines: each line either a JSON string (the output), an object with a
/// `"text"` (or `"output"`) member (and optionally `"delayMs"`, a wait before it streams, as a
/// slow model would make: tests of what happens mid-answer use it; and `"chunkDelayMs"`, a wait
/// between its chunks, so a test sees the answer half written; `"holdAfter": N` with
/// `"holdUntilFile": PATH`, a stop after N characters until that file exists — at most two
/// minutes —, so a test can look at a half-written answer for as long as it needs), or a transcript entry — only entries with
/// `"kind": "modelTurn"` are outputs, other transcript entries are skipped. An object's
/// `tokensIn`, `cachedTokensIn` and `tokensOut` (a transcript's model turn has them) are replayed
/// as the output's usage. Running past the last output is a `ModelError.scriptExhausted`. Given a
/// `contextSize`, it refuses a request whose messages do not fit (by `TokenEstimate`) before
/// replaying anything, as a real backend does; given `capabilities`, it declares those (a test of
/// a model that cannot do something).
public final class ScriptedModel: LanguageModel, Sendable {
    public let id: String
    public let path: String
    /// The context the script pretends to have; `nil`: unbounded.
    private let scriptedContextSize: Int?
    private let outputs: [String]
    /// Milliseconds to wait before each output (0 for most).
    private let delays: [Double]
    /// Milliseconds to wait between the chunks of each output (0 for most).
    private let chunkDelays: [Double]
    /// Where each output stops until a file exists (nil for most).
    private let holds: [Hold?]
    /// What each output cost, as recorded (nil: not recorded, no usage is reported).
    private let usages: [TokenUsage?]
    public let capabilities: LanguageModelCapabilities

    /// A stop after `characters` of an output until the file at `path` exists.
    public struct Hold: Sendable {
        public var characters: Int
        public var path: String
        public init(characters: Int, path: String) {
            self.characters = characters
            self.path = path
        }
    }
    private let chunkSize: Int
    private let next = Locked(0)
    /// What `nextTokenProbabilities` answers, every time (`nil`: it cannot tell, as most backends).
    public let scriptedProbabilities: [TokenProbability]?

    /// Loads `path`; a line that is not JSON or has no output is an error naming the line.
    public convenience init(path: String, chunkSize: Int = 8) throws(ModelError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unavailable(model: "scripted:\(path)", reason: .notInstalled(what: "the script \(path)", fix: "check the path"))
        }
        var outputs: [String] = []
        var delays: [Double] = []
        var chunkDelays: [Double] = []
        var holds: [Hold?] = []
        var usages: [TokenUsage?] = []
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            let value: GeneratedContent
            do { value = try GeneratedContent(json: trimmed) } catch {
                throw .protocolViolation(model: "scripted:\(path)", message: "line \(number + 1) is not JSON: \(error)")
            }
            switch value {
            case .string(let text):
                outputs.append(text)
                delays.append(0)
                chunkDelays.append(0)
                holds.append(nil)
                usages.append(nil)
            case .object(let entry):
                if let kind = entry["kind"]?.stringValue, kind != "modelTurn" { continue }
                guard let text = entry["text"]?.stringValue ?? entry["output"]?.stringValue ?? entry["raw"]?.stringValue else {
                    throw .protocolViolation(model: "scripted:\(path)", message: "line \(number + 1) has no \"text\" string")
                }
                outputs.append(text)
                delays.append(entry["delayMs"]?.doubleValue ?? 0)
                chunkDelays.append(entry["chunkDelayMs"]?.doubleValue ?? 0)
                holds.append(entry["holdUntilFile"]?.stringValue.map { Hold(characters: entry["holdAfter"]?.intValue ?? 0, path: $0) })
                usages.append(Self.usage(recordedIn: entry))
            default:
                throw .protocolViolation(model: "scripted:\(path)", message: "line \(number + 1) is neither a string nor an object")
            }
        }
        self.init(outputs: outputs, path: path, chunkSize: chunkSize, delaysMs: delays, chunkDelaysMs: chunkDelays, holds: holds, usages: usages)
    }

    /// The usage a script line or a transcript's model turn recorded: its token counts, when they
    /// are counts (a line with garbage in them replays no usage).
    private static func usage(recordedIn entry: JSONObject) -> TokenUsage? {
        func count(_ key: String) -> Int? { entry[key]?.intValue.flatMap { $0 >= 0 ? $0 : nil } }
        guard let input = count("tokensIn"), let output = count("tokensOut") else { return nil }
        return TokenUsage(promptTokens: input, completionTokens: output, cachedPromptTokens: count("cachedTokensIn"))
    }

    /// Replays `outputs` given in code (each after its delay in `delaysMs`, when given, reporting
    /// its usage in `usages`, when given).
    public init(
        outputs: [String], path: String = "(inline)", chunkSize: Int = 8, delaysMs: [Double] = [], chunkDelaysMs: [Double] = [],
        holds: [Hold?] = [], usages: [TokenUsage?] = [], contextSize: Int? = nil, nextTokenProbabilities: [TokenProbability]? = nil,
        capabilities: LanguageModelCapabilities = .toolCallingAndGuidedGeneration
    ) {
        self.outputs = outputs
        self.capabilities = capabilities
        self.usages = outputs.indices.map { $0 < usages.count ? usages[$0] : nil }
        self.scriptedProbabilities = nextTokenProbabilities
        self.scriptedContextSize = contextSize
        self.delays = outputs.indices.map { $0 < delaysMs.count ? delaysMs[$0] : 0 }
        self.chunkDelays = outputs.indices.map { $0 < chunkDelaysMs.count ? chunkDelaysMs[$0] : 0 }
        self.holds = outputs.indices.map { $0 < holds.count ? holds[$0] : nil }
        self.path = path
        self.chunkSize = max(1, chunkSize)
        id = "scripted:\(path)"
    }

    public var availability: ModelAvailability { get async { .available } }

    /// The same script, starting after its first `count` outputs: a conversation resumed from a
    /// transcript that already holds `count` model turns replays what comes next.
    public func skipping(_ count: Int) -> ScriptedModel {
        ScriptedModel(
            outputs: Array(outputs.dropFirst(count)), path: path, chunkSize: chunkSize, delaysMs: Array(delays.dropFirst(count)),
            chunkDelaysMs: Array(chunkDelays.dropFirst(count)), holds: Array(holds.dropFirst(count)), usages: Array(usages.dropFirst(count)),
            contextSize: scriptedContextSize, nextTokenProbabilities: scriptedProbabilities, capabilities: capabilities)
    }

    public func nextTokenProbabilities(for messages: [ChatMessage], continuing prefix: String, count: Int) async throws -> [TokenProbability]? {
        scriptedProbabilities.map { Array($0.prefix(count)) }
    }

    /// How many outputs have been replayed.
    public var used: Int { next.current }

    public var contextSize: Int? { get async { scriptedContextSize } }

    public func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        guard let contextSize = scriptedContextSize else { return replayNext(request) }
        return .producing { continuation in
            try await self.checkFits(request.messages, contextSize: contextSize)
            for try await event in self.replayNext(request) { continuation.yield(event) }
        }
    }

    /// Streams the next output, and counts it used.
    private func replayNext(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let index: Int = next.withLock { value in
            defer { value += 1 }
            return value
        }
        let outputs = outputs, chunkSize = chunkSize, id = id, path = path
        if index < outputs.count, delays[index] > 0 || chunkDelays[index] > 0 || holds[index] != nil {
            let delay = delays[index], chunkDelay = chunkDelays[index], hold = holds[index]
            let replay = ScriptedModel(outputs: [outputs[index]], path: path, chunkSize: chunkSize, usages: [usages[index]])
            return .producing { continuation in
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000))
                var written = 0
                var held = false
                for try await event in replay.generate(request) {
                    if case .text(let text) = event {
                        if chunkDelay > 0 { try await Task.sleep(nanoseconds: UInt64(chunkDelay * 1_000_000)) }
                        if let hold, !held, written >= hold.characters {
                            held = true
                            let deadline = monotonicSeconds() + 120
                            while !FileManager.default.fileExists(atPath: hold.path), monotonicSeconds() < deadline {
                                try await Task.sleep(nanoseconds: 20_000_000)
                            }
                        }
                        written += text.count
                    }
                    continuation.yield(event)
                }
            }
        }
        return AsyncThrowingStream { continuation in
            guard index < outputs.count else {
                continuation.finish(throwing: ModelError.scriptExhausted(path: path, used: outputs.count))
                return
            }
            let started = monotonicSeconds()
            let text = outputs[index]
            let usage = usages[index]
            var chunk = ""
            for character in text {
                chunk.append(character)
                if chunk.count >= chunkSize {
                    continuation.yield(.text(chunk))
                    chunk = ""
                }
            }
            if !chunk.isEmpty { continuation.yield(.text(chunk)) }
            if let usage { continuation.yield(.usage(usage)) }
            let elapsed = monotonicSeconds() - started
            continuation.yield(
                .completed(
                    ModelResponse(
                        text: text, modelID: id, usage: usage,
                        timings: ModelTimings(timeToFirstToken: elapsed, total: elapsed), finishReason: "stop")))
            continuation.finish()
        }
    }
}
