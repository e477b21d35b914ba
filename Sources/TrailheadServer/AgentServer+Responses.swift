import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadSupport

extension AgentServer {
    /// `POST /v1/responses`: `input` (text, or items: messages, `function_call`,
    /// `function_call_output`) to the agent or model `model`; with `previous_response_id`, the
    /// conversation that response ended goes on — read from the store, so on any replica. A
    /// response id names its session and how many entries the session held when it was given
    /// (`resp_<session>_<entries>`): continuing an older response than the session's last, or a
    /// response that ended with calls of the client's functions (their outputs now come in),
    /// starts a new session from that point (a branch); entries after it that no response
    /// completed (a replica died mid-answer) are skipped.
    func response(_ request: HTTPServer.Request) -> HTTPServer.Outcome {
        var decoded: DecodedResponsesRequest
        do throws(InvalidRequest) { decoded = try Self.decodeResponses(request.body) } catch { return .respond(APIError.response(for: error)) }
        if let previous = decoded.body.previousResponseID, previous.hasPrefix("resp_bg") {
            // A completed background response continues as the conversation's own response.
            switch continuation(ofBackground: previous) {
            case .failure(let invalid): return .respond(APIError.response(for: invalid))
            case .success(let id):
                decoded.body.previousResponseID = id
                if case .object(var fields) = decoded.json {
                    fields["previous_response_id"] = .string(id)
                    decoded.json = .object(fields)
                }
            }
        }
        if decoded.body.background == true { return enqueueBackground(decoded) }
        let (body, tools) = (decoded.body, decoded.tools)
        let agent = body.model
        let previous = body.previousResponseID
        let runner = runner
        let store = configuration.store
        let settled = decoded
        let planned = Self.wait { Self.plan(settled, runner: runner, store: store, newSession: AgentRunner.newSessionID()) }
        let plan: ResponsePlan
        switch planned {
        case .failure(let failure): return .respond(APIError.response(for: failure))
        case .success(let made): plan = made
        }
        let (session, stored, client, history, prompt, options) = (plan.session, plan.stored, plan.client, plan.history, plan.prompt, plan.options)
        let run: @Sendable (@escaping @Sendable (AgentRunner.Progress) -> Void) async -> Result<AgentRunner.Answer, AgentRunner.Failure> = { [self, options] progress in
            do {
                let respond = { () async throws(AgentRunner.Failure) -> AgentRunner.Answer in
                    try await runner.respond(agent: agent, session: session, stored: stored, history: history, prompt: prompt, options: options, client: client, progress: progress)
                }
                guard let answer = try await exclusive(session, respond) else {
                    throw AgentRunner.Failure.store(SessionStoreError(.conflict, "a response of this conversation is under way"))
                }
                return .success(answer)
            } catch let failure as AgentRunner.Failure {
                return .failure(failure)
            } catch {
                return .failure(.agent("\(error)"))
            }
        }
        let created = Date().timeIntervalSince1970.rounded()

        guard body.stream == true else {
            switch Self.wait({ await run { _ in } }) {
            case .failure(let failure): return .respond(APIError.response(for: failure))
            case .success(let answer):
                let object = Self.responseObject(answer, agent: agent, previous: previous, created: created, output: Self.outputItems(answer))
                return .respond(.json(200, object.jsonString, headers: ["X-Trailhead-Session": answer.session]))
            }
        }
        return .stream(headers: ["X-Trailhead-Session": session]) { stream in
            let events = ResponseEvents(stream: stream, clientTools: tools.names, session: session)
            let pendingID = "resp_\(session)_pending"
            events.send("response.created", ["response": Self.responseObject(nil, agent: agent, previous: previous, created: created, output: [], id: pendingID)])
            let task = Task {
                let result = await run { progress in events.progress(progress) }
                switch result {
                case .failure(let failure):
                    let error = APIError.response(for: failure)
                    events.send("error", ["code": .string("\(error.status)"), "message": .string(failure.description), "param": .null])
                case .success(let answer):
                    let output = events.finish(answer)
                    events.send("response.completed", ["response": Self.responseObject(answer, agent: agent, previous: previous, created: created, output: output)])
                }
                stream.close()
            }
            Task {
                while stream.isOpen { try? await Task.sleep(nanoseconds: 200_000_000) }
                task.cancel()
            }
        }
    }

    /// A `POST /v1/responses` body, decoded and checked (its answer schema and the client's tools).
    struct DecodedResponsesRequest: Sendable {
        var body: ResponsesRequest
        var tools: ClientTools
        var answer: GenerationSchema?
        /// The request as sent (what a background run stores).
        var json: GeneratedContent
    }

