import Foundation
import Synchronization
import TrailheadModels
import TrailheadSchema

/// A conversation with a model that may call tools, as in Foundation Models:
///
///     let session = LanguageModelSession(tools: [FindPointsOfInterestTool()], instructions: "Plan trips.")
///     let plan = try await session.respond(to: "Plan 3 days in Joshua Tree", generating: Itinerary.self)
///
/// The session owns the tool loop: each turn the model answers with one JSON object under a
/// guarded step schema (call one of the tools, or give the final answer), the session validates
/// and runs the calls, feeds their results back, repairs invalid answers within bounds, and
/// records everything in its `transcript`. The author writes instructions, tools and the answer's
/// type — never the step protocol. A second `respond` continues the same conversation (and a
/// llama.cpp server reuses its prompt cache for everything said before).
public final class LanguageModelSession: Sendable {
    public let model: any LanguageModel
    public let instructions: Instructions?
    public let grounding: Grounding
    /// The tools' names, in the order the model is shown them.
    public let toolNames: [String]
    let tools: [String: SessionTool]

    struct State {
        var transcript = Transcript()
        /// Entries of a stored transcript this session continues, read into `conversation` by
        /// the first response (with the configuration's summaries of tool outputs).
        var resumed: [Transcript.Entry]?
        /// What the model has read so far: the system message, prompts, its turns, tool results
        /// (before the configuration's `historyTransform`).
        var conversation: [HistoryEntry] = []
        var isResponding = false
        var calls = 0
        var prewarm: Task<Void, Never>?
        /// The share of the model's context the tools' listing takes, counted by the model
        /// (`ToolSearch.automatic`), once, at the first response.
        var toolListingShare: Double?
        var configuration = Configuration()
        /// Every response's usage, failed ones too.
        var usage = Usage()
        var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy?
        /// A transcript set while a response was under way: it takes the place of the transcript
        /// when that response ends, and the response fails.
        var transcriptSetWhileResponding: Transcript?

        /// Continues from `transcript`: the next response reads what its complete responses said
        /// (`resumeConversation`), and call ids go on after its calls.
        mutating func replaceTranscript(with transcript: Transcript) {
            self.transcript = transcript
            resumed = transcript.entries
            conversation = []
            calls = transcript.entries.reduce(0) { count, entry in
                if case .toolCall = entry { return count + 1 }
                return count
            }
        }
    }

    /// What a response may have to undo (`TranscriptErrorHandlingPolicy.revertTranscript`).
    struct Checkpoint {
        var transcriptCount: Int
        var conversation: [HistoryEntry]
        var resumed: [Transcript.Entry]?
    }

