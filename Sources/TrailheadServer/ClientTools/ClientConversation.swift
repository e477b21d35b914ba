import TrailheadAgent
import TrailheadSchema

/// A conversation a stateless client sends whole (chat-completions `messages`, Responses `input`
/// items), rebuilt as the transcript a session would have written — prompts, the model's turns in
/// the step protocol's words, tool calls and the outputs the client sent — so the model reads it
/// as its own. What comes after the last user message or the last model turn is this request's
/// prompt: the user's message, or the outputs of the calls the client ran (in the loop's words
/// for tool results), from which the model goes on.
struct ClientConversation: Sendable {
    /// One message of the client's conversation, with where it is in the request (for errors).
    enum Turn: Sendable {
        case system(String)
        case user(String)
        case assistant(String)
        case calls([(id: String, call: ToolCallRequest)])
        case output(callID: String, text: String)
    }

    var history: [Transcript.Entry]
    var prompt: String
    /// The client's system and developer messages (a plain model's instructions).
    var instructions: String?

    /// - Parameter answersInSteps: the session writes its answers as steps (`{"answer": …}`: it has tools).
    /// - Parameter answerIsJSON: the answer is JSON (a schema), not text.
    /// - Parameter earlier: a stored conversation this one continues (`previous_response_id`),
    ///   and `pending`, the calls of the client's it ended with (by the client's id: the
    ///   transcript's id and the call), whose outputs `turns` should bring.
    init(
        _ turns: [(turn: Turn, param: String)], answersInSteps: Bool, answerIsJSON: Bool, list: String, earlier: [Transcript.Entry] = [],
        pending: [(id: String, entryID: String, call: ToolCallRequest)] = []
    ) throws(InvalidRequest) {
        var closed = earlier
        var exchange: [Transcript.Entry]?
        var turn = 0
        var known: [String: (entryID: String, call: ToolCallRequest)] = [:]
        var awaiting: [String] = []
        if !pending.isEmpty, case .response = earlier.last, let start = earlier.lastIndex(where: { if case .prompt = $0 { true } else { false } }) {
            // The stored response ended with these calls: its exchange is open again for their outputs.
            closed = Array(earlier[..<start])
            exchange = Array(earlier[start..<(earlier.count - 1)])
            turn = exchange!.filter { if case .modelTurn = $0 { true } else { false } }.count
            for call in pending { known[call.id] = (call.entryID, call.call) }
            awaiting = pending.map(\.id)
        }
        /// The outputs after the last model turn, by the client's call id.
        var trailing: [(id: String, call: ToolCallRequest, result: GeneratedContent?, error: String?)] = []
        /// The calls of the last model turn, in the order the model made them.
        var lastCalls: [String] = pending.map(\.id)
        var system: [String] = []
        var last: Turn?

        func close(_ content: GeneratedContent) {
            guard let open = exchange else { return }
            closed += open + [.response(.init(content: content, turns: turn))]
            exchange = nil
        }
        func modelTurn(_ text: String) -> Transcript.Entry {
            .modelTurn(.init(turn: turn, text: text, parsed: try? GeneratedContent(json: text), model: "client", tokensIn: nil, tokensOut: nil, latencyMs: 0))
        }

        for (item, param) in turns {
            if case .system = item {} else { last = item }
            switch item {
            case .system(let text):
                system.append(text)
            case .user(let text):
                guard awaiting.isEmpty else { throw Self.unanswered(awaiting, param: param) }
                close(.null)
                exchange = [.prompt(.init(text: text))]
                turn = 0
                trailing = []
            case .assistant(let text):
                guard awaiting.isEmpty else { throw Self.unanswered(awaiting, param: param) }
                if exchange == nil { exchange = [.prompt(.init(text: ""))] }
                turn += 1
                let answer: GeneratedContent = answerIsJSON ? ((try? GeneratedContent(json: text)) ?? .string(text)) : .string(text)
                exchange! += [modelTurn(answersInSteps ? LanguageModelSession.stepText(answering: answer) : text)]
                close(answer)
                trailing = []
            case .calls(let calls):
                guard awaiting.isEmpty else { throw Self.unanswered(awaiting, param: param) }
                if exchange == nil { exchange = [.prompt(.init(text: ""))] }
                turn += 1
                exchange! += [modelTurn(LanguageModelSession.stepText(calling: calls.map(\.call)))]
                for (id, call) in calls {
                    exchange! += [.toolCall(.init(turn: turn, id: id, tool: call.tool, arguments: call.arguments))]
                    known[id] = (id, call)
                }
                awaiting = calls.map(\.id)
                lastCalls = awaiting
                trailing = []
            case .output(let id, let text):
                guard let (entryID, call) = known[id] else { throw InvalidRequest("no earlier tool call has the id '\(id.prefix(80))'", param: param) }
                awaiting.removeAll { $0 == id }
                let result = (try? GeneratedContent(json: text)) ?? .string(text)
                exchange = (exchange ?? []) + [.toolOutput(.init(id: entryID, tool: call.tool, result: result, error: nil, latencyMs: 0))]
                trailing.append((id, call, result, nil))
            }
        }
        instructions = system.isEmpty ? nil : system.joined(separator: "\n")
        guard awaiting.isEmpty else { throw Self.unanswered(awaiting, param: list) }
        switch last {
        case .user(let text):
            history = closed
            prompt = text
        case .output:
            // The calls' outputs are this request's prompt: the model goes on from them.
            // (The outputs of earlier calls stay: the model read them before its later turns.)
            let open = exchange ?? []
            let lastTurn = open.lastIndex { if case .modelTurn = $0 { true } else { false } } ?? 0
            let kept = open.enumerated().filter { index, entry in
                if case .toolOutput = entry { return index < lastTurn }
                return true
            }.map(\.element)
            history = closed + kept + [.response(.init(content: .null, turns: turn))]
            // In the order of the calls, as the loop feeds results back.
            let ordered = trailing.sorted { (lastCalls.firstIndex(of: $0.id) ?? 0) < (lastCalls.firstIndex(of: $1.id) ?? 0) }
            prompt = LanguageModelSession.toolResultsText(ordered.map { ($0.call, $0.result, $0.error) })
        default:
            throw InvalidRequest("the last message must be the user's or a tool's output", param: list)
        }
    }

    private static func unanswered(_ ids: [String], param: String) -> InvalidRequest {
        InvalidRequest("the assistant's tool calls \(ids.joined(separator: ", ")) have no tool message with their output", param: param)
    }
}
