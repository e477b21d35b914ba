import Foundation
import TrailheadModels
import TrailheadSchema

/// Runs one response of a session: performs the state machine's actions against a model and
/// tools, and records every step (`record`, which the session turns into transcript entries, a
/// transcript file and a trace).
struct AgentLoop: Sendable {
    var model: any LanguageModel
    var options: GenerationOptions
    var tools: any ToolRunner
    var record: @Sendable (Transcript.Entry) -> Void
    var trace: Trace?
    /// Events for people (progress) and for streaming (text as it arrives).
    var observe: @Sendable (SessionEvent) -> Void
    /// What the model reads of a tool's result (the transcript keeps it whole). Every token fed
    /// back is paid for in the next turn's latency, so agents keep only what the model needs.
    var summarize: @Sendable (_ tool: String, _ result: GeneratedContent) -> GeneratedContent
    /// Numbers tool calls across the session's responses ("call-1", "call-2"…).
    var nextCallID: @Sendable () -> String

    enum Outcome: Sendable, Equatable {
        case finished(GeneratedContent, turns: Int)
        case failed(String)
        case cancelled
    }

    /// What a run added to the conversation and what it cost.
    struct Run: Sendable {
        var outcome: Outcome
        var messages: [ChatMessage] = []
        var usage = Usage()
        var modelID: String?
        /// The model's own error, when the run failed because the model did.
        var modelError: (any Error)?
    }

    /// Runs to the end from `conversation` (which already ends with the user's prompt).
    /// Cancelling the task ends the run after recording a `cancelled` entry.
    func run(_ conversation: [ChatMessage], machine initial: AgentStateMachine) async -> Run {
        var machine = initial
        var run = Run(outcome: .cancelled)
        var messages = conversation
        var action = machine.start()
        while true {
            if Task.isCancelled {
                record(.cancelled(.init(turn: Self.turnNumber(action))))
                return run
            }
            switch action {
            case .generate(let turn, let schema, let finalOnly), .repair(let turn, _, let schema, let finalOnly):
                if case .repair(_, let message, _, _) = action {
                    record(.repair(.init(turn: turn, message: message)))
                    messages.append(.user(message))
                    run.messages.append(.user(message))
                }
                observe(.turnStarted(turn: turn, finalOnly: finalOnly))
                let start = Date()
                let traceStart = trace?.now() ?? 0
                do {
                    let reply = try await respond(messages, schema: schema, turn: turn)
                    let latency = Date().timeIntervalSince(start) * 1000
                    let parsed = try? GeneratedContent(json: reply.text)
                    record(.modelTurn(.init(
                        turn: turn, text: reply.text, parsed: parsed, model: reply.modelID, tokensIn: reply.usage?.promptTokens,
                        cachedTokensIn: reply.usage?.cachedPromptTokens, tokensOut: reply.usage?.completionTokens, latencyMs: latency,
                        finishReason: reply.finishReason, serverPromptMs: reply.timings.serverPromptSeconds.map { $0 * 1000 },
                        serverDecodeMs: reply.timings.serverGenerationSeconds.map { $0 * 1000 })))
                    trace?.span("inference \(turn)", category: "model", track: "model", start: traceStart, end: trace?.now() ?? 0,
                                args: ["model": .string(reply.modelID), "tokensIn": reply.usage.map { .number(Double($0.promptTokens)) } ?? .null,
                                       "tokensOut": reply.usage.map { .number(Double($0.completionTokens)) } ?? .null,
                                       "cachedTokens": reply.usage?.cachedPromptTokens.map { .number(Double($0)) } ?? .null])
                    run.usage.add(reply.usage)
                    run.modelID = reply.modelID
                    messages.append(.assistant(reply.text))
                    run.messages.append(.assistant(reply.text))
                    action = machine.modelAnswered(parsed, text: reply.text, cutAt: reply.finishReason == "length" ? reply.usage?.completionTokens ?? 0 : nil)
                } catch {
                    if error is CancellationError || Task.isCancelled {
                        record(.cancelled(.init(turn: turn)))
                        return run
                    }
                    run.modelError = error
                    action = machine.modelFailed("\(error)")
                }
            case .runTools(let turn, let calls):
                let ids = calls.map { _ in nextCallID() }
                for (call, id) in zip(calls, ids) {
                    record(.toolCall(.init(turn: turn, id: id, tool: call.tool, arguments: call.arguments)))
                }
                observe(.toolsStarted(turn: turn, tools: calls.map(\.tool)))
                let outcomes = await runConcurrently(calls, ids: ids)
                let feedback = Self.feedback(outcomes, summarize: summarize)
                messages.append(.user(feedback))
                run.messages.append(.user(feedback))
                action = machine.toolsFinished(outcomes)
            case .finish(let content, let turns):
                record(.response(.init(content: content, turns: turns)))
                run.outcome = .finished(content, turns: turns)
                return run
            case .fail(let message):
                record(.error(.init(message: message)))
                run.outcome = .failed(message)
                return run
            }
        }
    }