    /// What an agent tunes beyond Foundation Models' surface.
    public struct Configuration: Sendable {
        /// Turn, repair and repeat bounds of the tool loop.
        public var limits = Limits()
        /// What the model reads of a tool's result (the transcript keeps it whole).
        public var summarizeToolOutput: @Sendable (_ tool: String, _ result: GeneratedContent) -> GeneratedContent = { $1 }
        /// What the model reads of the conversation each turn (Foundation Models 27's
        /// `historyTransform`): `.rollingWindow(entries:)`, `.droppingCompletedToolCalls`,
        /// `.summarizingToolOutputs(…)`, or any function of the history. `nil` sends all of it.
        /// The transcript keeps everything either way.
        public var historyTransform: HistoryTransform?
        /// Checks of a final answer beyond its schema (distinct dates, say): problems in words
        /// the model can act on; a non-empty list is a repair turn.
        public var checkAnswer: @Sendable (GeneratedContent) -> [String] = { _ in [] }
        /// Also append each transcript entry to this JSON Lines file as it happens.
        public var transcriptFile: TranscriptWriter?
        /// Also write each entry to a session store as it happens (`agent serve`).
        public var recorder: SessionRecorder?
        /// Also write model and tool spans to this Chrome trace.
        public var trace: Trace?
        /// Also export each response's spans over OTLP (OpenTelemetry's GenAI conventions:
        /// `invoke_agent`, `chat`, `execute_tool`); `Telemetry.fromEnvironment()` reads the
        /// standard `OTEL_EXPORTER_OTLP_…` variables, and is the default: with an endpoint in the
        /// environment every session exports, as OpenTelemetry's SDKs do.
        public var telemetry: Telemetry? = Telemetry.process
        /// Progress and streamed text, as they happen.
        public var onEvent: (@Sendable (SessionEvent) -> Void)?
        /// Asked before each call of a tool that needs approval (`Tool.needsApproval`); the
        /// default approves nothing.
        public var approve: @Sendable (ToolCallRequest) async -> Bool = { _ in false }
        /// Wraps every call of a tool (approval included): a durable run (`agent serve`'s
        /// background runs) answers a call it recorded before from its record instead of running
        /// it again, and records each new call's outcome before the loop goes on. `nil`: calls run.
        public var aroundToolCall: ToolCallHook?
        /// What the instructions entry records to run the session again (`agent transcript replay`).
        public var request: GeneratedContent?
        /// The token limit of a free-text answer when `GenerationOptions.maximumResponseTokens`
        /// sets none: a small model asked something no tool answers can write until the context
        /// is full (a BFCL case ran past 2,800 tokens, three minutes here). A schema's answer is
        /// bounded by the schema itself.
        public var maximumTextTokens = 512
        /// End a response once the first turn's calls have run, its content their outputs (an
        /// array of `{"tool", "arguments", "result" | "error"}`), as the OpenAI Agents SDK's
        /// `stop_on_first_tool`: for a caller that wants the calls themselves (an evaluation that
        /// scores them, an agent whose tools are its answer). Default false: the model answers.
        public var stopsAfterToolCalls = false
        /// When the model sees a `searchTools` tool instead of the list of tools (default: more
        /// than 16 tools, or more than 2,000 tokens of their descriptions).
        public var toolSearch = ToolSearch.automatic
        /// How a response's first decision between calling a tool and answering is made: from the
        /// model's probabilities where the backend gives them (llama.cpp), a call when its share
        /// reaches the threshold — 0.2 for read-only tools, the model's own choice for tools with
        /// side effects (`ToolDecision`, docs/TOOL-CALLING.md). The environment variable
        /// `TRAILHEAD_READ_ONLY_CALL_THRESHOLD` (a number, or `off`) overrides the read-only
        /// threshold, for experiments. `.modelsChoice` leaves every decision to the model.
        public var toolDecision = ToolDecision.fromEnvironment()

        public init() {}
    }

    let state: Mutex<State>

