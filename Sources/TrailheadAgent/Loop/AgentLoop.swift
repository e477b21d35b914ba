import Foundation
import TrailheadModels
import TrailheadSchema
import TrailheadSupport

/// Runs one response of a session: performs the state machine's actions against a model and
/// tools, and records every step (`record`, which the session turns into transcript entries, a
/// transcript file and a trace).
struct AgentLoop: Sendable {
    var model: any LanguageModel
    var options: GenerationOptions
    var tools: any ToolRunner
    var record: @Sendable (Transcript.Entry) -> Void
    var trace: Trace?
    /// Where the response's `chat` and `execute_tool` spans go (under its `invoke_agent` span).
    var telemetry: Telemetry?
    /// Events for people (progress) and for streaming (text as it arrives).
    var observe: @Sendable (SessionEvent) -> Void
    /// What the model reads of a tool's result (the transcript keeps it whole). Every token fed
    /// back is paid for in the next turn's latency, so agents keep only what the model needs.
    var summarize: @Sendable (_ tool: String, _ result: GeneratedContent) -> GeneratedContent
    /// Numbers tool calls across the session's responses ("call-1", "call-2"…).
    var nextCallID: @Sendable () -> String
    /// The token limit of an answer whose schema sets none (free text).
    var maximumTextTokens: Int
    /// End the response once a turn's calls have run, with their outputs as its content.
    var stopsAfterToolCalls = false
    /// What the model reads of the history each turn (the history itself keeps everything).
    var historyTransform = HistoryTransform.identity
    /// Which response of the session this run is, from 1 (`HistoryEntry.response`).
    var response = 1
    /// The search tool, when the session searches its tools: a turn that only searched does
    /// not end a response that `stopsAfterToolCalls`.
    var searchTool: String?
    /// How the response's first decision between a call and the answer is made (`ToolDecision`).
    var toolDecision = ToolDecision.modelsChoice

    enum Outcome: Sendable, Equatable {
        case finished(GeneratedContent, turns: Int)
        case failed(String)
        case cancelled
    }

    /// What a run added to the conversation and what it cost.
    struct Run: Sendable {
        var outcome: Outcome
        var messages: [HistoryEntry] = []
        var usage = Usage()
        var modelID: String?
        /// The model's own error, when the run failed because the model did.
        var modelError: (any Error)?
        /// Why the run ended without an answer, when a grounded field could not be backed.
        var groundingFailure: GroundingFailure?
    }

