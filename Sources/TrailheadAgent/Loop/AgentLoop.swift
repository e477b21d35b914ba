import Foundation
import TrailheadModels
import TrailheadSchema

/// Runs a session: performs the state machine's actions against a model and tools, and
/// writes every step to the transcript (and the trace, when there is one).
public struct AgentLoop: Sendable {
    public var model: any LanguageModel
    public var options: GenerationOptions
    public var tools: any ToolRunner
    public var transcript: TranscriptWriter?
    public var trace: Trace?
    /// Progress for people (stderr): "turn 2: findPointsOfInterest…".
    public var progress: @Sendable (String) -> Void
    /// Text of the model as it streams, with the turn number.
    public var onText: @Sendable (Int, String) -> Void
    /// What the model reads of a tool's result (the transcript keeps it whole). Every token fed
    /// back is paid for in the next turn's latency, so agents keep only what the model needs.
    public var summarize: @Sendable (_ tool: String, _ result: GeneratedContent) -> GeneratedContent = { $1 }

    public init(
        model: any LanguageModel, options: GenerationOptions = GenerationOptions(), tools: any ToolRunner, transcript: TranscriptWriter? = nil, trace: Trace? = nil,
        progress: @escaping @Sendable (String) -> Void = { _ in }, onText: @escaping @Sendable (Int, String) -> Void = { _, _ in }
    ) {
        self.model = model
        self.options = options
        self.tools = tools
        self.transcript = transcript
        self.trace = trace
        self.progress = progress
        self.onText = onText
    }

    public enum Outcome: Sendable, Equatable {
        case finished(GeneratedContent, turns: Int)
        case failed(String)
        case cancelled
    }

    /// Runs to the end. Cancelling the task ends the run after writing a `cancelled` entry.
    public func run(instructions: String, prompt: String, machine initial: AgentStateMachine) async -> Outcome {
        var machine = initial
        var messages = [ChatMessage(.system, instructions), ChatMessage(.user, prompt)]
        transcript?.append(.prompt(prompt))
        var action = machine.start()
        var callNumber = 0
        while true {
            if Task.isCancelled {
                transcript?.append(.cancelled(turn: turnNumber(action)))
                return .cancelled
            }
            switch action {
            case .generate(let turn, let schema, let finalOnly), .repair(let turn, _, let schema, let finalOnly):
                if case .repair(_, let message, _, _) = action {
                    transcript?.append(.repair(turn: turn, message: message))
                    messages.append(ChatMessage(.user, message))
                }
                progress(finalOnly ? "turn \(turn): writing the answer" : "turn \(turn): thinking")
                let start = Date()
                let traceStart = trace?.now() ?? 0
                do {
                    let reply = try await respond(messages, schema: schema, turn: turn)
                    let latency = Date().timeIntervalSince(start) * 1000
                    let parsed = try? GeneratedContent(json: reply.text)
                    let tokensIn = reply.usage?.promptTokens
                    let tokensOut = reply.usage?.completionTokens
                    transcript?.append(.modelTurn(turn: turn, text: reply.text, parsed: parsed, model: reply.modelID,
                                                  tokensIn: tokensIn, tokensOut: tokensOut, latencyMs: latency))
                    trace?.span("inference \(turn)", category: "model", track: "model", start: traceStart, end: trace?.now() ?? 0,
                                args: ["model": .string(reply.modelID), "tokensIn": tokensIn.map { .number(Double($0)) } ?? .null,
                                       "tokensOut": tokensOut.map { .number(Double($0)) } ?? .null,
                                       "cachedTokens": reply.usage?.cachedPromptTokens.map { .number(Double($0)) } ?? .null])
                    messages.append(ChatMessage(.assistant, reply.text))
                    action = machine.modelAnswered(parsed, text: reply.text)
                } catch is CancellationError {
                    transcript?.append(.cancelled(turn: turn))
                    return .cancelled
                } catch {
                    if Task.isCancelled {
                        transcript?.append(.cancelled(turn: turn))
                        return .cancelled
                    }
                    action = machine.modelFailed("\(error)")
                }
            case .runTools(let turn, let calls):
                var ids: [String] = []
                for call in calls {
                    callNumber += 1
                    ids.append("call-\(callNumber)")
                    transcript?.append(.toolCall(turn: turn, id: ids.last!, tool: call.tool, arguments: call.arguments, violations: []))
                }
                progress("turn \(turn): " + calls.map(\.tool).joined(separator: ", ") + "…")
                let outcomes = await runConcurrently(calls, ids: ids)
                messages.append(ChatMessage(.user, feedback(outcomes)))
                action = machine.toolsFinished(outcomes)
            case .finish(let content, let turns):
                transcript?.append(.response(content, turns: turns))
                return .finished(content, turns: turns)
            case .fail(let message):
                transcript?.append(.error(message))
                return .failed(message)
            }
        }
    }

    /// One constrained turn, streamed to `onText`.
    private func respond(_ messages: [ChatMessage], schema: GeneratedContent, turn: Int) async throws -> ModelResponse {
        let request = ModelRequest(messages: messages, schema: try GenerationSchema(json: schema), options: options)
        for try await event in model.generate(request) {
            switch event {
            case .text(let delta): onText(turn, delta)
            case .completed(let response): return response
            }
        }
        try Task.checkCancellation()
        throw ModelError.protocolViolation(model: model.id, message: "the stream ended without a final record")
    }

    private func runConcurrently(_ calls: [ToolCallRequest], ids: [String]) async -> [AgentStateMachine.ToolOutcome] {
        await withTaskGroup(of: (Int, AgentStateMachine.ToolOutcome).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask {
                    let start = Date()
                    let traceStart = trace?.now() ?? 0
                    let run = await tools.run(call)
                    let latency = Date().timeIntervalSince(start) * 1000
                    transcript?.append(.toolOutput(id: ids[index], tool: call.tool, result: run.result, error: run.error,
                                                   latencyMs: latency, restarts: run.workerRestarts))
                    trace?.span(call.tool, category: "tool", track: "tools", start: traceStart, end: trace?.now() ?? 0,
                                args: ["arguments": call.arguments, "ok": .bool(run.error == nil)])
                    return (index, AgentStateMachine.ToolOutcome(call: call, result: run.result, error: run.error))
                }
            }
            var outcomes: [(Int, AgentStateMachine.ToolOutcome)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// What the model reads after its calls: compact results (verbose outputs slow the next turn).
    func feedback(_ outcomes: [AgentStateMachine.ToolOutcome]) -> String {
        outcomes.map { outcome in
            if let result = outcome.result { return "\(outcome.call.tool) returned: \(summarize(outcome.call.tool, result).jsonString)" }
            return "\(outcome.call.tool) failed: \(outcome.error ?? "unknown error")"
        }.joined(separator: "\n")
    }

    private func turnNumber(_ action: AgentStateMachine.Action) -> Int {
        switch action {
        case .generate(let turn, _, _), .repair(let turn, _, _, _), .runTools(let turn, _): turn
        case .finish(_, let turns): turns
        case .fail: 0
        }
    }
}
