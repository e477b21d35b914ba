import Foundation
import Synchronization
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadTools
import TripPlanner

/// Runs one response of a served agent: the session rebuilt from the store's transcript (or a
/// new one), every entry written to the store as it happens, the answer streamed as it is
/// generated, and the store flushed before the answer is handed back — so what a client was
/// told is in the store, and any replica can continue from it.
struct AgentRunner: Sendable {
    let agents: [String: AgentSpec]
    let registry: ToolRegistry
    let store: any SessionStore
    let models: ModelSource
    /// How long a response waits for an unavailable store before it fails.
    let storeTimeout: Double

    /// What happened, as it happens (for a streamed response).
    enum Progress: Sendable {
        /// The answer so far (a growing string, or a partial JSON value).
        case partial(GeneratedContent)
        case toolCall(id: String, tool: String, arguments: GeneratedContent)
        case toolOutput(id: String, tool: String, result: GeneratedContent?, error: String?)
        /// The typed request the trip planner read from the prompt (words, a name, or JSON).
        case tripRequest(GeneratedContent)
    }

    struct Answer: Sendable {
        var session: String
        var content: GeneratedContent
        /// The answer as text: the string itself, or compact JSON.
        var text: String
        var turns: Int
        var usage: Usage
        var model: String
        /// Entries the session's transcript holds after this response.
        var entries: Int
        /// Writes to the store that found it unavailable and were tried again.
        var storeRetries: Int
        /// The calls of the client's functions the response ended with (the client runs them).
        var calls: [ClientCall] = []
        /// Why the answer ended, in OpenAI's words: "stop", "length" (the request's token limit cut
        /// it: its text so far, or none when it was cut inside a call) or "tool_calls".
        var finishReason = "stop"
        /// The trip planner's typed request, as it read it from the prompt.
        var tripRequest: GeneratedContent?
    }

    /// What a request adds to the run: the client's functions, and for a plain model (a request
    /// whose `model` names no agent) its instructions and answer schema.
    struct ClientSide: Sendable {
        var tools = ClientTools.none
        var instructions: String?
        var answer: GenerationSchema?
        /// The server's plugins (or single tools) a plain model may call (the playground's).
        var plugins: [String] = []
    }

    /// The names a request's `model` may give besides the agents': the server's model runs as a
    /// plain model with the request's tools (`local` is the embedded default's name).
    var modelNames: [String] { models.description == "local" ? ["local"] : ["local", models.description] }

    /// The agent `name` names, or a plain model when it names the server's model.
    func spec(_ name: String, client: ClientSide) throws(Failure) -> AgentSpec {
        if var agent = agents[name] {
            if !client.plugins.isEmpty {
                throw .badRequest("agent '\(name)' has its own tools: a request's plugins go to a plain model (\(modelNames.joined(separator: ", ")))")
            }
            if !client.tools.isEmpty {
                guard agent.kind == .generic, agent.tools.isEmpty else {
                    throw .badRequest("agent '\(name)' runs its own tools: a request's tools go to a plain model (\(modelNames.joined(separator: ", "))) or an agent without tools")
                }
            }
            if agent.answer == nil, let answer = client.answer { agent.answer = answer }
            return agent
        }
        guard modelNames.contains(name) else { throw .unknownAgent(name, known: agents.keys.sorted() + modelNames) }
        return AgentSpec(
            name: name, kind: .generic, instructions: client.instructions ?? "", tools: client.plugins, answer: client.answer, grounding: .none,
            maximumTurns: 10, maximumToolTurns: nil, includeSchemaInPrompt: true, options: .init())
    }

    enum Failure: Error, CustomStringConvertible {
        case unknownAgent(String, known: [String])
        case badRequest(String)
        /// A request field that cannot be used (400, the field in `param`).
        case invalid(InvalidRequest)
        case store(SessionStoreError)
        /// The model's own failure, which a client can act on (a rate limit, a conversation too
        /// long): answered with the status OpenAI gives it.
        case model(LanguageModelError)
        case agent(String)

        var description: String {
            switch self {
            case .unknownAgent(let name, let known): "no agent named '\(name)' (served: \(known.joined(separator: ", ")))"
            case .badRequest(let message): message
            case .invalid(let invalid): invalid.description
            case .store(let error): "session store: \(error.message)"
            case .model(let error): "\(error)"
            case .agent(let message): message
            }
        }
    }