    static func decodeResponses(_ bytes: [UInt8]) throws(InvalidRequest) -> DecodedResponsesRequest {
        try decodeResponses(InvalidRequest.parse(Data(bytes)))
    }

    static func decodeResponses(_ json: GeneratedContent) throws(InvalidRequest) -> DecodedResponsesRequest {
        let body = try InvalidRequest.decode(ResponsesRequest.self, from: json)
        let answer = try body.answerSchema()
        let tools = try ClientTools(body.functions(), parallelCalls: body.parallelToolCalls, param: "tools", nameParam: "name", parametersParam: "parameters")
        try Self.check(body.toolChoice, offered: tools)
        return DecodedResponsesRequest(body: body, tools: tools, answer: answer, json: json)
    }

    /// Where a response's conversation stands, and what its run is given.
    struct ResponsePlan: Sendable {
        var session: String
        /// The stored session it continues in place (nil: a new session, `history` first).
        var stored: StoredSession?
        var client: AgentRunner.ClientSide
        var history: [Transcript.Entry]
        var prompt: String
        var options: GenerationOptions
    }

    /// Reads the store (blocking): a new session (named `newSession`), the stored one continued,
    /// or a branch.
    static func plan(
        _ decoded: DecodedResponsesRequest, runner: AgentRunner, store: any SessionStore, newSession: String
    ) -> Result<ResponsePlan, AgentRunner.Failure> {
        let (body, tools, answer) = (decoded.body, decoded.tools, decoded.answer)
        let previous = body.previousResponseID
        var options = GenerationOptions(temperature: body.temperature, topP: body.topP, seed: body.seed)
        options.maxTokens = body.maxOutputTokens
        options.toolCallingMode = body.toolChoice.map(Self.mode)
        let spec = runner.agents[body.model]
        let answersInSteps = !tools.isEmpty || spec?.tools.isEmpty == false
        let answerIsJSON = spec?.answer != nil || answer != nil
        do {
            var earlier: [Transcript.Entry] = []
            var pending: [(id: String, entryID: String, call: ToolCallRequest)] = []
            var continued: (id: String, loaded: StoredSession)?
            if let previous {
                guard let (id, count) = Self.parse(responseID: previous) else {
                    throw InvalidRequest("'\(previous.prefix(80))' is not a response of this server", param: "previous_response_id")
                }
                let loaded: StoredSession?
                do throws(SessionStoreError) { loaded = try store.load(id) } catch { throw AgentRunner.Failure.store(error) }
                guard let loaded, count <= loaded.transcript.count else {
                    throw InvalidRequest("no response \(previous) in the store \(store.description)", param: "previous_response_id")
                }
                let entries = Array(loaded.transcript.entries[..<count])
                pending = Self.pendingCalls(in: entries, session: id)
                earlier = entries.filter { entry in
                    if case .toolOutput(let output) = entry, output.result == ClientTool.pending { return false }
                    return true
                }
                let later = loaded.transcript.entries[count...]
                if pending.isEmpty, !later.contains(where: { if case .response = $0 { true } else { false } }) { continued = (id, loaded) }
            }
            let conversation = try ClientConversation(
                try Self.turns(of: body.input, instructions: body.instructions), answersInSteps: answersInSteps, answerIsJSON: answerIsJSON,
                list: "input", earlier: earlier, pending: pending)
            let client = AgentRunner.ClientSide(tools: tools, instructions: conversation.instructions, answer: answer)
            if let continued, conversation.history == earlier {
                // The stored session goes on in place.
                return .success(ResponsePlan(session: continued.id, stored: continued.loaded, client: client, history: [], prompt: conversation.prompt, options: options))
            }
            return .success(ResponsePlan(session: newSession, stored: nil, client: client, history: conversation.history, prompt: conversation.prompt, options: options))
        } catch let invalid as InvalidRequest {
            return .failure(.invalid(invalid))
        } catch let failure as AgentRunner.Failure {
            return .failure(failure)
        } catch {
            return .failure(.agent("\(error)"))
        }
    }

    /// The calls of the client's functions a stored conversation ended with (their outputs
    /// recorded as pending), by the id the client was given.
    static func pendingCalls(in entries: [Transcript.Entry], session: String) -> [(id: String, entryID: String, call: ToolCallRequest)] {
        let waiting = Set(entries.compactMap { entry -> String? in
            guard case .toolOutput(let output) = entry, output.result == ClientTool.pending else { return nil }
            return output.id
        })
        return entries.compactMap { entry in
            guard case .toolCall(let call) = entry, waiting.contains(call.id) else { return nil }
            return (ClientCall.id(session: session, transcriptID: call.id), call.id, ToolCallRequest(tool: call.tool, arguments: call.arguments))
        }
    }

