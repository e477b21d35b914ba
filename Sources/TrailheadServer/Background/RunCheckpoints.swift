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
/// Keys (`RecordedSteps.Key`, with each step's stored shape): `model:N` (the run's N-th model
/// turn), `probabilities:N`, `CALL` (a call's outcome) and `started:CALL`, `approval:CALL` (a
/// person's decision). A call's id is its tool and arguments hashed, and how many such calls came
/// before it in the run (`call_<hash>_<n>`): the same call in a replay gets the same id, whichever
/// order parallel calls ran in.
final class RunCheckpoints: Sendable {
    let runs: PostgresRunStore
    let claim: PostgresRunStore.Claim
    private let recorded: RecordedSteps

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

    /// The request's own functions: the client runs their calls, so there is nothing to record or
    /// replay (the response ends with them as `function_call` items).
    let clientFunctions: Set<String>

    init(runs: PostgresRunStore, claim: PostgresRunStore.Claim, recorded: RecordedSteps, patience: Double, clientFunctions: Set<String> = []) {
        self.runs = runs
        self.claim = claim
        self.recorded = recorded
        self.patience = patience
        self.clientFunctions = clientFunctions
    }

    /// Model turns earlier executions recorded (a scripted model resumes after them).
    var recordedModelTurns: Int { recorded.modelTurns.count }

    var stop: Stop? { state.withLock { $0.stop } }

    /// Stops the run at its next step (the first reason given wins).
    func stop(_ reason: Stop) { state.withLock { if $0.stop == nil { $0.stop = reason } } }

    /// Records `step` under `key` (with `event`); false when the run must stop instead of going on.
    private func write(_ key: RecordedSteps.Key, _ step: some Encodable, event: GeneratedContent? = nil) async -> Bool {
        let outcome: GeneratedContent
        do { outcome = try GeneratedContent(encoding: step) } catch {
            // A value JSON cannot hold (a non-finite number): the step cannot be recorded, so the run stops.
            stop(.storeFailed("the step \(key.text) cannot be recorded: \(error)"))
            return false
        }
        let deadline = monotonicSeconds() + patience
        var delay = 0.05
        while true {
            do throws(SessionStoreError) {
                try runs.record(claim, key: key.text, outcome: outcome, event: event)
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

    /// The next model turn's key, and the turn an earlier execution recorded under it.
    func nextModelTurn() -> (key: RecordedSteps.Key, recorded: RecordedSteps.ModelTurn?) {
        let number = state.withLock { state in
            defer { state.modelTurns += 1 }
            return state.modelTurns
        }
        return (.modelTurn(number), recorded.modelTurns[number])
    }

    /// The next probability query's key, and the answer an earlier execution recorded under it.
    func nextProbabilityQuery() -> (key: RecordedSteps.Key, recorded: RecordedSteps.Probabilities?) {
        let number = state.withLock { state in
            defer { state.probabilityQueries += 1 }
            return state.probabilityQueries
        }
        return (.probabilities(number), recorded.probabilityQueries[number])
    }

    /// Records a live model turn; false when the run must stop instead of going on.
    func recordModelTurn(_ key: RecordedSteps.Key, _ response: ModelResponse) async -> Bool {
        await write(key, RecordedSteps.ModelTurn(response))
    }

    func recordProbabilities(_ key: RecordedSteps.Key, _ probabilities: [TokenProbability]?) async -> Bool {
        await write(key, RecordedSteps.Probabilities(probabilities))
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
        if clientFunctions.contains(call.tool) { return await body() }
        let id = callID(call)
        if let recordedOutcome = recorded.outcomes[id] { return recordedOutcome.outcome }
        let interrupted = ToolCallOutcome(result: nil, error: "the run stopped before this call")
        guard stop == nil else { return interrupted }
        if recorded.started.contains(id) {
            // An earlier execution started it and stopped before its outcome was recorded: it may
            // have had its effect, so it is not run again (at most once).
            let lost = ToolCallOutcome(result: nil, error: "this call's outcome was lost (its worker stopped while it ran); it was not run again")
            return await write(.outcome(call: id), RecordedSteps.ToolOutcome(lost), event: toolEvent(id, call, lost)) ? lost : interrupted
        }
        var decided: Bool?
        if needsApproval {
            guard let decision = recorded.approvals[id] else {
                stop(.awaitingApproval(callID: id, tool: call.tool, arguments: call.arguments))
                return interrupted
            }
            decided = decision
        }
        if decided == false {
            let refused = ToolCallOutcome(result: nil, error: "the user did not approve this call of \(call.tool)")
            return await write(.outcome(call: id), RecordedSteps.ToolOutcome(refused), event: toolEvent(id, call, refused)) ? refused : interrupted
        }
        guard await write(.started(call: id), RecordedSteps.CallStart(tool: call.tool)) else { return interrupted }
        let outcome = await body()
        _ = await write(.outcome(call: id), RecordedSteps.ToolOutcome(outcome), event: toolEvent(id, call, outcome))
        return outcome
    }

    /// `response.output_item.done` with the call and its outcome (a tool the server ran).
    private func toolEvent(_ id: String, _ call: ToolCallRequest, _ outcome: ToolCallOutcome) -> GeneratedContent {
        ["type": "response.output_item.done", "item": Self.toolItem(id: id, tool: call.tool, arguments: call.arguments, outcome: outcome)]
    }

    /// A call of one of the agent's tools as a response output item: a `trailhead_tool_call` (with
    /// its outcome once it ran), or as `type` says (a `tool_approval_request` waits for a person).
    static func toolItem(
        id: String, tool: String, arguments: GeneratedContent, outcome: ToolCallOutcome?, type: String = "trailhead_tool_call"
    ) -> GeneratedContent {
        var item: JSONObject = [
            "type": .string(type), "id": .string(id), "call_id": .string(id), "name": .string(tool), "arguments": .string(arguments.jsonString),
            "status": outcome == nil ? "pending" : "completed",
        ]
        if let outcome {
            item["output"] = outcome.result ?? .null
            item["error"] = outcome.error.map { .string($0) } ?? .null
        }
        return .object(item)
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
                    let response = recorded.response
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
        if let recorded { return recorded.list }
        if checkpoints.stop != nil { throw CancellationError() }
        let probabilities = try await base.nextTokenProbabilities(for: messages, continuing: prefix, count: count)
        guard await checkpoints.recordProbabilities(key, probabilities) else { throw CancellationError() }
        return probabilities
    }
}
