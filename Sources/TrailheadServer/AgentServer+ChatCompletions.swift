import Foundation
import Synchronization
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadSupport

extension AgentServer {
    /// `POST /v1/chat/completions`. The request's `model` names an agent (its own instructions
    /// rule, so the client's system messages are not used) or the server's model (`local`: a plain
    /// model whose instructions are the system messages). The conversation the client sends whole
    /// is rebuilt as a transcript (`ClientConversation`); the last user message, or the outputs of
    /// the calls the client ran, are the prompt. With `tools`, the step schema offers the client's
    /// functions and a response that calls them ends there: an assistant message with `tool_calls`
    /// and `finish_reason: "tool_calls"`.
    func chatCompletion(_ request: HTTPServer.Request) -> HTTPServer.Outcome {
        let chat: ChatCompletionRequest
        let client: AgentRunner.ClientSide
        let conversation: ClientConversation
        do throws(InvalidRequest) {
            chat = try InvalidRequest.decode(ChatCompletionRequest.self, from: Data(request.body))
            guard !chat.messages.isEmpty else { throw InvalidRequest("must be a non-empty array", param: "messages") }
            let tools = try ClientTools(chat.functions(), parallelCalls: chat.parallelToolCalls, param: "tools")
            try Self.check(chat.toolChoice, offered: tools)
            let answer = try chat.answerSchema()
            let agent = runner.agents[chat.model]
            conversation = try ClientConversation(
                Self.turns(of: chat.messages), answersInSteps: !tools.isEmpty || agent?.tools.isEmpty == false || chat.plugins?.isEmpty == false,
                answerIsJSON: answer != nil || agent?.answer != nil, list: "messages")
            client = .init(tools: tools, instructions: conversation.instructions, answer: answer, plugins: chat.plugins ?? [])
        } catch {
            return .respond(APIError.response(for: error))
        }
        let agent = chat.model
        let prompt = conversation.prompt
        let history = conversation.history
        let options = Self.options(chat)
        let session = AgentRunner.newSessionID()
        let id = "chatcmpl-\(session)"
        let created = Int(Date().timeIntervalSince1970)

        guard chat.stream == true else {
            let result: Result<AgentRunner.Answer, AgentRunner.Failure> = Self.wait { [runner] in
                do throws(AgentRunner.Failure) {
                    return .success(try await runner.respond(agent: agent, session: session, stored: nil, history: history, prompt: prompt, options: options, client: client))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .failure(let failure): return .respond(APIError.response(for: failure))
            case .success(let answer):
                var message: JSONObject = ["role": "assistant", "content": .string(answer.text)]
                if !answer.calls.isEmpty {
                    message["content"] = .null
                    message["tool_calls"] = .array(answer.calls.map { call in
                        ["id": .string(call.id), "type": "function", "function": ["name": .string(call.name), "arguments": .string(call.argumentsText)]]
                    })
                }
                let completion: GeneratedContent = [
                    "id": .string(id), "object": "chat.completion", "created": .number(Double(created)), "model": .string(agent),
                    "choices": [["index": 0, "message": .object(message), "finish_reason": .string(answer.finishReason)]],
                    "usage": Self.usage(answer.usage), "trailhead": Self.trailhead(answer),
                ]
                return .respond(.json(200, completion.jsonString, headers: ["X-Trailhead-Session": session]))
            }
        }

        let runner = runner
        let includeUsage = chat.streamOptions?.includeUsage == true
        let includeSnapshots = chat.streamOptions?.includeSnapshots == true
        let clientTools = client.tools.names
        return .stream(headers: ["X-Trailhead-Session": session]) { stream in
            @Sendable func chunk(_ delta: GeneratedContent, finish: GeneratedContent = .null, extra: [(String, GeneratedContent)] = []) -> String {
                var object: JSONObject = [
                    "id": .string(id), "object": "chat.completion.chunk", "created": .number(Double(created)), "model": .string(agent),
                    "choices": [["index": 0, "delta": delta, "finish_reason": finish]],
                ]
                for (key, value) in extra { object[key] = value }
                return GeneratedContent.object(object).jsonString
            }
            let text = SendableBox(AnswerText())
            let calls = SendableBox(0)
            stream.send(chunk(["role": "assistant", "content": ""]), event: nil)
            let task = Task {
                do throws(AgentRunner.Failure) {
                    let answer = try await runner.respond(agent: agent, session: session, stored: nil, history: history, prompt: prompt, options: options, client: client) { progress in
                        switch progress {
                        case .partial(let partial):
                            if includeSnapshots, partial.stringValue == nil {
                                _ = stream.send(chunk([:], extra: [("trailhead", ["type": "snapshot", "answer": partial])]), event: nil)
                            }
                            guard let delta = text.withValue({ $0.delta(after: partial) }) else { return }
                            _ = stream.send(chunk(["content": .string(delta)]), event: nil)
                        case .toolCall(let callID, let tool, let arguments) where clientTools.contains(tool):
                            // A call of the client's: OpenAI's `delta.tool_calls` (id and name first, then the arguments in pieces).
                            let index = calls.withValue { count in
                                defer { count += 1 }
                                return count
                            }
                            let call = ClientCall(id: ClientCall.id(session: session, transcriptID: callID), name: tool, arguments: arguments)
                            for delta in Self.toolCallDeltas(call, index: index) { _ = stream.send(chunk(delta), event: nil) }
                        case .toolCall(let id, let tool, let arguments):
                            _ = stream.send(chunk([:], extra: [("trailhead", ["type": "tool_call", "id": .string(id), "tool": .string(tool), "arguments": arguments])]), event: nil)
                        case .toolOutput(_, let tool, _, _) where clientTools.contains(tool):
                            break  // the client runs it
                        case .tripRequest(let request):
                            _ = stream.send(chunk([:], extra: [("trailhead", ["type": "trip_request", "request": request])]), event: nil)
                        case .toolOutput(let id, let tool, let result, let error):
                            _ = stream.send(chunk([:], extra: [("trailhead", ["type": "tool_output", "id": .string(id), "tool": .string(tool), "result": result ?? .null, "error": error.map { .string($0) } ?? .null])]), event: nil)
                        }
                    }
                    if !answer.calls.isEmpty {
                        stream.send(chunk([:], finish: "tool_calls", extra: [("usage", Self.usage(answer.usage)), ("trailhead", Self.trailhead(answer))]), event: nil)
                    } else {
                        if let rest = text.withValue({ $0.rest(of: answer.text) }) {
                            if !rest.isEmpty { stream.send(chunk(["content": .string(rest)]), event: nil) }
                        } else {
                            // The agent rewrote what was streamed: the whole answer is in `trailhead.answer`.
                            stream.send(chunk([:], extra: [("trailhead", ["type": "answer_replaced", "answer": .string(answer.text)])]), event: nil)
                        }
                        stream.send(chunk([:], finish: .string(answer.finishReason), extra: [("usage", Self.usage(answer.usage)), ("trailhead", Self.trailhead(answer))]), event: nil)
                    }
                    if includeUsage {
                        let usage: GeneratedContent = [
                            "id": .string(id), "object": "chat.completion.chunk", "created": .number(Double(created)), "model": .string(agent),
                            "choices": [], "usage": Self.usage(answer.usage),
                        ]
                        stream.send(usage.jsonString, event: nil)
                    }
                    stream.send("[DONE]", event: nil)
                } catch {
                    stream.send(APIError.response(for: error).string, event: nil)
                }
                stream.close()
            }
            // A client that goes away cancels the response (the transcript records it).
            Task {
                while stream.isOpen { try? await Task.sleep(nanoseconds: 200_000_000) }
                task.cancel()
            }
        }
    }

    /// One call as OpenAI streams it: the first delta carries its index, id, type and name with
    /// empty arguments, the next ones pieces of the arguments' JSON text.
    static func toolCallDeltas(_ call: ClientCall, index: Int, pieceLength: Int = 24) -> [GeneratedContent] {
        var deltas: [GeneratedContent] = [[
            "tool_calls": [["index": .number(Double(index)), "id": .string(call.id), "type": "function",
                            "function": ["name": .string(call.name), "arguments": ""]]],
        ]]
        var rest = Substring(call.argumentsText)
        while !rest.isEmpty {
            let piece = rest.prefix(pieceLength)
            rest = rest.dropFirst(piece.count)
            deltas.append(["tool_calls": [["index": .number(Double(index)), "function": ["arguments": .string(String(piece))]]]])
        }
        return deltas
    }

    /// The client's messages as turns of a conversation; each names where it is for errors.
    static func turns(of messages: [ChatCompletionRequest.Message]) throws(InvalidRequest) -> [(turn: ClientConversation.Turn, param: String)] {
        var turns: [(turn: ClientConversation.Turn, param: String)] = []
        for (index, message) in messages.enumerated() {
            let param = "messages[\(index)]"
            switch message.role {
            case .system, .developer:
                turns.append((.system(message.content?.text ?? ""), param))
            case .user:
                guard let text = message.content?.text else { throw InvalidRequest("a user message needs content", param: param + ".content") }
                turns.append((.user(text), param))
            case .assistant:
                if let calls = message.toolCalls, !calls.isEmpty {
                    var requests: [(id: String, call: ToolCallRequest)] = []
                    for (number, call) in calls.enumerated() {
                        guard let arguments = try? GeneratedContent(json: call.function.arguments), arguments.objectValue != nil else {
                            throw InvalidRequest("the arguments are not a JSON object", param: param + ".tool_calls[\(number)].function.arguments")
                        }
                        requests.append((call.id, ToolCallRequest(tool: call.function.name, arguments: arguments)))
                    }
                    turns.append((.calls(requests), param))
                } else {
                    turns.append((.assistant(message.content?.text ?? ""), param))
                }
            case .tool:
                guard let id = message.toolCallID else { throw InvalidRequest("a tool message needs the id of its call", param: param + ".tool_call_id") }
                turns.append((.output(callID: id, text: message.content?.text ?? ""), param))
            }
        }
        return turns
    }

    /// A function `tool_choice` names must be one the request offers.
    static func check(_ choice: ToolChoice?, offered tools: ClientTools) throws(InvalidRequest) {
        guard case .function(let name) = choice, !tools.isEmpty, !tools.names.contains(name) else { return }
        throw InvalidRequest("'\(name)' is not among the request's tools (\(tools.tools.map(\.name).joined(separator: ", ")))", param: "tool_choice")
    }

    /// The request's sampling settings (the agent's fill what it leaves out), its token limit,
    /// and its `tool_choice` as the session's tool-calling mode (enforced in the step schema).
    static func options(_ chat: ChatCompletionRequest) -> GenerationOptions {
        var options = GenerationOptions(temperature: chat.temperature, topP: chat.topP, seed: chat.seed)
        if let limit = chat.maxCompletionTokens ?? chat.maxTokens { options.maxTokens = limit }
        options.toolCallingMode = chat.toolChoice.map(Self.mode)
        return options
    }

    static func mode(_ choice: ToolChoice) -> ToolCallingMode {
        switch choice {
        case .auto: .allowed
        case .required: .required
        case .none: .disallowed
        case .function(let name): .named(name)
        }
    }

    static func usage(_ usage: Usage) -> GeneratedContent {
        ["prompt_tokens": .number(Double(usage.inputTokens)), "completion_tokens": .number(Double(usage.outputTokens)),
         "total_tokens": .number(Double(usage.inputTokens + usage.outputTokens)),
         "prompt_tokens_details": ["cached_tokens": .number(Double(usage.cachedInputTokens))]]
    }

    /// What Trailhead adds to an answer: the session, its turns, the model that answered, the
    /// answer as JSON.
    static func trailhead(_ answer: AgentRunner.Answer) -> GeneratedContent {
        var object: JSONObject = [
            "session": .string(answer.session), "turns": .number(Double(answer.turns)), "model": .string(answer.model), "answer": answer.content,
            "entries": .number(Double(answer.entries)), "storeRetries": .number(Double(answer.storeRetries)),
        ]
        if let request = answer.tripRequest { object["request"] = request }
        return .object(object)
    }
}

extension HTTPServer.Response {
    var string: String { String(decoding: body, as: UTF8.self) }
}

/// A value changed from `@Sendable` callbacks (one response's progress).
final class SendableBox<Value: Sendable>: Sendable {
    private let state: Mutex<Value>
    init(_ value: Value) { state = Mutex(value) }
    func withValue<R: Sendable>(_ body: (inout sending Value) -> sending R) -> R { state.withLock { body(&$0) } }
}
