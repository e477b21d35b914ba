import Foundation
import Synchronization
import TrailheadAgent
import TrailheadModels
import TrailheadPostgres
import TrailheadSchema
import TrailheadSupport

/// One execution of a background run by the worker that claimed it: the steps earlier
/// executions recorded (replayed, not repeated), and each new step recorded before the run goes
/// on — a model turn before its calls run, a call's start before it runs and its outcome before
/// the model reads it. Replaying the recorded turns and outcomes in order brings the agent loop
/// back to where the run stopped (the loop is a function of what the model and the tools said);
/// from there it runs live.
///
/// Keys: `model:N` (the run's N-th model turn), `probabilities:N`, `CALL` (a call's outcome) and
/// `started:CALL`, `approval:CALL` (a person's decision). A call's id is its tool and arguments
/// hashed, and how many such calls came before it in the run (`call_<hash>_<n>`): the same call in
/// a replay gets the same id, whichever order parallel calls ran in.
final class RunCheckpoints: Sendable {
    let runs: PostgresRunStore
    let claim: PostgresRunStore.Claim
    private let recorded: [String: GeneratedContent]

    /// Why the run stops before its end, once it must.
    enum Stop: Sendable, Equatable {
        /// A call needs a person's approval: the run waits (`requires_action`).
        case awaitingApproval(callID: String, tool: String, arguments: GeneratedContent)
        case cancelled
        /// The lease was lost: another worker has the run; this one writes nothing more.
        case fenced
        /// The store could not take a checkpoint: the run stops here, and its lease will lapse.
        case storeFailed(String)
    }

    private struct State {
        var modelTurns = 0
        var probabilityQueries = 0
        var callsByHash: [String: Int] = [:]
        var stop: Stop?
        /// Steps written by this execution (replayed ones not counted).
        var written = 0
    }
    private let state = Mutex(State())

    /// How long a checkpoint waits for a database that went away (a restart) before the run
    /// stops: the lease's length, past which the write would be fenced anyway.
    let patience: Double

    init(runs: PostgresRunStore, claim: PostgresRunStore.Claim, recorded: [String: GeneratedContent], patience: Double) {
        self.runs = runs
        self.claim = claim
        self.recorded = recorded
        self.patience = patience
    }

    /// Model turns earlier executions recorded (a scripted model resumes after them).
    var recordedModelTurns: Int { recorded.keys.filter { $0.hasPrefix("model:") }.count }

    var stop: Stop? { state.withLock { $0.stop } }

    /// Stops the run at its next step (the first reason given wins).
    func stop(_ reason: Stop) { state.withLock { if $0.stop == nil { $0.stop = reason } } }

    private func write(_ key: String, _ outcome: GeneratedContent, event: GeneratedContent? = nil) async -> Bool {
        let deadline = monotonicSeconds() + patience
        var delay = 0.05
        while true {
            do throws(SessionStoreError) {
                try runs.record(claim, key: key, outcome: outcome, event: event)
                state.withLock { $0.written += 1 }
                return true
            } catch where error.kind == .unavailable && monotonicSeconds() + delay < deadline {
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                delay = min(delay * 2, 1)
            } catch {
                stop(error.kind == .conflict ? .fenced : .storeFailed(error.message))
                return false
            }
        }
    }

    // MARK: - Model turns

    func nextModelTurn() -> (key: String, recorded: GeneratedContent?) {
        let number = state.withLock { state in
            defer { state.modelTurns += 1 }
            return state.modelTurns
        }
        let key = "model:\(number)"
        return (key, recorded[key])
    }

    func nextProbabilityQuery() -> (key: String, recorded: GeneratedContent?) {
        let number = state.withLock { state in
            defer { state.probabilityQueries += 1 }
            return state.probabilityQueries
        }
        let key = "probabilities:\(number)"
        return (key, recorded[key])
    }

    /// Records a live model turn; false when the run must stop instead of going on.
    func recordModelTurn(_ key: String, _ response: ModelResponse) async -> Bool {
        var object: JSONObject = ["text": .string(response.text), "model": .string(response.modelID), "seconds": .number(response.timings.total)]
        if let usage = response.usage {
            object["promptTokens"] = .number(Double(usage.promptTokens))
            object["completionTokens"] = .number(Double(usage.completionTokens))
        }
        if let reason = response.finishReason { object["finishReason"] = .string(reason) }
        return await write(key, .object(object))
    }

    func recordProbabilities(_ key: String, _ probabilities: [TokenProbability]?) async -> Bool {
        let value: GeneratedContent = probabilities.map { list in
            .array(list.map { ["token": .string($0.token), "probability": .number($0.probability)] })
        } ?? .null
        return await write(key, ["probabilities": value])
    }

    static func response(from recorded: GeneratedContent) -> ModelResponse {
        let usage = recorded["promptTokens"]?.intValue.map { TokenUsage(promptTokens: $0, completionTokens: recorded["completionTokens"]?.intValue ?? 0) }
        return ModelResponse(
            text: recorded["text"]?.stringValue ?? "", modelID: recorded["model"]?.stringValue ?? "replayed", usage: usage,
            timings: ModelTimings(total: recorded["seconds"]?.doubleValue ?? 0), finishReason: recorded["finishReason"]?.stringValue)
    }

    static func probabilities(from recorded: GeneratedContent) -> [TokenProbability]? {
        recorded["probabilities"]?.arrayValue?.map { TokenProbability(token: $0["token"]?.stringValue ?? "", probability: $0["probability"]?.doubleValue ?? 0) }
    }

    // MARK: - Tool calls

