import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadSupport

extension AgentServer {
    /// `POST /v1/responses`: `input` (text, or messages whose last user text is the prompt) to the
    /// agent `model`; with `previous_response_id`, the conversation that response ended goes on —
    /// read from the store, so on any replica. A response id names its session and how many
    /// entries the session held when it was given (`resp_<session>_<entries>`): continuing an
    /// older response than the session's last starts a new session from that point (a branch),
    /// and entries after it that no response completed (a replica died mid-answer) are skipped.
    func response(_ request: HTTPServer.Request) -> HTTPServer.Outcome {
        let body: GeneratedContent
        do { body = try GeneratedContent(json: request.body) } catch {
            return .respond(APIError.response(400, "the body is not JSON: \(error)", type: "invalid_request_error"))
        }
        guard let agent = body["model"]?.stringValue else {
            return .respond(APIError.response(400, "\"model\" (the agent's name) is required", type: "invalid_request_error"))
        }
        guard let prompt = Self.prompt(ofInput: body["input"]) else {
            return .respond(APIError.response(400, "\"input\" must be text or a list of messages ending with the user's", type: "invalid_request_error"))
        }
        if body["stream"]?.boolValue == true {
            return .respond(APIError.response(400, "streaming responses are not served yet: use chat completions with stream, or leave stream out", type: "invalid_request_error"))
        }
        let previous = body["previous_response_id"]?.stringValue
        let options = Self.options(body)
        let runner = runner
        let store = configuration.store
        let result: Result<AgentRunner.Answer, AgentRunner.Failure> = Self.wait { [self] in
            do {
                var session = AgentRunner.newSessionID()
                var stored: StoredSession?
                var history: [Transcript.Entry] = []
                if let previous {
                    guard let (id, count) = Self.parse(responseID: previous) else {
                        throw AgentRunner.Failure.badRequest("previous_response_id '\(previous.prefix(80))' is not a response of this server")
                    }
                    let loaded: StoredSession?
                    do throws(SessionStoreError) { loaded = try store.load(id) } catch { throw AgentRunner.Failure.store(error) }
                    guard let loaded, count <= loaded.transcript.count else {
                        throw AgentRunner.Failure.badRequest("no response \(previous) in the store \(store.description)")
                    }
                    let later = loaded.transcript.entries[count...]
                    if later.contains(where: { if case .response = $0 { true } else { false } }) {
                        history = Array(loaded.transcript.entries[..<count])  // a branch from an older response
                    } else {
                        session = id
                        stored = loaded
                    }
                }
                let run = { [session, stored, history] () async throws(AgentRunner.Failure) -> AgentRunner.Answer in
                    try await runner.respond(agent: agent, session: session, stored: stored, history: history, prompt: prompt, options: options)
                }
                guard let answer = try await exclusive(session, run) else {
                    throw AgentRunner.Failure.store(SessionStoreError(.conflict, "a response of this conversation is under way"))
                }
                return .success(answer)
            } catch let failure as AgentRunner.Failure {
                return .failure(failure)
            } catch {
                return .failure(.agent("\(error)"))
            }
        }
        switch result {
        case .failure(let failure): return .respond(APIError.response(for: failure))
        case .success(let answer):
            let id = "resp_\(answer.session)_\(answer.entries)"
            let object: GeneratedContent = [
                "id": .string(id), "object": "response", "created_at": .number(Date().timeIntervalSince1970.rounded()), "status": "completed",
                "model": .string(agent), "previous_response_id": previous.map { .string($0) } ?? .null,
                "output": [[
                    "type": "message", "id": .string("msg_\(answer.session)_\(answer.entries)"), "status": "completed", "role": "assistant",
                    "content": [["type": "output_text", "text": .string(answer.text), "annotations": []]],
                ]],
                "usage": [
                    "input_tokens": .number(Double(answer.usage.inputTokens)), "output_tokens": .number(Double(answer.usage.outputTokens)),
                    "total_tokens": .number(Double(answer.usage.inputTokens + answer.usage.outputTokens)),
                    "input_tokens_details": ["cached_tokens": .number(Double(answer.usage.cachedInputTokens))],
                    "output_tokens_details": ["reasoning_tokens": 0],
                ],
                "parallel_tool_calls": false, "tool_choice": "auto", "tools": [], "error": .null, "incomplete_details": .null,
                "instructions": .null, "metadata": [:], "text": ["format": ["type": "text"]],
                "trailhead": Self.trailhead(answer),
            ]
            return .respond(.json(200, object.jsonString, headers: ["X-Trailhead-Session": answer.session]))
        }
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

    /// The prompt of a Responses `input`: its text, or the last user message's.
    static func prompt(ofInput input: GeneratedContent?) -> String? {
        if let text = input?.stringValue { return text }
        guard let items = input?.arrayValue else { return nil }
        guard let last = items.last(where: { ($0["role"]?.stringValue ?? "user") == "user" }) else { return nil }
        if let text = last["content"]?.stringValue { return text }
        let parts = (last["content"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }
}