    /// The Responses `input` as turns of a conversation (`instructions` first, as a system message).
    static func turns(of input: ResponsesRequest.Input, instructions: String?) throws(InvalidRequest) -> [(turn: ClientConversation.Turn, param: String)] {
        var turns: [(turn: ClientConversation.Turn, param: String)] = instructions.map { [(.system($0), "instructions")] } ?? []
        switch input {
        case .text(let text):
            turns.append((.user(text), "input"))
        case .items(let items):
            for (index, item) in items.enumerated() {
                let param = "input[\(index)]"
                switch item.kind {
                case .message(let role, let text):
                    turns.append((role == "user" ? .user(text) : role == "assistant" ? .assistant(text) : .system(text), param))
                case .functionCall(let callID, let name, let arguments):
                    guard let parsed = try? GeneratedContent(json: arguments), parsed.objectValue != nil else {
                        throw InvalidRequest("the arguments are not a JSON object", param: param + ".arguments")
                    }
                    let call = (id: callID, call: ToolCallRequest(tool: name, arguments: parsed))
                    // Calls one after another are one turn's.
                    if case .calls(let earlier)? = turns.last?.turn {
                        turns[turns.count - 1].turn = .calls(earlier + [call])
                    } else {
                        turns.append((.calls([call]), param))
                    }
                case .functionCallOutput(let callID, let output):
                    turns.append((.output(callID: callID, text: output), param))
                }
            }
        }
        return turns
    }

    /// A response's output items: the calls of the client's functions, or the answer's message.
    static func outputItems(_ answer: AgentRunner.Answer) -> [GeneratedContent] {
        if !answer.calls.isEmpty { return answer.calls.map { functionCallItem($0, status: "completed") } }
        return [messageItem(id: "msg_\(answer.session)_\(answer.entries)", text: answer.text, status: answer.finishReason == "length" ? "incomplete" : "completed")]
    }

    static func functionCallItem(_ call: ClientCall, status: String, arguments: String? = nil) -> GeneratedContent {
        ["type": "function_call", "id": .string("fc_" + call.id.dropFirst(5)), "call_id": .string(call.id), "name": .string(call.name),
         "arguments": .string(arguments ?? call.argumentsText), "status": .string(status)]
    }

    static func messageItem(id: String, text: String?, status: String) -> GeneratedContent {
        ["type": "message", "id": .string(id), "status": .string(status), "role": "assistant",
         "content": text.map { [["type": "output_text", "text": .string($0), "annotations": [], "logprobs": []]] } ?? []]
    }

    /// The response object (`answer` nil: one under way).
    static func responseObject(
        _ answer: AgentRunner.Answer?, agent: String, previous: String?, created: Double, output: [GeneratedContent], id: String? = nil
    ) -> GeneratedContent {
        let usage = answer?.usage ?? Usage()
        var object: JSONObject = [
            "id": .string(id ?? answer.map { "resp_\($0.session)_\($0.entries)" } ?? ""), "object": "response", "created_at": .number(created),
            "status": .string(answer == nil ? "in_progress" : answer?.finishReason == "length" ? "incomplete" : "completed"), "model": .string(agent), "previous_response_id": previous.map { .string($0) } ?? .null,
            "output": .array(output),
            "usage": [
                "input_tokens": .number(Double(usage.inputTokens)), "output_tokens": .number(Double(usage.outputTokens)),
                "total_tokens": .number(Double(usage.inputTokens + usage.outputTokens)),
                "input_tokens_details": ["cached_tokens": .number(Double(usage.cachedInputTokens))],
                "output_tokens_details": ["reasoning_tokens": 0],
            ],
            "parallel_tool_calls": true, "tool_choice": "auto", "tools": [], "error": .null, "incomplete_details": .null,
            "instructions": .null, "metadata": [:], "text": ["format": ["type": "text"]],
        ]
        if let answer { object["trailhead"] = Self.trailhead(answer) }
        if answer?.finishReason == "length" { object["incomplete_details"] = ["reason": "max_output_tokens"] }
        return .object(object)
    }

    /// `resp_<session>_<entries>` → (session, entries).
    static func parse(responseID: String) -> (String, Int)? {
        guard responseID.hasPrefix("resp_"), let underscore = responseID.lastIndex(of: "_") else { return nil }
        let session = String(responseID[responseID.index(responseID.startIndex, offsetBy: 5)..<underscore])
        let isIDCharacter = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_") }
        guard let count = Int(responseID[responseID.index(after: underscore)...]), count >= 0, !session.isEmpty, session.count <= 128,
            session.allSatisfy(isIDCharacter)
        else { return nil }
        return (session, count)
    }
}
