import Synchronization
import TrailheadSchema
import TrailheadSupport

/// A streamed Responses-API response as OpenAI sends it: `response.created`, then per output
/// item `response.output_item.added`, its deltas (`response.output_text.delta`,
/// `response.function_call_arguments.delta`) and their `.done`, `response.output_item.done`, and
/// `response.completed` — each event's `type` as its SSE event name, numbered in order.
final class ResponseEvents: Sendable {
    private let stream: HTTPServer.EventStream
    private let clientTools: Set<String>
    private let session: String

    private struct State {
        var sequence = 0
        var output: [GeneratedContent] = []
        var text = AnswerText()
        /// Where the answer's message is in `output`, once its first text arrived.
        var message: Int?
    }
    private let state = Mutex(State())

    init(stream: HTTPServer.EventStream, clientTools: Set<String>, session: String) {
        self.stream = stream
        self.clientTools = clientTools
        self.session = session
    }

    private var messageID: String { "msg_\(session)" }

    func send(_ type: String, _ fields: JSONObject) {
        state.withLock { send(type, fields, in: &$0) }
    }

    /// Sent under the lock, so events keep their numbers' order.
    private func send(_ type: String, _ fields: JSONObject, in state: inout State) {
        var object: JSONObject = ["type": .string(type), "sequence_number": .number(Double(state.sequence))]
        for (key, value) in fields { object[key] = value }
        state.sequence += 1
        _ = stream.send(GeneratedContent.object(object).jsonString, event: type)
    }

    func progress(_ progress: AgentRunner.Progress) {
        state.withLock { state in
            switch progress {
            case .partial(let partial):
                guard let delta = state.text.delta(after: partial) else { return }
                sendText(delta, in: &state)
            case .toolCall(let id, let tool, let arguments) where clientTools.contains(tool):
                let call = ClientCall(id: ClientCall.id(session: session, transcriptID: id), name: tool, arguments: arguments)
                let index = state.output.count
                let item = AgentServer.functionCallItem(call, status: "in_progress", arguments: "")
                let itemID = item["id"] ?? .null
                send("response.output_item.added", ["output_index": .number(Double(index)), "item": item], in: &state)
                var rest = Substring(call.argumentsText)
                while !rest.isEmpty {
                    let piece = rest.prefix(24)
                    rest = rest.dropFirst(piece.count)
                    send("response.function_call_arguments.delta",
                         ["item_id": itemID, "output_index": .number(Double(index)), "delta": .string(String(piece))], in: &state)
                }
                send("response.function_call_arguments.done",
                     ["item_id": itemID, "output_index": .number(Double(index)), "name": .string(tool), "arguments": .string(call.argumentsText)], in: &state)
                let done = AgentServer.functionCallItem(call, status: "completed")
                send("response.output_item.done", ["output_index": .number(Double(index)), "item": done], in: &state)
                state.output.append(done)
            case .toolCall, .toolOutput, .tripRequest:
                break  // the agent's own tools run inside Trailhead; the client's are not run
            }
        }
    }

    /// Ends the answer's message (its last text, `.done` events) and returns the output items.
    func finish(_ answer: AgentRunner.Answer) -> [GeneratedContent] {
        state.withLock { state in
            guard answer.calls.isEmpty else { return state.output }
            let rest = state.text.rest(of: answer.text)
            if state.message == nil || !(rest ?? "").isEmpty { sendText(rest ?? "", in: &state) }
            let index = state.message ?? state.output.count
            let fields: JSONObject = ["item_id": .string(messageID), "output_index": .number(Double(index)), "content_index": 0]
            var done = fields
            done["text"] = .string(answer.text)
            done["logprobs"] = []
            send("response.output_text.done", done, in: &state)
            var part = fields
            part["part"] = ["type": "output_text", "text": .string(answer.text), "annotations": [], "logprobs": []]
            send("response.content_part.done", part, in: &state)
            let item = AgentServer.messageItem(id: messageID, text: answer.text, status: "completed")
            send("response.output_item.done", ["output_index": .number(Double(index)), "item": item], in: &state)
            state.output.append(item)
            return state.output
        }
    }

    /// A piece of the answer's text (the message item opened before its first).
    private func sendText(_ delta: String, in state: inout State) {
        if state.message == nil {
            state.message = state.output.count
            let index = GeneratedContent.number(Double(state.output.count))
            send("response.output_item.added", ["output_index": index, "item": AgentServer.messageItem(id: messageID, text: nil, status: "in_progress")], in: &state)
            send("response.content_part.added", [
                "item_id": .string(messageID), "output_index": index, "content_index": 0,
                "part": ["type": "output_text", "text": "", "annotations": [], "logprobs": []],
            ], in: &state)
        }
        guard !delta.isEmpty else { return }
        send("response.output_text.delta", [
            "item_id": .string(messageID), "output_index": .number(Double(state.message!)), "content_index": 0, "delta": .string(delta),
            "logprobs": [],
        ], in: &state)
    }
}
