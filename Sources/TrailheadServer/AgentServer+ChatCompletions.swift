import Foundation
import Synchronization
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadSupport

extension AgentServer {
    /// `POST /v1/chat/completions`. The last user message is the prompt; earlier user/assistant
    /// pairs are the conversation so far (a chat-completions client sends it whole); system
    /// messages are the client's and the agent's own instructions rule, so they are not used.
    func chatCompletion(_ request: HTTPServer.Request) -> HTTPServer.Outcome {
        let body: GeneratedContent
        do { body = try GeneratedContent(json: request.body) } catch {
            return .respond(APIError.response(400, "the body is not JSON: \(error)", type: "invalid_request_error"))
        }
        guard let agent = body["model"]?.stringValue else {
            return .respond(APIError.response(400, "\"model\" (the agent's name) is required", type: "invalid_request_error"))
        }
        guard let messages = body["messages"]?.arrayValue, !messages.isEmpty else {
            return .respond(APIError.response(400, "\"messages\" must be a non-empty array", type: "invalid_request_error"))
        }
        var turns: [(user: String, assistant: String)] = []
        var pendingUser: String?
        var prompt: String?
        for (index, message) in messages.enumerated() {
            guard let role = message["role"]?.stringValue, let text = Self.text(of: message["content"]) else {
                return .respond(APIError.response(400, "messages[\(index)]: needs a role and text content", type: "invalid_request_error"))
            }
            switch role {
            case "user":
                if let user = pendingUser { turns.append((user, "")) }
                pendingUser = text
            case "assistant":
                if let user = pendingUser { turns.append((user, text)) }
                pendingUser = nil
            default: continue  // system, developer, tool: the agent's own rule
            }
        }
        prompt = pendingUser
        guard let prompt else {
            return .respond(APIError.response(400, "the last message must be the user's", type: "invalid_request_error"))
        }
        let options = Self.options(body)
        let session = AgentRunner.newSessionID()
        let history = runner.history(turns, agent: agent)
        let id = "chatcmpl-\(session)"
        let created = Int(Date().timeIntervalSince1970)

        guard body["stream"]?.boolValue == true else {
            let result: Result<AgentRunner.Answer, AgentRunner.Failure> = Self.wait { [runner] in
                do throws(AgentRunner.Failure) { return .success(try await runner.respond(agent: agent, session: session, stored: nil, history: history, prompt: prompt, options: options)) } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .failure(let failure): return .respond(APIError.response(for: failure))
            case .success(let answer):
                let completion: GeneratedContent = [
                    "id": .string(id), "object": "chat.completion", "created": .number(Double(created)), "model": .string(agent),
                    "choices": [["index": 0, "message": ["role": "assistant", "content": .string(answer.text)], "finish_reason": "stop"]],
                    "usage": Self.usage(answer.usage), "trailhead": Self.trailhead(answer),
                ]
                return .respond(.json(200, completion.jsonString, headers: ["X-Trailhead-Session": session]))
            }
        }

        let runner = runner
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
            stream.send(chunk(["role": "assistant", "content": ""]), event: nil)
            let task = Task {
                do throws(AgentRunner.Failure) {
                    let answer = try await runner.respond(agent: agent, session: session, stored: nil, history: history, prompt: prompt, options: options) { progress in
                        switch progress {
                        case .partial(let partial):
                            guard let delta = text.withValue({ $0.delta(after: partial) }) else { return }
                            _ = stream.send(chunk(["content": .string(delta)]), event: nil)
                        case .toolCall(let id, let tool, let arguments):
                            _ = stream.send(chunk([:], extra: [("trailhead", ["type": "tool_call", "id": .string(id), "tool": .string(tool), "arguments": arguments])]), event: nil)
                        case .toolOutput(let id, let tool, let result, let error):
                            _ = stream.send(chunk([:], extra: [("trailhead", ["type": "tool_output", "id": .string(id), "tool": .string(tool), "result": result ?? .null, "error": error.map { .string($0) } ?? .null])]), event: nil)
                        }
                    }
                    if let rest = text.withValue({ $0.rest(of: answer.text) }) {
                        if !rest.isEmpty { stream.send(chunk(["content": .string(rest)]), event: nil) }
                    } else {
                        // The agent rewrote what was streamed: the whole answer is in `trailhead.answer`.
                        stream.send(chunk([:], extra: [("trailhead", ["type": "answer_replaced", "answer": .string(answer.text)])]), event: nil)
                    }
                    stream.send(chunk([:], finish: "stop", extra: [("usage", Self.usage(answer.usage)), ("trailhead", Self.trailhead(answer))]), event: nil)
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

    /// A message's text: a string, or the text parts of an array of parts.
    static func text(of content: GeneratedContent?) -> String? {
        if let text = content?.stringValue { return text }
        guard let parts = content?.arrayValue else { return nil }
        let texts = parts.compactMap { $0["text"]?.stringValue }
        return texts.isEmpty ? nil : texts.joined(separator: "\n")
    }

    /// The request's sampling settings (the agent's fill what it leaves out) and its
    /// `tool_choice` ("auto", "required", "none" or a function by name) as the tool-calling mode
    /// of the agent's own tools; `max_tokens` is not used: each turn's limit comes from its schema.
    static func options(_ body: GeneratedContent) -> GenerationOptions {
        var options = GenerationOptions(temperature: body["temperature"]?.doubleValue, topP: body["top_p"]?.doubleValue, seed: body["seed"]?.intValue)
        if let choice = body["tool_choice"]?.stringValue {
            options.toolCallingMode = ToolCallingMode(parsing: choice)
        } else if let name = body["tool_choice"]?["function"]?["name"]?.stringValue {
            options.toolCallingMode = .named(name)
        }
        return options
    }

    static func usage(_ usage: Usage) -> GeneratedContent {
        ["prompt_tokens": .number(Double(usage.inputTokens)), "completion_tokens": .number(Double(usage.outputTokens)),
         "total_tokens": .number(Double(usage.inputTokens + usage.outputTokens)),
         "prompt_tokens_details": ["cached_tokens": .number(Double(usage.cachedInputTokens))]]
    }

    /// What Trailhead adds to an answer: the session, its turns, the model that answered, the
    /// answer as JSON.
    static func trailhead(_ answer: AgentRunner.Answer) -> GeneratedContent {
        ["session": .string(answer.session), "turns": .number(Double(answer.turns)), "model": .string(answer.model), "answer": answer.content,
         "entries": .number(Double(answer.entries)), "storeRetries": .number(Double(answer.storeRetries))]
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