    /// Runs to the end from `conversation` (which already ends with the user's prompt).
    /// Cancelling the task ends the run after recording a `cancelled` entry.
    func run(_ conversation: [HistoryEntry], machine initial: AgentStateMachine) async -> Run {
        var machine = initial
        var run = Run(outcome: .cancelled)
        var messages = conversation
        var action = machine.start()
        // The texts of the model's last two turns: a repaired turn that says word for word what the
        // turn before it said is stuck (see `unstuck`).
        var lastTexts: [String] = []
        // The decision between a call and the answer, read from the model's probabilities
        // (`ToolDecision`) once for each turn, for the turn's record.
        var decision: (callProbability: Double, committed: Bool)?
        var decidedTurns: Set<Int> = []
        // The chain a turn made before it was asked again one call longer (`continuesChain`).
        // `checked`: the added call is kept only when it brings something new (`AddedCallGrounding`).
        var shorterChain: (parsed: GeneratedContent, links: Int, checked: Bool)?
        while true {
            if Task.isCancelled {
                record(.cancelled(.init(turn: Self.turnNumber(action))))
                return run
            }
            if case .generate(let turn, _, _) = action, decidedTurns.insert(turn).inserted {
                if let moment = machine.decision, toolDecision.mayCommit(at: moment), let probability = await callProbability(messages) {
                    let outcome = toolDecision.decide(callProbability: probability, at: moment)
                    if case .call(let only) = outcome { action = machine.commitToCall(only: only) }
                    decision = (probability, outcome != .modelsChoice)
                }
            }
            switch action {
            case .generate(let turn, let schema, let finalOnly), .repair(let turn, _, let schema, let finalOnly):
                if case .repair(_, let message, _, _) = action {
                    record(.repair(.init(turn: turn, message: message)))
                    let repair = HistoryEntry(message: .user(message), source: .repair, response: response)
                    messages.append(repair)
                    run.messages.append(repair)
                }
                observe(.turnStarted(turn: turn, finalOnly: finalOnly))
                do {
                    let compiled = try GenerationSchema(json: schema)
                    var options = bounded(options, by: compiled)
                    if case .repair = action, lastTexts.count == 2, lastTexts[0] == lastTexts[1] { options = Self.unstuck(options, turn: turn) }
                    let request = ModelRequest(messages: read(messages), schema: compiled, options: options)
                    var (reply, loop) = try await generate(request, turn: turn, spent: run.usage)
                    var parsed = try? GeneratedContent(json: reply.text)
                    if parsed == nil, reply.finishReason == "length" { parsed = Self.textAnswerCut(reply.text) }
                    var salvaged = false
                    if parsed == nil || loop != nil, !finalOnly {
                        // Cut, looping or repeating a call in a later link: the finished links are kept.
                        let links = ChainSalvage.completeLinks(in: reply.text)
                        if !links.isEmpty {
                            parsed = StepSchema.chain(links)
                            loop = nil
                            salvaged = true
                            reply.finishReason = (reply.finishReason ?? "stop") + "; kept \(links.count) complete call\(links.count == 1 ? "" : "s")"
                        }
                    }
                    if let shorter = shorterChain {
                        shorterChain = nil
                        if let reasons = Self.reasonsToKeep(shorter, over: parsed, looped: loop != nil, history: messages) {
                            parsed = shorter.parsed
                            loop = nil
                            salvaged = true
                            let why = reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))"
                            reply.finishReason = (reply.finishReason ?? "stop") + "; asked for one call more, kept the \(shorter.links) it had made\(why)"
                        }
                    }
                    // A chain the grammar ended where the model leaned towards another call
                    // (`ToolDecision.chainThreshold`): the turn is asked again with one link more.
                    var continuation: Double?, links = 0
                    if loop == nil, !salvaged, toolDecision.asksAboutChainEnds, let parsed, case .call(let calls)? = Step(parsed),
                        machine.mayAskForMoreCalls(than: calls.count)
                    {
                        links = calls.count
                        continuation = await chainContinuation(messages, text: reply.text, links: links)
                    }
                    recordTurn(turn, reply, parsed: parsed, decision: decision, continuation: continuation)
                    decision = nil
                    lastTexts = Array((lastTexts + [reply.text]).suffix(2))
                    run.usage.add(reply.usage, metadata: reply.metadata)
                    run.modelID = reply.modelID
                    if case .askAgain(let checked) = toolDecision.continuesChain(continuation), let parsed {
                        // Asked again: the shorter chain is not what the model reads it said.
                        shorterChain = (parsed, links, checked)
                        action = machine.askForMoreCalls(than: links)
                        continue
                    } else if let loop {
                        action = machine.modelRepeated(loop)
                    } else {
                        let cutAt = reply.finishReason == "length" ? reply.usage?.completionTokens ?? 0 : nil
                        action = machine.modelAnswered(parsed, text: reply.text, cutAt: cutAt)
                    }
                    let final = if case .finish = action { true } else { false }
                    // A kept chain is what the model reads it said: the calls that ran, as JSON.
                    let said = HistoryEntry(message: .assistant(salvaged ? parsed?.jsonString ?? reply.text : reply.text), source: .modelTurn(final: final), response: response)
                    messages.append(said)
                    run.messages.append(said)
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
                    record(.toolCall(.init(turn: turn, id: id, tool: call.tool, arguments: call.arguments, dropped: machine.dropped[call] ?? [])))
                }
                let refused = machine.refused
                if !refused.isEmpty { record(.repair(.init(turn: turn, message: Self.feedback(refused, summarize: summarize)))) }
                observe(.toolsStarted(turn: turn, tools: calls.map(\.tool)))
                let outcomes = await runCalls(calls, ids: ids)
                if stopsAfterToolCalls, !calls.allSatisfy({ $0.tool == searchTool }) {
                    action = .finish(Self.content(of: outcomes), turns: turn)
                    continue
                }
                let feedback = HistoryEntry(outcomes + refused, response: response, summarize: summarize)
                messages.append(feedback)
                run.messages.append(feedback)
                action = machine.toolsFinished(outcomes)
            case .finish(let content, let turns):
                record(.response(.init(content: content, turns: turns)))
                run.outcome = .finished(content, turns: turns)
                return run
            case .fail(let message):
                record(.error(.init(message: message)))
                run.outcome = .failed(message)
                run.groundingFailure = machine.groundingFailure
                return run
            }
        }
    }

    /// Why a turn asked again one call longer keeps the chain it had made before (`shorter`), or
    /// `nil` when the longer chain stands; empty reasons when the longer one never closed. Asked
    /// again, the turn ran away, was cut or looped before its longer chain closed: the calls the
    /// model had already made stand (the asked-again turn of BFCL's `parallel_23` repeated "0"
    /// inside its first call's number, and the response failed with its one valid call lost). So
    /// do they when the turn was asked for below `chainThreshold` and its added call brings nothing
    /// new from the conversation (`AddedCallGrounding`).
    static func reasonsToKeep(
        _ shorter: (parsed: GeneratedContent, links: Int, checked: Bool), over longer: GeneratedContent?, looped: Bool, history: [HistoryEntry]
    ) -> [String]? {
        let calls: [ToolCallRequest] = longer.flatMap { Step($0) }.map { if case .call(let calls) = $0 { calls } else { [] } } ?? []
        if looped || calls.count <= shorter.links { return [] }
        guard shorter.checked else { return nil }
        let reasons = AddedCallGrounding.reasons(
            against: Array(calls[shorter.links...]), after: Array(calls[..<shorter.links]), in: AddedCallGrounding.conversation(history))
        return reasons.isEmpty ? nil : reasons
    }

    /// The messages the model reads of `history` this turn.
    func read(_ history: [HistoryEntry]) -> [ChatMessage] { historyTransform(history).map(\.message) }

    /// `options` with a token limit no answer under `schema` can reach, unless the caller set one;
    /// an answer with no longest form (free text) gets `maximumTextTokens`.
    func bounded(_ options: GenerationOptions, by schema: GenerationSchema?) -> GenerationOptions {
        var options = options
        if options.maxTokens == nil { options.maxTokens = schema?.longestAnswerBytes.map { max(16, $0) } ?? maximumTextTokens }
        return options
    }

    /// The options of a repair turn after the model answered a repair with the very answer it
    /// was told was wrong: a greedy model given the same context writes it again, every time (the
    /// 1.5B model copied an example three repairs in a row), so the turn samples instead, warm and
    /// seeded by its number (the same run gives the same turns).
    static func unstuck(_ options: GenerationOptions, turn: Int) -> GenerationOptions {
        var options = options
        options.temperature = max(options.temperature ?? 0, 0.7)
        if (options.topK ?? 0) < 40 { options.topK = 40 }
        options.topP = options.topP ?? 0.95
        options.seed = options.seed ?? turn
        return options
    }

    /// Streams one turn to the observer, with the response's usage (`spent` by the turns before,
    /// and this one's so far) each time the model reports it. A turn caught in a loop
    /// (`RepetitionDetector`) is stopped: its text so far comes back with finish reason
    /// "repetition" and the loop found.
    func generate(_ request: ModelRequest, turn: Int, spent: Usage = Usage()) async throws -> (ModelResponse, RepetitionDetector.Loop?) {
        let started = monotonicSeconds()
        var detector = RepetitionDetector()
        var watcher = ChainSalvage.RepeatWatcher()
        var text = ""
        var reported: (usage: TokenUsage?, metadata: [String: GeneratedContent]) = (nil, [:])
        func report() {
            var usage = spent
            usage.add(reported.usage, metadata: reported.metadata)
            observe(.usage(usage))
        }
        for try await event in model.generate(request) {
            switch event {
            case .usage(let usage):
                reported.usage = usage
                report()
            case .metadata(let metadata):
                reported.metadata = metadata
            case .text(let delta):
                observe(.text(turn: turn, delta))
                text += delta
                if watcher.append(delta) {
                    // The chain started a link after repeating a call: stop, its calls are kept.
                    let stopped = ModelResponse(
                        text: text, modelID: model.id, usage: nil, timings: ModelTimings(total: monotonicSeconds() - started),
                        finishReason: "repeated call")
                    return (stopped, nil)
                }
                if let loop = detector.append(delta) {
                    // Leaving the loop cancels the stream, and with it the request.
                    let stopped = ModelResponse(
                        text: text, modelID: model.id, usage: nil, timings: ModelTimings(total: monotonicSeconds() - started),
                        finishReason: "repetition")
                    return (stopped, loop)
                }
            case .completed(var response):
                // The turn as the loop waited for it (a backend may time only its own part of it).
                response.timings.total = max(response.timings.total, monotonicSeconds() - started)
                // A backend that counts only in its final record is reported once, here.
                if let usage = response.usage, usage != reported.usage {
                    reported = (usage, response.metadata)
                    report()
                }
                return (response, nil)
            }
        }
        try Task.checkCancellation()
        throw ModelError.protocolViolation(model: model.id, message: "the stream ended without a final record")
    }

    /// The share of a call in the model's probability of a call or the answer, at the start of
    /// the next turn (`ToolDecision`); nil when the model cannot tell (or failed to).
    func callProbability(_ messages: [HistoryEntry]) async -> Double? {
        let keys = StepSchema.keys
        return await probabilities(messages, continuing: "{\"", decision: "call_probability") {
            ToolDecision.callProbability($0, callKey: keys.call, answerKey: keys.final)
        }
    }

    /// The share of another call in the model's probability of continuing or closing a chain of
    /// `links` calls, at the end of the last one's arguments (`ToolDecision.chainContinuation`).
    func chainContinuation(_ messages: [HistoryEntry], text: String, links: Int) async -> Double? {
        guard let prefix = ToolDecision.chainEnd(text, links: links) else { return nil }
        return await probabilities(messages, continuing: prefix, decision: "chain_continuation", share: ToolDecision.chainContinuation)
    }

    /// The model's top-20 next tokens after `prefix`, read into a share by `share`; a span in the
    /// trace when the model answered (or failed to), none when it cannot give probabilities.
    private func probabilities(
        _ messages: [HistoryEntry], continuing prefix: String, decision: String, share: ([TokenProbability]) -> Double?
    ) async -> Double? {
        let start = Date()
        do {
            guard let candidates = try await model.nextTokenProbabilities(for: read(messages), continuing: prefix, count: 20) else { return nil }
            let value = share(candidates)
            telemetry?.recordDecision(decision, model: model.id, from: start, share: value, error: nil)
            return value
        } catch {
            telemetry?.recordDecision(decision, model: model.id, from: start, share: nil, error: "\(error)")
            return nil
        }
    }

    /// Records a model turn in the transcript and the trace.
    func recordTurn(
        _ turn: Int, _ reply: ModelResponse, parsed: GeneratedContent?, decision: (callProbability: Double, committed: Bool)? = nil,
        continuation: Double? = nil
    ) {
        var entry = Transcript.ModelTurn(
            turn: turn, text: reply.text, parsed: parsed, model: reply.modelID, tokensIn: reply.usage?.promptTokens,
            cachedTokensIn: reply.usage?.cachedPromptTokens, tokensOut: reply.usage?.completionTokens, latencyMs: reply.timings.total * 1000,
            finishReason: reply.finishReason, serverPromptMs: reply.timings.serverPromptSeconds.map { $0 * 1000 },
            serverDecodeMs: reply.timings.serverGenerationSeconds.map { $0 * 1000 })
        entry.callProbability = decision.map { ($0.callProbability * 1000).rounded() / 1000 }
        entry.committedToCall = decision?.committed
        entry.chainContinuation = continuation.map { ($0 * 1000).rounded() / 1000 }
        record(.modelTurn(entry))
        telemetry?.recordTurn(reply)
        guard let trace else { return }
        let end = trace.now()
        trace.span("inference \(turn)", category: "model", track: "model", start: end - reply.timings.total * 1_000_000, end: end,
                   args: ["model": .string(reply.modelID), "tokensIn": reply.usage.map { .number(Double($0.promptTokens)) } ?? .null,
                          "tokensOut": reply.usage.map { .number(Double($0.completionTokens)) } ?? .null,
                          "cachedTokens": reply.usage?.cachedPromptTokens.map { .number(Double($0)) } ?? .null])
    }

    /// A text answer the token limit cut: `{"answer": "…` read as far as it got, so a free-text
    /// answer that ran to its bound is kept rather than asked for again (at the same bound).
    static func textAnswerCut(_ text: String) -> GeneratedContent? {
        var parser = PartialJSONParser()
        guard (try? parser.append(text)) != nil, let snapshot = parser.snapshot(),
            case .final(let answer) = Step(snapshot), answer.stringValue != nil
        else { return nil }
        return snapshot
    }

    /// What a response that ends with its calls holds: each call with its result or error.
    static func content(of outcomes: [AgentStateMachine.ToolOutcome]) -> GeneratedContent {
        .array(outcomes.map { outcome in
            var object: JSONObject = ["tool": .string(outcome.call.tool), "arguments": outcome.call.arguments]
            if let result = outcome.result { object["result"] = result }
            if let error = outcome.error { object["error"] = .string(error) }
            return .object(object)
        })
    }

    /// Runs `calls`, recording each output as it arrives; outcomes in call order. Calls that only
    /// read (`Tool.isReadOnly`) run concurrently; a turn with a call that may change something runs
    /// its calls one after another in the order the model wrote them ("make the folder, then move
    /// the file into it" must not race).
    func runCalls(_ calls: [ToolCallRequest], ids: [String]) async -> [AgentStateMachine.ToolOutcome] {
        guard calls.allSatisfy({ tools.isReadOnly($0.tool) }) else {
            var outcomes: [AgentStateMachine.ToolOutcome] = []
            for (index, call) in calls.enumerated() { outcomes.append(await runCall(call, id: ids[index])) }
            return outcomes
        }
        return await withTaskGroup(of: (Int, AgentStateMachine.ToolOutcome).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask { (index, await runCall(call, id: ids[index])) }
            }
            var outcomes: [(Int, AgentStateMachine.ToolOutcome)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    private func runCall(_ call: ToolCallRequest, id: String) async -> AgentStateMachine.ToolOutcome {
        let start = Date()
        let traceStart = trace?.now() ?? 0
        let run = await tools.run(call)
        telemetry?.recordToolCall(call.tool, id: id, from: start, to: Date(), error: run.error)
        let latency = Date().timeIntervalSince(start) * 1000
        record(.toolOutput(.init(id: id, tool: call.tool, result: run.result, error: run.error, latencyMs: latency)))
        trace?.span(call.tool, category: "tool", track: "tools", start: traceStart, end: trace?.now() ?? 0,
                    args: ["arguments": call.arguments, "ok": .bool(run.error == nil)])
        return AgentStateMachine.ToolOutcome(call: call, result: run.result, error: run.error)
    }

    /// What the model reads after calls: compact results (verbose outputs slow the next turn).
    static func feedback(_ outcomes: [AgentStateMachine.ToolOutcome], summarize: (String, GeneratedContent) -> GeneratedContent) -> String {
        outcomes.map { outcome in
            // (Nothing returned is said in words: a small model read `mkdir returned: "None"` as a failure.)
            if outcome.result == .null { return "\(outcome.call.tool) succeeded: it returns nothing" }
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
    func plainTurn(_ conversation: [HistoryEntry]) async -> Run {
        var run = Run(outcome: .cancelled)
        observe(.turnStarted(turn: 1, finalOnly: true))
        do {
            let (reply, loop) = try await generate(ModelRequest(messages: read(conversation), options: bounded(options, by: nil)), turn: 1)
            recordTurn(1, reply, parsed: nil)
            run.usage.add(reply.usage, metadata: reply.metadata)
            run.modelID = reply.modelID
            run.messages = [HistoryEntry(message: .assistant(reply.text), source: .modelTurn(final: loop == nil), response: response)]
            if let loop {
                let message = AgentStateMachine.repetitionMessage(loop)
                record(.error(.init(message: message)))
                run.outcome = .failed(message)
                return run
            }
            record(.response(.init(content: .string(reply.text), turns: 1)))
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