    /// A new session id: 32 hex digits.
    static func newSessionID() -> String { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    /// Runs `prompt` in `session` (created for `agent` when `stored` is nil, holding `history`
    /// first: earlier turns a stateless client sent along).
    func respond(
        agent name: String, session: String, stored existing: StoredSession?, history: [Transcript.Entry] = [], prompt: String,
        options: GenerationOptions, client: ClientSide = ClientSide(), checkpoints: RunCheckpoints? = nil,
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws(Failure) -> Answer {
        let agent = try spec(name, client: client)
        if let existing, existing.agent != name {
            throw .badRequest("session \(session) belongs to agent '\(existing.agent)', not '\(name)'")
        }
        var stored = existing
        if existing == nil {
            do {
                try store.create(session, agent: name)
                if !history.isEmpty {
                    try store.append(history, to: session, at: 0)
                    stored = StoredSession(agent: name, transcript: Transcript(entries: history))
                }
            } catch { throw .store(error) }
        }
        let transcript = stored?.transcript ?? Transcript()
        let recorder = SessionRecorder(store: store, session: session, from: transcript.count)
        let tools: [PluginTool]
        do { tools = try registry.sessionTools(plugins: agent.tools) } catch {
            throw client.plugins.isEmpty ? .agent(error.message) : .badRequest("plugins: \(error.message)")
        }
        // A background run replays its recorded model turns: a scripted model resumes after them.
        let base = models.model(continuing: checkpoints.map { Self.transcript(transcript, plusTurns: $0.recordedModelTurns) } ?? transcript)
        let model: any LanguageModel = checkpoints.map { CheckpointedModel(base: base, checkpoints: $0) } ?? base
        let hooks = SessionHooks(recorder: recorder, checkpoints: checkpoints, agent: name, session: session)
        var generation = options
        if generation.temperature == nil { generation.temperature = agent.options.temperature }
        if generation.seed == nil { generation.seed = agent.options.seed }

        // What the model turns spent, for a response cut before it completes.
        let spent = Mutex(Usage())
        let onEvent: @Sendable (SessionEvent) -> Void = { event in
            guard case .entry(let entry) = event else { return }
            switch entry {
            case .modelTurn(let turn):
                spent.withLock { usage in
                    usage.inputTokens += turn.tokensIn ?? 0
                    usage.cachedInputTokens += turn.cachedTokensIn ?? 0
                    usage.outputTokens += turn.tokensOut ?? 0
                }
            case .toolCall(let call): progress(.toolCall(id: call.id, tool: call.tool, arguments: call.arguments))
            case .toolOutput(let output): progress(.toolOutput(id: output.id, tool: output.tool, result: output.result, error: output.error))
            default: break
            }
        }
        let outcome: Outcome
        do {
            switch agent.kind {
            case .tripPlanner:
                outcome = try await planTrip(agent, prompt: prompt, model: model, tools: tools, transcript: stored?.transcript,
                                             hooks: hooks, onEvent: onEvent, options: generation, progress: progress)
            case .generic:
                outcome = try await answer(agent, prompt: prompt, model: model, tools: tools, client: client.tools, transcript: stored?.transcript,
                                           hooks: hooks, onEvent: onEvent, options: generation, progress: progress)
            }
        } catch let failure as Failure {
            try? await recorder.flush(timeout: storeTimeout)
            throw failure
        } catch LanguageModelSession.GenerationError.modelFailed(let cause) where Self.isCutByTokenLimit(cause) && generation.maxTokens != nil {
            // The client's max_tokens ended the answer inside a step's JSON: no calls and no text,
            // as OpenAI answers a cut (finish_reason "length"), not a server error.
            do { try await recorder.flush(timeout: storeTimeout) } catch { throw .store(error) }
            var usage = spent.withLock { $0 }
            usage.outputTokens += generation.maxTokens ?? 0
            var answer = Answer(session: session, content: "", text: "", turns: 0, usage: usage, model: model.id, entries: recorder.written,
                                storeRetries: recorder.retries)
            answer.finishReason = "length"
            return answer
        } catch {
            // The transcript keeps the failure; it must reach the store too.
            try? await recorder.flush(timeout: storeTimeout)
            if let error = error as? LanguageModelError { throw .model(error) }
            throw .agent("\(error)")
        }
        do { try await recorder.flush(timeout: storeTimeout) } catch { throw .store(error) }
        let text = outcome.content.stringValue ?? outcome.content.jsonString
        var answer = Answer(session: session, content: outcome.content, text: text, turns: outcome.turns, usage: outcome.usage,
                            model: outcome.model, entries: recorder.written, storeRetries: recorder.retries)
        answer.tripRequest = outcome.tripRequest
        if !client.tools.isEmpty {
            // A response that stops after calls (the client's functions) ends with them.
            answer.calls = outcome.entries.compactMap { entry -> ClientCall? in
                guard case .toolCall(let call) = entry, client.tools.names.contains(call.tool) else { return nil }
                return ClientCall(id: ClientCall.id(session: session, transcriptID: call.id), name: call.tool, arguments: call.arguments)
            }
            if !answer.calls.isEmpty { answer.text = "" }
        }
        if !answer.calls.isEmpty {
            answer.finishReason = "tool_calls"
        } else if let last = outcome.entries.last(where: { if case .modelTurn = $0 { true } else { false } }),
                  case .modelTurn(let turn) = last, turn.finishReason == "length" {
            answer.finishReason = "length"
        }
        return answer
    }

    private static func isCutByTokenLimit(_ error: any Error) -> Bool {
        if case .outputTokenLimit? = error as? ModelError { return true }
        return false
    }

    /// What a session of a response is given besides its model and tools.
    struct SessionHooks {
        var recorder: SessionRecorder
        /// A background run's checkpoints: its calls go through them, and approvals are theirs.
        var checkpoints: RunCheckpoints?
        /// What the response's `invoke_agent` span names (`gen_ai.agent.name`, `gen_ai.conversation.id`).
        var agent: String
        var session: String
    }

    private func configure(_ session: LanguageModelSession, hooks: SessionHooks, onEvent: @escaping @Sendable (SessionEvent) -> Void) {
        var configuration = session.configuration
        configuration.recorder = hooks.recorder
        configuration.onEvent = onEvent
        configuration.telemetry?.attributes["gen_ai.agent.name"] = .string(hooks.agent)
        configuration.telemetry?.attributes["gen_ai.conversation.id"] = .string(hooks.session)
        if let checkpoints = hooks.checkpoints {
            configuration.telemetry?.attributes["trailhead.run.id"] = .string(checkpoints.claim.run.id)
            configuration.telemetry?.attributes["trailhead.run.lease"] = .int(checkpoints.claim.token)
            configuration.aroundToolCall = checkpoints.aroundToolCall
            configuration.approve = { _ in true }  // the hook ran only calls a person approved
        }
        session.configuration = configuration
    }

    /// `transcript` followed by `turns` placeholder model turns (what a scripted model skips).
    static func transcript(_ transcript: Transcript, plusTurns turns: Int) -> Transcript {
        let placeholder = Transcript.Entry.modelTurn(.init(turn: 0, text: "", parsed: nil, model: "replayed", tokensIn: nil, tokensOut: nil, latencyMs: 0))
        return Transcript(entries: transcript.entries + Array(repeating: placeholder, count: turns))
    }

    /// What a run ended with, and the transcript entries it added.
    typealias Outcome = (
        content: GeneratedContent, turns: Int, usage: Usage, model: String, entries: ArraySlice<Transcript.Entry>, tripRequest: GeneratedContent?
    )

    private func answer(
        _ agent: AgentSpec, prompt: String, model: any LanguageModel, tools: [PluginTool], client: ClientTools, transcript: Transcript?,
        hooks: SessionHooks, onEvent: @escaping @Sendable (SessionEvent) -> Void, options: GenerationOptions,
        progress: @escaping @Sendable (Progress) -> Void
    ) async throws -> Outcome {
        let instructions = Instructions(agent.instructions)
        let offered: [any Tool] = tools.map { $0 as any Tool } + client.tools.map { $0 as any Tool }
        let session = transcript.map {
            LanguageModelSession(model: model, tools: offered, instructions: instructions, grounding: agent.grounding, transcript: $0)
        } ?? LanguageModelSession(model: model, tools: offered, instructions: instructions, grounding: agent.grounding)
        configure(session, hooks: hooks, onEvent: onEvent)
        var configuration = session.configuration
        configuration.limits = .init(maximumTurns: agent.maximumTurns, maximumToolTurns: agent.maximumToolTurns)
        if !client.isEmpty {
            // The client runs its functions: the response ends at the first turn that calls them.
            configuration.stopsAfterToolCalls = true
            configuration.toolSearch = .never
            configuration.limits.maximumCallsPerTurn = client.parallelCalls ? 8 : 1
        }
        session.configuration = configuration
        if let schema = agent.answer {
            let stream = session.streamResponse(
                to: Prompt(prompt), generating: GeneratedContent.self, schema: schema, includeSchemaInPrompt: agent.includeSchemaInPrompt, options: options)
            for try await snapshot in stream { progress(.partial(snapshot.rawContent)) }
            let response = try await stream.collect()
            return (response.rawContent, response.turns, response.usage, response.model, response.transcriptEntries, nil)
        }
        let stream = session.streamResponse(to: Prompt(prompt), options: options)
        for try await snapshot in stream { progress(.partial(.string(snapshot.content))) }
        let response = try await stream.collect()
        return (response.rawContent, response.turns, response.usage, response.model, response.transcriptEntries, nil)
    }

    private func planTrip(
        _ agent: AgentSpec, prompt: String, model: any LanguageModel, tools: [PluginTool], transcript: Transcript?, hooks: SessionHooks,
        onEvent: @escaping @Sendable (SessionEvent) -> Void, options: GenerationOptions, progress: @escaping @Sendable (Progress) -> Void
    ) async throws -> Outcome {
        let request: TripRequest, chosen: [String]?
        let fromWords = Self.isWords(prompt)
        switch try await readTripRequest(prompt, earlier: transcript, model: model, options: options) {
        case .success(let read): (request, chosen) = read
        case .failure(let question):
            // Words that name no place (or ask for what cannot be planned): a question back.
            return (.string(question.text), 1, Usage(), model.id, [], nil)
        }
        progress(.tripRequest(request.content))
        let tools = try chosen.map { names in try registry.sessionTools(plugins: names) } ?? tools
        let planner = TripPlanner(request: request, includeSchemaInPrompt: agent.includeSchemaInPrompt, maximumTurns: agent.maximumTurns)
        let session = planner.makeSession(model: model, tools: tools, transcript: transcript)
        configure(session, hooks: hooks, onEvent: onEvent)
        let stream = planner.plan(with: session, options: options)
        var facts: ToolFacts?
        let response: LanguageModelSession.Response<TripPlanner.Draft>
        do {
            for try await snapshot in stream {
                if facts == nil { facts = ToolFacts(transcript: session.transcript.entries) }
                progress(.partial(planner.itinerary(from: Partial<TripPlanner.Draft>(snapshot.rawContent), facts: facts!).content))
            }
            response = try await stream.collect()
        } catch LanguageModelSession.GenerationError.ungrounded(let failure) {
            // The request itself cannot be planned (too few free days): `agent plan`'s message, asked
            // back to a person who wrote words, a bad request for JSON.
            guard let problem = planner.requestProblem(failure) else { throw LanguageModelSession.GenerationError.ungrounded(failure) }
            guard fromWords else { throw Failure.badRequest(problem) }
            return (.string(TripWords.Question.cannotPlan(problem).text), 1, Usage(), model.id, [], request.content)
        }
        let known = ToolFacts(transcript: session.transcript.entries)
        return (planner.itinerary(from: response.content, facts: known).content, response.turns, response.usage, response.model, response.transcriptEntries,
                request.content)
    }

    /// The trip request a prompt asks for, and the plugins it chose (nil: all the agent's): a JSON
    /// request or a landmark's name as `tripRequest` reads them, or else a person's words, read by
    /// the model under `TripWords`' schema, the place resolved in the points-of-interest index and
    /// the values checked as `agent plan` checks them — or the question to ask back.
    ///
    /// Words that answer the planner's question (`earlier` ends with one) are read together with
    /// the words it asked about: "a relaxed weekend with my sister" then "Kyoto" is two days in Kyoto.
    func readTripRequest(_ prompt: String, earlier: Transcript? = nil, model: any LanguageModel, options: GenerationOptions) async throws
        -> Result<(TripRequest, [String]?), TripWords.Question>
    {
        var trimmed = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") || trimmed.isEmpty {
            return .success((try Self.tripRequest(trimmed), try Self.chosenTools(trimmed)))
        }
        let asked = earlier.map(Self.wordsAskedAbout) ?? []
        if asked.isEmpty {
            // A place's name alone, as before (whatever the index resolves it to).
            guard case .failure = describe(trimmed) else { return .success((TripRequest(landmark: trimmed), nil)) }
        } else {
            trimmed = (asked + [trimmed]).joined(separator: "\n")
        }
        let session = LanguageModelSession(model: model, instructions: Instructions(TripWords.instructions()))
        var reading = options
        reading.toolCallingMode = nil
        var words = try await session.respond(to: Prompt(trimmed), generating: TripWords.self, options: reading).content
        // Companions are people the sentence names: an empty name (which the contacts tool matches
        // with everyone) or one it does not contain ("Your Name") was invented.
        let sentence = LandmarkGallery.folded(trimmed)
        words.companions = words.companions?.filter { name in
            !name.trimmingCharacters(in: .whitespaces).isEmpty && sentence.contains(LandmarkGallery.folded(name))
        }
        // Dates, likewise, come from words about time (`TripWords.mentionsTime`).
        if !TripWords.mentionsTime(trimmed) { (words.from, words.to) = (nil, nil) }
        guard let place = words.landmark?.trimmingCharacters(in: .whitespacesAndNewlines), !place.isEmpty else {
            return .failure(TripWords.Question(text: TripWords.placeQuestion))
        }
        switch describe(place) {
        case .success(let found):
            return words.request(landmark: found["name"]?.stringValue ?? place).map { ($0, nil) }
        case .failure(let message) where registry.tool(named: "describeLandmark") != nil:
            // A small model may write the place wrongly (or in another language) although the
            // sentence names a curated landmark as it is spelt: that one, then.
            if let named = LandmarkGallery.named(in: trimmed) { return words.request(landmark: named).map { ($0, nil) } }
            // A place the sentence does not contain was invented (", companions"): none was named.
            guard LandmarkGallery.folded(trimmed).contains(LandmarkGallery.folded(place)) else {
                return .failure(TripWords.Question(text: TripWords.placeQuestion))
            }
            let text = message.description.hasSuffix("?") ? message.description : message.description + ". Which place did you mean?"
            return .failure(TripWords.Question(text: "I couldn't find that place: " + text))
        case .failure:
            return words.request().map { ($0, nil) }
        }
    }

    /// The prompts of the exchanges the planner answered with a question, since its last plan.
    static func wordsAskedAbout(_ transcript: Transcript) -> [String] {
        var prompts: [String] = [], open: String?
        for entry in transcript.entries {
            switch entry {
            case .prompt(let prompt): open = prompt.text.trimmingCharacters(in: .whitespacesAndNewlines)
            case .response(let response) where response.content.stringValue != nil:
                if let open, !open.isEmpty, isWords(open) { prompts.append(open) }
                open = nil
            case .response: prompts = []; open = nil
            default: break
            }
        }
        return prompts
    }

    /// Whether a prompt is a person's words rather than JSON (a place's name alone counts as words:
    /// a window too short is asked about, not refused).
    static func isWords(_ prompt: String) -> Bool { !prompt.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{") }

    /// What the points-of-interest index says of `name` (its error's words when it knows no such place).
    private func describe(_ name: String) -> Result<GeneratedContent, DescribeFailure> {
        guard registry.tool(named: "describeLandmark") != nil else { return .failure(DescribeFailure(message: "no points-of-interest index")) }
        switch registry.result(of: "describeLandmark", arguments: ["landmark": .string(name)]) {
        case .success(let place): return .success(place)
        case .failure(.failed(_, let message)): return .failure(DescribeFailure(message: message))
        case .failure(let error): return .failure(DescribeFailure(message: "\(error)"))
        }
    }

    private struct DescribeFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// `"tools": ["poi", "calendar"]` in a JSON trip request: the agent's plugins it keeps (the
    /// points of interest always).
    static func chosenTools(_ prompt: String) throws(Failure) -> [String]? {
        guard let content = try? GeneratedContent(json: prompt), let list = content["tools"]?.arrayValue else { return nil }
        let names = list.compactMap(\.stringValue)
        if let unknown = names.first(where: { !TripPlanner.plugins.contains($0) }) {
            throw .badRequest("tools: '\(unknown)' is not one of the trip planner's (\(TripPlanner.plugins.joined(separator: ", ")))")
        }
        return Array(Set(names + ["poi"])).sorted()
    }

    /// A trip request from a prompt: a JSON object (`{"landmark": …, "days": 3, "from": …,
    /// "to": …, "companions": [...]}`), or a landmark's name alone; refused as `agent plan` refuses it
    /// (`TripRequest.problem`).
    static func tripRequest(_ prompt: String) throws(Failure) -> TripRequest {
        let trimmed = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("{") else {
            guard !trimmed.isEmpty else { throw .badRequest("the trip planner needs a landmark (or a JSON trip request)") }
            return TripRequest(landmark: trimmed)
        }
        guard let content = try? GeneratedContent(json: trimmed), let landmark = content["landmark"]?.stringValue, !landmark.isEmpty else {
            throw .badRequest("a JSON trip request needs at least {\"landmark\": NAME}")
        }
        let request = TripRequest(
            landmark: landmark, days: content["days"]?.intValue ?? 3, from: content["from"]?.stringValue, to: content["to"]?.stringValue,
            companions: content["companions"]?.arrayValue?.compactMap(\.stringValue).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? [])
        if let problem = request.problem { throw .badRequest(problem) }
        return request
    }
}
