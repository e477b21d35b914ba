import Testing
import TrailheadAgent
import TrailheadSchema
@testable import TrailheadServer

/// A conversation a stateless client sends whole becomes the transcript a session would have written.
@Suite struct ClientConversationTests {
    typealias Turn = ClientConversation.Turn
    let f = ToolCallRequest(tool: "f", arguments: ["x": 1])
    let g = ToolCallRequest(tool: "g", arguments: [:])

    func kinds(_ entries: [Transcript.Entry]) -> [String] {
        entries.map { entry in
            switch entry {
            case .prompt(let prompt): "prompt \(prompt.text)"
            case .modelTurn(let turn): "turn \(turn.turn) \(turn.text)"
            case .toolCall(let call): "call \(call.id) \(call.tool)"
            case .toolOutput(let output): "output \(output.id) \(output.result?.jsonString ?? "-")"
            case .response(let response): "response \(response.content.jsonString)"
            default: "other"
            }
        }
    }

    @Test func callsAndTheirOutputsAreTheModelsTurnsAndTheLastOutputsThePrompt() throws {
        let turns: [(turn: Turn, param: String)] = [
            (.system("Be brief."), "messages[0]"), (.user("q1"), "messages[1]"), (.calls([("a", f)]), "messages[2]"),
            (.output(callID: "a", text: "r1"), "messages[3]"), (.calls([("b", g)]), "messages[4]"), (.output(callID: "b", text: #"{"v":2}"#), "messages[5]"),
        ]
        let conversation = try ClientConversation(turns, answersInSteps: true, answerIsJSON: false, list: "messages")
        #expect(conversation.instructions == "Be brief.")
        #expect(kinds(conversation.history) == [
            "prompt q1", #"turn 1 {"name":"f","arguments":{"x":1}}"#, "call a f", #"output a "r1""#, #"turn 2 {"name":"g","arguments":{}}"#, "call b g",
            "response null",
        ])
        #expect(conversation.prompt == #"g returned: {"v":2}"#)
    }

    @Test func anEarlierExchangeAndSeveralCallsAtOnce() throws {
        let turns: [(turn: Turn, param: String)] = [
            (.user("q1"), "messages[0]"), (.assistant("a1"), "messages[1]"), (.user("q2"), "messages[2]"), (.calls([("a", f), ("b", g)]), "messages[3]"),
            (.output(callID: "b", text: "2"), "messages[4]"), (.output(callID: "a", text: "one"), "messages[5]"),
        ]
        let conversation = try ClientConversation(turns, answersInSteps: true, answerIsJSON: false, list: "messages")
        #expect(kinds(conversation.history) == [
            "prompt q1", #"turn 1 {"answer":"a1"}"#, #"response "a1""#,
            "prompt q2", #"turn 1 {"name":"f","arguments":{"x":1},"and":{"name":"g","arguments":{}}}"#, "call a f", "call b g", "response null",
        ])
        #expect(conversation.prompt == "f returned: \"one\"\ng returned: 2", "in the order of the calls")
    }

    @Test func aCallWithoutItsOutputOrAnAnswerLastIsRefusedSayingWhere() {
        let unanswered: [(turn: Turn, param: String)] = [(.user("q"), "messages[0]"), (.calls([("a", f)]), "messages[1]"), (.user("again"), "messages[2]")]
        #expect(throws: InvalidRequest.self) { try ClientConversation(unanswered, answersInSteps: true, answerIsJSON: false, list: "messages") }
        do {
            _ = try ClientConversation(unanswered, answersInSteps: true, answerIsJSON: false, list: "messages")
        } catch {
            #expect(error.param == "messages[2]")
            #expect(error.message.contains("a"))
        }
        let unknown: [(turn: Turn, param: String)] = [(.user("q"), "messages[0]"), (.output(callID: "zz", text: "1"), "messages[1]")]
        do {
            _ = try ClientConversation(unknown, answersInSteps: true, answerIsJSON: false, list: "messages")
            Issue.record("an output of no call was accepted")
        } catch { #expect(error.param == "messages[1]") }
        let answered: [(turn: Turn, param: String)] = [(.user("q"), "messages[0]"), (.assistant("a"), "messages[1]")]
        do {
            _ = try ClientConversation(answered, answersInSteps: true, answerIsJSON: false, list: "messages")
            Issue.record("a conversation ending with an answer was accepted")
        } catch { #expect(error.param == "messages") }
    }
}