    /// A session over `model` (the managed local model by default) with `tools`.
    /// - Parameter grounding: which tool outputs ground which fields of the answer.
    public init(
        model: some LanguageModel = SystemLanguageModel.default, tools: [any Tool] = [], instructions: Instructions? = nil,
        grounding: Grounding = .none
    ) {
        self.model = model
        self.instructions = instructions
        self.grounding = grounding
        var table: [String: SessionTool] = [:]
        var names: [String] = []
        for tool in tools {
            let erased = SessionTool(tool)
            if table[erased.name] == nil { names.append(erased.name) }
            table[erased.name, default: erased] = erased
        }
        self.tools = table
        self.toolNames = names
        self.duplicateToolNames = Dictionary(grouping: tools.map(\.name), by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        let callable = names.filter { AgentStateMachine.fixedArguments(table[$0]!.parameters.json) == nil }.map { table[$0]! }
        let presentation = ToolInstructions(calls: .one)
        listedTools = callable.map(\.name)
        toolListings = Dictionary(callable.map { ($0.name, presentation.describe($0)) }, uniquingKeysWith: { a, _ in a })
        listing = presentation.listing(callable)
        searchIndex = ToolSearchIndex(callable.map { ToolSearchIndex.Document(name: $0.name, description: $0.description, parameters: $0.parameters) })
        state = Mutex(State())
    }

    /// A session whose instructions are written with a builder (strings and `Generable` examples).
    public convenience init(
        model: some LanguageModel = SystemLanguageModel.default, tools: [any Tool] = [], grounding: Grounding = .none,
        @PromptTextBuilder instructions: () throws -> [PromptPiece]
    ) rethrows {
        self.init(model: model, tools: tools, instructions: try Instructions(instructions), grounding: grounding)
    }

    /// The argument schema the model sees for the tool `name`.
    public func parameters(ofTool name: String) -> GenerationSchema? { tools[name]?.parameters }

    /// Tool names given to more than one tool: the first `respond` refuses to run.
    let duplicateToolNames: [String]
    /// The tools the model has something to decide about (not those whose arguments are all fixed).
    let listedTools: [String]
    /// Each of them on its own, as a search shows it (`ToolInstructions.describe`).
    let toolListings: [String: String]
    /// All of them as the instructions list them (`ToolInstructions.listing`: a shared opening once).
    let listing: [String]
    /// Those tools for `searchTools`.
    let searchIndex: ToolSearchIndex

    /// The search tool, when `configuration.toolSearch` applies to this session's tools.
    func searchTool(_ configuration: Configuration, answering request: String = "") -> SessionTool? {
        let search = configuration.toolSearch
        let share = state.withLock { $0.toolListingShare }
        guard search.applies(toolCount: listedTools.count, listing: listing, listingShare: share) else { return nil }
        return SessionTool(SearchToolsTool(index: searchIndex, listings: toolListings, limit: search.resultsPerSearch, request: request))
    }

    /// Counts the tools' listing with the model's own tokenizer against its context, once, before
    /// the system message is first written (`ToolSearch.automatic`): `TokenEstimate`, made to bound
    /// JSON, put the 17 tools of a BFCL conversation at 2,700 tokens (more than the fixed bound)
    /// where the model's tokenizer counts about 1,850, and listed they did better than searched. A
    /// session continuing a transcript (each request of a stateless client) counts the same way,
    /// so every request of a conversation lists or searches alike. A model that does not say its
    /// context, or cannot count, keeps the fixed bounds.
    func measureToolListing(_ configuration: Configuration) async {
        guard configuration.toolSearch.mode == .automatic, !listedTools.isEmpty,
            state.withLock({ $0.toolListingShare == nil && $0.conversation.isEmpty })
        else { return }
        guard let contextSize = await model.contextSize, contextSize > 0,
            let tokens = try? await model.tokenCount(for: [.system(listing.joined(separator: "\n"))])
        else { return }
        state.withLock { $0.toolListingShare = Double(tokens) / Double(contextSize) }
    }

    /// Everything the session did so far. Setting it (Foundation Models 27) continues the
    /// conversation from the transcript set, as `init(model:tools:instructions:grounding:transcript:)`
    /// does: the next response reads what its complete responses said. Set while a response is
    /// under way, it takes effect when that response ends, and the response fails with
    /// `GenerationError.transcriptMutationWhileResponding` (its own entries are dropped).
    public var transcript: Transcript {
        get { state.withLock { $0.transcript } }
        set {
            state.withLock { state in
                if state.isResponding {
                    state.transcriptSetWhileResponding = newValue
                } else {
                    state.replaceTranscript(with: newValue)
                }
            }
        }
    }

    /// True while a `respond` or `streamResponse` is under way.
    public var isResponding: Bool { state.withLock { $0.isResponding } }

    /// The tokens every response of the session took so far, failed ones too (Foundation Models
    /// 27's `usage`): it only grows.
    public var usage: Usage { state.withLock { $0.usage } }

    /// What a failed response leaves in `transcript` (Foundation Models 27): `.revertTranscript`
    /// takes its entries out, `.preserveTranscript` keeps them up to the failure. `nil` (the
    /// default) preserves, as Trailhead always has. The model reads only complete responses either way.
    public var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy? {
        get { state.withLock { $0.transcriptErrorHandlingPolicy } }
        set { state.withLock { $0.transcriptErrorHandlingPolicy = newValue } }
    }

    /// Bounds, hooks and recording; change it before responding.
    public var configuration: Configuration {
        get { state.withLock { $0.configuration } }
        set { state.withLock { $0.configuration = newValue } }
    }

    /// Gets the model ready for this session: loads it (the managed local model starts its
    /// server) and evaluates the instructions, and `promptPrefix` when given, into its cache, so
    /// the first response pays only for what follows. Returns at once; a response waits for it.
    public func prewarm(promptPrefix: Prompt? = nil) {
        let configuration = configuration
        state.withLock { state in
            guard state.prewarm == nil else { return }
            state.prewarm = Task { [self] in
                // The listing counted first, as the first response counts it: the system message
                // warmed is the one it sends (tools listed, or the search tool alone).
                await measureToolListing(configuration)
                let prefix = [ChatMessage.system(systemMessage)] + (promptPrefix.map { [ChatMessage.user($0.text)] } ?? [])
                try? await model.prewarm(prefix: prefix)
            }
        }
    }

    /// The system message: the author's instructions, then the tools and how to call them
    /// (`ToolInstructions`). A tool whose arguments are all fixed is not listed: the model has
    /// nothing to decide about it (the agent calls it, and its results come with the prompt), and
    /// its description costs tokens. The same for every response, so a server's prompt cache
    /// keeps serving it.
    var systemMessage: String {
        var lines: [String] = []
        if let instructions, !instructions.text.isEmpty { lines.append(instructions.text) }
        let configuration = configuration
        let presentation = ToolInstructions(calls: configuration.limits.maximumCallsPerTurn > 1 ? .chained : .one)
        if let search = searchTool(configuration) {
            lines += presentation.lines(for: [search])
            lines.append(
                "\(listedTools.count) more tools are not listed here: call \(search.name) with what the request asks to find the ones it needs, then call them.")
        } else {
            lines += presentation.lines(listing: listing)
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Recording

    func record(_ entry: Transcript.Entry) {
        let configuration = state.withLock { state in
            state.transcript.entries.append(entry)
            return state.configuration
        }
        configuration.transcriptFile?.append(entry)
        configuration.recorder?.append(entry)
        configuration.onEvent?(.entry(entry))
    }

    func nextCallID() -> String {
        state.withLock { state in
            state.calls += 1
            return "call-\(state.calls)"
        }
    }

    // MARK: - One response

    /// What the answer is: free text, or JSON matching a schema.
    enum AnswerForm {
        case text
        case schema(GenerationSchema)
    }

    /// The content of a finished response and what it added and cost.
    struct Outcome {
        var content: GeneratedContent
        var entries: ArraySlice<Transcript.Entry>
        var usage: Usage
        var model: String
        var turns: Int
    }

    /// Runs one response: the loop, or a single plain turn when there is nothing to loop over.
    /// `observe` receives this response's events (a stream's text) besides `onEvent`. A capability
    /// the response needs and the model lacks fails it before anything is recorded or sent.
    func perform(
        _ prompt: Prompt, answer: AnswerForm, includeSchemaInPrompt: Bool, options: GenerationOptions,
        prefetch: [ToolCallRequest], observe: (@Sendable (SessionEvent) -> Void)? = nil
    ) async throws -> Outcome {
        try checkCapabilities(answer: answer, options: options)
        let (checkpoint, prewarm) = try state.withLock { state throws(GenerationError) in
            guard !state.isResponding else { throw .concurrentRequests }
            state.isResponding = true
            return (Checkpoint(transcriptCount: state.transcript.count, conversation: state.conversation, resumed: state.resumed), state.prewarm)
        }
        let outcome: Outcome
        do {
            await prewarm?.value
            outcome = try await runResponse(
                prompt, answer: answer, includeSchemaInPrompt: includeSchemaInPrompt, options: options, prefetch: prefetch, observe: observe,
                start: checkpoint.transcriptCount)
        } catch {
            if end(from: checkpoint, failed: true) { throw GenerationError.transcriptMutationWhileResponding }
            throw error
        }
        if end(from: checkpoint, failed: false) { throw GenerationError.transcriptMutationWhileResponding }
        return outcome
    }

    /// Ends a response begun at `checkpoint`, applying the transcript policy when it `failed`;
    /// true when the transcript was set meanwhile (it is in place now, and the response fails).
    private func end(from checkpoint: Checkpoint, failed: Bool) -> Bool {
        state.withLock { state in
            state.isResponding = false
            if let transcript = state.transcriptSetWhileResponding {
                state.transcriptSetWhileResponding = nil
                state.replaceTranscript(with: transcript)
                return true
            }
            if failed, state.transcriptErrorHandlingPolicy?.revertsTranscript == true {
                state.transcript.entries.removeSubrange(min(checkpoint.transcriptCount, state.transcript.count)...)
                state.conversation = checkpoint.conversation
                state.resumed = checkpoint.resumed
            }
            return false
        }
    }

    /// Throws `LanguageModelError.unsupportedCapability` when the response needs what the model
    /// does not declare: tool calling for a session with tools, guided generation for an answer
    /// under a schema (and for the step schema of a session with tools that may call none).
    private func checkCapabilities(answer: AnswerForm, options: GenerationOptions) throws {
        var needs: [(LanguageModelCapabilities.Capability, String)] = []
        if !toolNames.isEmpty {
            if case .disallowed = (options.toolCallingMode ?? .allowed).kind {
                needs.append((.guidedGeneration, "a session with tools (its step schema)"))
            } else {
                needs.append((.toolCalling, "a session with tools"))
            }
        }
        if case .schema = answer { needs.append((.guidedGeneration, "a response generating a schema")) }
        let capabilities = model.capabilities
        for (capability, need) in needs where !capabilities.contains(capability) {
            throw LanguageModelError.unsupportedCapability(capability, model: model.id, capabilities: capabilities, need: need)
        }
    }

    /// The response itself, from transcript entry `start` on.
    private func runResponse(
        _ prompt: Prompt, answer: AnswerForm, includeSchemaInPrompt: Bool, options: GenerationOptions,
        prefetch: [ToolCallRequest], observe: (@Sendable (SessionEvent) -> Void)?, start: Int
    ) async throws -> Outcome {

        let configuration = self.configuration
        await measureToolListing(configuration)
        resumeConversation(summarize: configuration.summarizeToolOutput)
        let events: @Sendable (SessionEvent) -> Void = { event in
            configuration.onEvent?(event)
            observe?(event)
        }
        let schema: GenerationSchema? = if case .schema(let schema) = answer { schema } else { nil }
        let machine = try makeMachine(
            answer: answer, schema: schema, prefetch: prefetch, options: options, configuration: configuration,
            examples: ExampleCopies(examples: instructions?.examples ?? [], request: prompt.text))

        if state.withLock({ $0.conversation.isEmpty }) {
            let system = systemMessage
            record(.instructions(.init(text: system, tools: toolNames, outputSchema: schema?.json, request: configuration.request)))
            state.withLock { $0.conversation = [HistoryEntry(message: .system(system), source: .instructions, response: 0)] }
        }
        record(.prompt(.init(text: prompt.text)))
        var message = prompt.text
        if includeSchemaInPrompt, let schema {
            message += toolNames.isEmpty ? "\nAnswer with JSON: " : "\nThe final ANSWER is JSON: "
            message += schema.promptDescription
        }

        let search = searchTool(configuration, answering: prompt.text)
        let runnable = search.map { tools.merging([($0.name, $0)], uniquingKeysWith: { a, _ in a }) } ?? tools
        var loop = AgentLoop(
            model: model, options: options, tools: SessionToolRunner(tools: runnable, approve: configuration.approve, around: configuration.aroundToolCall), record: { self.record($0) },
            trace: configuration.trace, observe: events, summarize: configuration.summarizeToolOutput,
            nextCallID: { self.nextCallID() }, maximumTextTokens: configuration.maximumTextTokens,
            stopsAfterToolCalls: configuration.stopsAfterToolCalls, historyTransform: configuration.historyTransform ?? .identity,
            response: state.withLock { ($0.conversation.last?.response ?? 0) + 1 }, searchTool: search?.name,
            toolDecision: configuration.toolDecision)
        let responseSpan = configuration.telemetry?.startResponse(model: model.id, tools: toolNames)
        if let telemetry = configuration.telemetry, let responseSpan { loop.telemetry = telemetry.under(responseSpan) }
        var stateMachine = machine
        var prefetch = prefetch
        if let search, configuration.toolSearch.searchesPrompt {
            prefetch.append(ToolCallRequest(tool: search.name, arguments: ["query": .string(prompt.text)]))
        }
        if !prefetch.isEmpty {
            events(.prefetching(tools: prefetch.map(\.tool)))
            let ids = prefetch.map { _ in nextCallID() }
            for (call, id) in zip(prefetch, ids) {
                record(.toolCall(.init(turn: 0, id: id, tool: call.tool, arguments: call.arguments, prefetched: true)))
            }
            let outcomes = await loop.runCalls(prefetch, ids: ids)
            stateMachine.prefetched(outcomes)
            message += "\n" + AgentLoop.feedback(outcomes, summarize: configuration.summarizeToolOutput)
        }

        let conversation = state.withLock { $0.conversation } + [HistoryEntry(message: .user(message), source: .prompt, response: loop.response)]
        let run: AgentLoop.Run
        if case .text = answer, toolNames.isEmpty {
            run = await loop.plainTurn(conversation)
        } else {
            run = await loop.run(conversation, machine: stateMachine)
        }
        responseSpan?.finish(run)
        state.withLock { $0.usage = $0.usage.adding(run.usage) }
        switch run.outcome {
        case .finished(let content, let turns):
            state.withLock { $0.conversation = conversation + run.messages }
            let entries = state.withLock { $0.transcript.entries[start...] }
            return Outcome(content: content, entries: entries, usage: run.usage, model: run.modelID ?? model.id, turns: turns)
        case .failed(let message):
            if let error = run.modelError as? LanguageModelError { throw error }
            if let error = run.modelError { throw GenerationError.modelFailed(error) }
            if let failure = run.groundingFailure { throw GenerationError.ungrounded(failure) }
            throw GenerationError.failed(message + Self.callsMade(state.withLock { $0.transcript.entries[start...] }))
        case .cancelled:
            throw CancellationError()
        }
    }

    /// The calls a failed response made, for its error: they ran (and stay in the transcript)
    /// even though the response has no answer.
    static func callsMade(_ entries: ArraySlice<Transcript.Entry>) -> String {
        var outputs: [String: Transcript.ToolOutput] = [:]
        for case .toolOutput(let output) in entries { outputs[output.id] = output }
        let calls = entries.compactMap { entry -> String? in
            guard case .toolCall(let call) = entry else { return nil }
            let outcome = outputs[call.id].map { $0.error.map { "failed: \($0)" } ?? "answered" } ?? "no output"
            return "\(call.tool) \(call.arguments.jsonString) (\(outcome))"
        }
        return calls.isEmpty ? "" : "; calls made before the failure: " + calls.joined(separator: "; ")
    }

    private func makeMachine(
        answer: AnswerForm, schema: GenerationSchema?, prefetch: [ToolCallRequest], options: GenerationOptions, configuration: Configuration,
        examples: ExampleCopies
    ) throws(GenerationError) -> AgentStateMachine {
        let mode = options.toolCallingMode ?? .allowed
        if case .named(let name) = mode.kind, tools[name] == nil {
            throw .setup(SessionSetupError("the tool-calling mode names \(name), which is not one of the session's tools (\(toolNames.joined(separator: ", ")))"))
        }
        if case .required = mode.kind, toolNames.isEmpty {
            throw .setup(SessionSetupError("the tool-calling mode requires a tool call, but the session has no tools"))
        }
        if !duplicateToolNames.isEmpty {
            throw .setup(SessionSetupError("more than one tool is named \(duplicateToolNames.joined(separator: ", ")): tool names must be unique in a session"))
        }
        let search = searchTool(configuration)
        if let search, tools[search.name] != nil {
            throw .setup(SessionSetupError("a tool is named \(search.name), the name of tool search: rename it, or set configuration.toolSearch = .never"))
        }
        for call in prefetch where tools[call.tool] == nil {
            throw .setup(SessionSetupError("prefetched call of \(call.tool), which is not one of the session's tools (\(toolNames.joined(separator: ", ")))"))
        }
        let guardrail: GroundingGuard
        do { guardrail = try grounding.makeGuard(tools: tools, answer: schema) } catch { throw .setup(error) }
        return AgentStateMachine(
            tools: (search.map { [$0] } ?? []).map { AgentStateMachine.ToolSchema(name: $0.name, arguments: $0.parameters) }
                + toolNames.map { AgentStateMachine.ToolSchema(name: $0, arguments: tools[$0]!.parameters, isReadOnly: tools[$0]!.isReadOnly) },
            outputSchema: schema?.json ?? String.generationSchema.json, grounding: guardrail, limits: configuration.limits,
            mode: mode, extraFinalCheck: configuration.checkAnswer, exampleCopies: examples, searchTool: search?.name)
    }
}