    /// The id of `call` in this run (the same in every replay).
    func callID(_ call: ToolCallRequest) -> String {
        var hash = SHA256()
        hash.update(Array(call.tool.utf8) + [0] + Array(call.arguments.jsonString.utf8))
        let hex = hash.finalize().prefix(12).map { String(format: "%02x", $0) }.joined()
        let occurrence = state.withLock { state in
            defer { state.callsByHash[hex, default: 0] += 1 }
            return state.callsByHash[hex, default: 0]
        }
        return "call_\(hex)_\(occurrence)"
    }

    /// The tool-call hook of the run's session (`LanguageModelSession.Configuration.aroundToolCall`).
    var aroundToolCall: ToolCallHook {
        { [self] call, needsApproval, body in await self.run(call, needsApproval: needsApproval, body: body) }
    }

    private func run(_ call: ToolCallRequest, needsApproval: Bool, body: @Sendable () async -> ToolCallOutcome) async -> ToolCallOutcome {
        let id = callID(call)
        if let outcome = recorded[id] { return Self.outcome(from: outcome) }
        let interrupted = ToolCallOutcome(result: nil, error: "the run stopped before this call")
        guard stop == nil else { return interrupted }
        if recorded["started:" + id] != nil {
            // An earlier execution started it and stopped before its outcome was recorded: it may
            // have had its effect, so it is not run again (at most once).
            let lost = ToolCallOutcome(result: nil, error: "this call's outcome was lost (its worker stopped while it ran); it was not run again")
            return await write(id, Self.content(lost), event: toolEvent(id, call, lost)) ? lost : interrupted
        }
        var decided: Bool?
        if needsApproval {
            guard let decision = recorded["approval:" + id]?["approved"]?.boolValue else {
                stop(.awaitingApproval(callID: id, tool: call.tool, arguments: call.arguments))
                return interrupted
            }
            decided = decision
        }
        if decided == false {
            let refused = ToolCallOutcome(result: nil, error: "the user did not approve this call of \(call.tool)")
            return await write(id, Self.content(refused), event: toolEvent(id, call, refused)) ? refused : interrupted
        }
        guard await write("started:" + id, ["tool": .string(call.tool)]) else { return interrupted }
        let outcome = await body()
        _ = await write(id, Self.content(outcome), event: toolEvent(id, call, outcome))
        return outcome
    }

    /// `response.output_item.done` with the call and its outcome (a tool the server ran).
    private func toolEvent(_ id: String, _ call: ToolCallRequest, _ outcome: ToolCallOutcome) -> GeneratedContent {
        ["type": "response.output_item.done", "item": Self.toolItem(id: id, tool: call.tool, arguments: call.arguments, outcome: outcome)]
    }

    static func toolItem(id: String, tool: String, arguments: GeneratedContent, outcome: ToolCallOutcome?) -> GeneratedContent {
        var item: JSONObject = [
            "type": "trailhead_tool_call", "id": .string(id), "call_id": .string(id), "name": .string(tool), "arguments": .string(arguments.jsonString),
            "status": outcome == nil ? "pending" : "completed",
        ]
        if let outcome {
            item["output"] = outcome.result ?? .null
            item["error"] = outcome.error.map { .string($0) } ?? .null
        }
        return .object(item)
    }

    static func content(_ outcome: ToolCallOutcome) -> GeneratedContent {
        ["result": outcome.result ?? .null, "error": outcome.error.map { .string($0) } ?? .null]
    }

    static func outcome(from content: GeneratedContent) -> ToolCallOutcome {
        let result = content["result"].flatMap { $0.isNull ? nil : $0 }
        return ToolCallOutcome(result: result, error: content["error"]?.stringValue)
    }
}

/// The run's model: recorded turns replayed as they were, new ones asked of `base` and recorded
/// before the loop reads them. Once the run must stop, every request ends in `CancellationError`
/// (the loop records a cancelled response, which the worker never stores).
struct CheckpointedModel: LanguageModel {
    let base: any LanguageModel
    let checkpoints: RunCheckpoints

    var id: String { base.id }
    var availability: ModelAvailability { get async { await base.availability } }
    var capabilities: LanguageModelCapabilities { base.capabilities }
    var contextSize: Int? { get async { await base.contextSize } }

    func prewarm(prefix: [ChatMessage]) async throws { try await base.prewarm(prefix: prefix) }
    func countTokens(_ text: String) async throws -> Int? { try await base.countTokens(text) }
    func tokenCount(for messages: [ChatMessage]) async throws -> Int { try await base.tokenCount(for: messages) }

    func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let (key, recorded) = checkpoints.nextModelTurn()
        let base = base, checkpoints = checkpoints
        return AsyncThrowingStream { continuation in
            let task = Task {
                if checkpoints.stop != nil { return continuation.finish(throwing: CancellationError()) }
                if let recorded {
                    let response = RunCheckpoints.response(from: recorded)
                    continuation.yield(.text(response.text))
                    continuation.yield(.completed(response))
                    return continuation.finish()
                }
                do {
                    for try await event in base.generate(request) {
                        if case .completed(let response) = event {
                            guard await checkpoints.recordModelTurn(key, response) else { throw CancellationError() }
                        }
                        continuation.yield(event)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func nextTokenProbabilities(for messages: [ChatMessage], continuing prefix: String, count: Int) async throws -> [TokenProbability]? {
        let (key, recorded) = checkpoints.nextProbabilityQuery()
        if let recorded { return RunCheckpoints.probabilities(from: recorded) }
        if checkpoints.stop != nil { throw CancellationError() }
        let probabilities = try await base.nextTokenProbabilities(for: messages, continuing: prefix, count: count)
        guard await checkpoints.recordProbabilities(key, probabilities) else { throw CancellationError() }
        return probabilities
    }
}