    /// One constrained turn, streamed to the observer.
    private func respond(_ messages: [ChatMessage], schema: GeneratedContent, turn: Int) async throws -> ModelResponse {
        let compiled = try GenerationSchema(json: schema)
        var options = options
        // A limit that no answer under this turn's schema can reach, unless the caller set one.
        if options.maxTokens == nil, let longest = compiled.longestAnswerBytes { options.maxTokens = max(16, longest) }
        let request = ModelRequest(messages: messages, schema: compiled, options: options)
        for try await event in model.generate(request) {
            switch event {
            case .text(let delta): observe(.text(turn: turn, delta))
            case .completed(let response): return response
            }
        }
        try Task.checkCancellation()
        throw ModelError.protocolViolation(model: model.id, message: "the stream ended without a final record")
    }

    /// Runs `calls` concurrently, recording each output as it arrives; outcomes in call order.
    func runConcurrently(_ calls: [ToolCallRequest], ids: [String]) async -> [AgentStateMachine.ToolOutcome] {
        await withTaskGroup(of: (Int, AgentStateMachine.ToolOutcome).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask {
                    let start = Date()
                    let traceStart = trace?.now() ?? 0
                    let run = await tools.run(call)
                    let latency = Date().timeIntervalSince(start) * 1000
                    record(.toolOutput(.init(id: ids[index], tool: call.tool, result: run.result, error: run.error,
                                             latencyMs: latency, workerRestarts: run.workerRestarts)))
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

    /// What the model reads after calls: compact results (verbose outputs slow the next turn).
    static func feedback(_ outcomes: [AgentStateMachine.ToolOutcome], summarize: (String, GeneratedContent) -> GeneratedContent) -> String {
        outcomes.map { outcome in
            if let result = outcome.result { return "\(outcome.call.tool) returned: \(summarize(outcome.call.tool, result).jsonString)" }
            return "\(outcome.call.tool) failed: \(outcome.error ?? "unknown error")"
        }.joined(separator: "\n")
    }

    private static func turnNumber(_ action: AgentStateMachine.Action) -> Int {
        switch action {
        case .generate(let turn, _, _), .repair(let turn, _, _, _), .runTools(let turn, _): turn
        case .finish(_, let turns): turns
        case .fail: 0
        }
    }
}

extension AgentLoop {
    /// One free-text turn, for a session without tools asked for text: no schema, no loop.
    func plainTurn(_ conversation: [ChatMessage]) async -> Run {
        var run = Run(outcome: .cancelled)
        observe(.turnStarted(turn: 1, finalOnly: true))
        let start = Date()
        do {
            var reply: ModelResponse?
            for try await event in model.generate(ModelRequest(messages: conversation, options: options)) {
                switch event {
                case .text(let delta): observe(.text(turn: 1, delta))
                case .completed(let response): reply = response
                }
            }
            guard let reply else {
                try Task.checkCancellation()
                throw ModelError.protocolViolation(model: model.id, message: "the stream ended without a final record")
            }
            record(.modelTurn(.init(
                turn: 1, text: reply.text, parsed: nil, model: reply.modelID, tokensIn: reply.usage?.promptTokens,
                cachedTokensIn: reply.usage?.cachedPromptTokens, tokensOut: reply.usage?.completionTokens,
                latencyMs: Date().timeIntervalSince(start) * 1000, finishReason: reply.finishReason,
                serverPromptMs: reply.timings.serverPromptSeconds.map { $0 * 1000 }, serverDecodeMs: reply.timings.serverGenerationSeconds.map { $0 * 1000 })))
            record(.response(.init(content: .string(reply.text), turns: 1)))
            run.usage.add(reply.usage)
            run.modelID = reply.modelID
            run.messages = [.assistant(reply.text)]
            run.outcome = .finished(.string(reply.text), turns: 1)
        } catch {
            if error is CancellationError || Task.isCancelled {
                record(.cancelled(.init(turn: 1)))
                return run
            }
            record(.error(.init(message: "the model failed: \(error)")))
            run.modelError = error
            run.outcome = .failed("the model failed: \(error)")
        }
        return run
    }
}
