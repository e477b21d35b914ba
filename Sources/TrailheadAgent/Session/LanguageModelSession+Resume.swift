import TrailheadModels
import TrailheadSchema

extension LanguageModelSession {
    /// A session that continues a stored conversation, as Foundation Models'
    /// `LanguageModelSession(model:tools:transcript:)`: the model reads everything the
    /// transcript's complete responses said (its instructions as they were then, each prompt, its
    /// own turns, the tools' results as summarized by the session's configuration), and the next
    /// `respond` goes on from there. Entries after the last complete response — a response cut
    /// off by a crash or an error — stay in `transcript` but are not shown to the model.
    ///
    /// The instructions of a transcript that has them win over `instructions` (the conversation
    /// began with them); tools, grounding and configuration are this session's.
    public convenience init(
        model: some LanguageModel = SystemLanguageModel.default, tools: [any Tool] = [], instructions: Instructions? = nil,
        grounding: Grounding = .none, transcript: Transcript
    ) {
        self.init(model: model, tools: tools, instructions: instructions, grounding: grounding)
        state.withLock { $0.replaceTranscript(with: transcript) }
    }

    /// Reads a resumed transcript into the conversation, once, before the first response.
    /// A transcript without instructions (earlier turns a stateless client sent along) gets this
    /// session's, recorded now, so the model reads them first as in any conversation.
    func resumeConversation(summarize: @Sendable (String, GeneratedContent) -> GeneratedContent) {
        let resumed = state.withLock { state -> [Transcript.Entry]? in
            defer { state.resumed = nil }
            return state.resumed
        }
        guard let resumed else { return }
        var conversation = Self.conversation(of: resumed, summarize: summarize)
        // Outside the lock: the system message reads the session's configuration.
        let needsInstructions = !conversation.isEmpty && conversation.first?.source != .instructions
        if needsInstructions { conversation.insert(HistoryEntry(message: .system(systemMessage), source: .instructions, response: 0), at: 0) }
        state.withLock { $0.conversation = conversation }
        if needsInstructions { record(.instructions(.init(text: systemMessage, tools: toolNames))) }
    }

    /// What the model read in the complete responses of `entries`: the messages the loop sent
    /// and received, rebuilt in the loop's own words (`AgentLoop.feedback` for tool results).
    static func conversation(
        of entries: [Transcript.Entry], summarize: (String, GeneratedContent) -> GeneratedContent
    ) -> [HistoryEntry] {
        var committed: [HistoryEntry] = []
        var pending: [HistoryEntry] = []
        var response = 0
        // Calls of the current turn in the order the model made them, and their outputs by id.
        var calls: [Transcript.ToolCall] = []
        var outputs: [String: Transcript.ToolOutput] = [:]
        var inPrompt = false

        func flushCalls() {
            guard !calls.isEmpty else { return }
            let outcomes = calls.compactMap { call -> AgentStateMachine.ToolOutcome? in
                guard let output = outputs[call.id] else { return nil }
                return .init(call: ToolCallRequest(tool: call.tool, arguments: call.arguments), result: output.result, error: output.error)
            }
            calls = []
            outputs = [:]
            guard !outcomes.isEmpty else { return }
            let feedback = HistoryEntry(outcomes, response: response, summarize: summarize)
            if inPrompt, let last = pending.last, last.source == .prompt {
                // Prefetched calls: their results were appended to the prompt.
                pending[pending.count - 1].message.content += "\n" + feedback.message.content
            } else {
                pending.append(feedback)
            }
        }

        for entry in entries {
            switch entry {
            case .instructions(let instructions):
                // First, or recorded after a client's earlier turns: either way the model read them first.
                if committed.first?.source != .instructions {
                    committed.insert(HistoryEntry(message: .system(instructions.text), source: .instructions, response: 0), at: 0)
                }
            case .prompt(let prompt):
                response = (committed.last?.response ?? 0) + 1
                pending = [HistoryEntry(message: .user(prompt.text), source: .prompt, response: response)]
                calls = []
                outputs = [:]
                inPrompt = true
            case .toolCall(let call):
                calls.append(call)
            case .toolOutput(let output):
                outputs[output.id] = output
            case .modelTurn(let turn):
                flushCalls()
                inPrompt = false
                pending.append(HistoryEntry(message: .assistant(turn.text), source: .modelTurn(final: false), response: response))
            case .repair(let repair):
                flushCalls()
                inPrompt = false
                pending.append(HistoryEntry(message: .user(repair.message), source: .repair, response: response))
            case .response:
                flushCalls()
                if let last = pending.indices.last, case .modelTurn = pending[last].source { pending[last].source = .modelTurn(final: true) }
                committed += pending
                pending = []
                inPrompt = false
            case .error, .cancelled:
                pending = []
                calls = []
                outputs = [:]
                inPrompt = false
            }
        }
        return committed
    }
}

extension LanguageModelSession {
    /// A model turn that calls `tool`, in the step protocol's words (scripts for tests and
    /// benchmarks, transcripts of turns made elsewhere).
    public static func stepText(calling tool: String, arguments: GeneratedContent) -> String {
        GeneratedContent.object([StepSchema.keys.call: .string(tool), StepSchema.keys.arguments: arguments]).jsonString
    }

    /// A model turn that makes several calls at once (chained with `and`), in the step protocol's words.
    public static func stepText(calling calls: [ToolCallRequest]) -> String {
        var chain: GeneratedContent?
        for call in calls.reversed() {
            var link: JSONObject = [StepSchema.keys.call: .string(call.tool), StepSchema.keys.arguments: call.arguments]
            if let next = chain { link[StepSchema.keys.next] = next }
            chain = .object(link)
        }
        return (chain ?? .object([:])).jsonString
    }

    /// What the model reads after calls whose results came from elsewhere (a client ran them):
    /// the loop's own words for tool results (`result` nil and `error` set for a failed call).
    public static func toolResultsText(_ results: [(call: ToolCallRequest, result: GeneratedContent?, error: String?)]) -> String {
        AgentLoop.feedback(results.map { .init(call: $0.call, result: $0.result, error: $0.error) }, summarize: { $1 })
    }

    /// A model turn that answers with `answer`, in the step protocol's words (a session with tools).
    public static func stepText(answering answer: GeneratedContent) -> String {
        GeneratedContent.object([StepSchema.keys.final: answer]).jsonString
    }

    /// The entries of an exchange that happened elsewhere (a chat-completions client sends its
    /// earlier turns along): the prompt, the model's turn as a session with or without tools
    /// writes it, the response.
    public static func exchange(prompt: String, answer: GeneratedContent, withTools: Bool) -> [Transcript.Entry] {
        let text = withTools ? stepText(answering: answer) : (answer.stringValue ?? answer.jsonString)
        return [
            .prompt(.init(text: prompt)),
            .modelTurn(.init(turn: 1, text: text, parsed: try? GeneratedContent(json: text), model: "client", tokensIn: nil, tokensOut: nil, latencyMs: 0)),
            .response(.init(content: answer, turns: 1)),
        ]
    }
}
