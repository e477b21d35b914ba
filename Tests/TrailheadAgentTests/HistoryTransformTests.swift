import Foundation
import Testing
import TrailheadModels
import TrailheadSchema

@testable import TrailheadAgent

/// History transforms shape what the model reads each turn; the transcript keeps everything.
@Suite struct HistoryTransformTests {
    typealias Fixtures = LanguageModelSessionTests

    /// Instructions, then `responses` exchanges of a prompt and a final answer.
    private func history(responses: Int) -> [HistoryEntry] {
        var entries = [HistoryEntry(message: .system("Be brief."), source: .instructions, response: 0)]
        for response in 1...max(1, responses) {
            entries.append(HistoryEntry(message: .user("Question \(response)?"), source: .prompt, response: response))
            entries.append(HistoryEntry(message: .assistant("Answer \(response)."), source: .modelTurn(final: true), response: response))
        }
        return entries
    }

    @Test func aRollingWindowKeepsTheInstructionsAndStartsAtAPrompt() {
        let window = HistoryTransform.rollingWindow(entries: 6)
        let read = window(history(responses: 10))
        #expect(read.first?.source == .instructions)
        #expect(read[1].source == .prompt)
        #expect(read.count - 1 <= 6)
        #expect(read.last?.message.content == "Answer 10.")
    }

    @Test func aRollingWindowMovesInStepsSoTheRequestsStartRepeats() {
        // Over 40 exchanges (80 entries), a window of 12 moves 6 entries at a time: the message
        // after the instructions changes at most 80 / 6 times, where one sliding an entry at a
        // time changes it every turn.
        func startChanges(_ window: HistoryTransform) -> Int {
            var starts: [String] = []
            var full = history(responses: 1)
            for response in 2...40 {
                full.append(HistoryEntry(message: .user("Question \(response)?"), source: .prompt, response: response))
                starts.append(window(full)[1].message.content)
                full.append(HistoryEntry(message: .assistant("Answer \(response)."), source: .modelTurn(final: true), response: response))
            }
            return zip(starts, starts.dropFirst()).filter { $0 != $1 }.count
        }
        #expect(startChanges(.rollingWindow(entries: 12)) <= 80 / 6)
        #expect(startChanges(.rollingWindow(entries: 12, step: 1)) >= 30)
    }

    @Test func aResponseLongerThanTheWindowKeepsItsPrompt() {
        var entries = history(responses: 1)
        entries.append(HistoryEntry(message: .user("Plan a trip."), source: .prompt, response: 2))
        for turn in 1...8 {
            entries.append(HistoryEntry(message: .assistant("call \(turn)"), source: .modelTurn(final: false), response: 2))
            entries.append(HistoryEntry(message: .user("result \(turn)"), source: .toolOutputs([]), response: 2))
        }
        let read = HistoryTransform.rollingWindow(entries: 4)(entries)
        #expect(read.map(\.message.content).prefix(2) == ["Be brief.", "Plan a trip."])
        #expect(read.last?.message.content == "result 8")
        #expect(read.count <= 1 + 1 + 4)
    }

    @Test func droppingCompletedToolCallsLeavesEarlierResponsesAsQuestionAndAnswer() async throws {
        // Given two responses that each called the weather tool…
        let model = Fixtures.RecordingModel([
            LanguageModelSession.stepText(calling: "weather", arguments: ["city": "Porto"]),
            LanguageModelSession.stepText(answering: ["umbrella": true, "reason": "It rains in Porto."]),
            LanguageModelSession.stepText(calling: "weather", arguments: ["city": "Lisbon"]),
            LanguageModelSession.stepText(answering: ["umbrella": false, "reason": "Lisbon is sunny."]),
        ])
        let session = LanguageModelSession(model: model, tools: [Fixtures.Weather()], instructions: "Help travellers.")
        session.configuration.historyTransform = .droppingCompletedToolCalls
        _ = try await session.respond(to: "Umbrella in Porto?", generating: Fixtures.Advice.self, includeSchemaInPrompt: false)
        _ = try await session.respond(to: "And Lisbon?", generating: Fixtures.Advice.self, includeSchemaInPrompt: false)

        // …the second response's first turn reads the first as its question and answer only…
        let second = model.requests[2].messages
        #expect(second.map(\.role) == [.system, .user, .assistant, .user])
        #expect(second[1].content == "Umbrella in Porto?")
        #expect(second[2].content.contains("It rains in Porto."))
        #expect(!second.contains { $0.content.contains("weather returned") })
        // …while its own call's result is read in its next turn, and the transcript has it all.
        #expect(model.requests[3].messages.last?.content.contains("weather returned") == true)
        #expect(session.transcript.filter { $0.kind == .toolOutput }.count == 2)
    }

    @Test func summarizingCompletedToolCallsKeepsEarlierCallsAndShortOutputsButNotRepairs() async throws {
        // Given a first response whose first turn could not be used, then a call, then an answer…
        let model = Fixtures.RecordingModel([
            "not a step",
            LanguageModelSession.stepText(calling: "places", arguments: [:]),
            LanguageModelSession.stepText(answering: "Visit Arch Rock."),
            LanguageModelSession.stepText(answering: "Barker Dam too."),
        ])
        let session = LanguageModelSession(model: model, tools: [Places()], instructions: "Plan.")
        session.configuration.historyTransform = .summarizingCompletedToolCalls(maximumItems: 2, maximumCharacters: 10)
        _ = try await session.respond(to: "What to see?", generating: String.self, includeSchemaInPrompt: false)
        _ = try await session.respond(to: "And then?", generating: String.self, includeSchemaInPrompt: false)

        // …the second response reads the first's call and its output shortened, without the
        // unusable turn and its repair.
        let second = try #require(model.requests.last?.messages)
        #expect(second.map(\.role) == [.system, .user, .assistant, .user, .assistant, .user])
        #expect(second[2].content.contains(#""places""#), "the call as the model wrote it: \(second[2].content)")
        #expect(second[3].content == #"places returned: {"places":["Arch Rock","Barker Dam"],"note":"Open all y…"}"#)
        #expect(!second.contains { $0.content.contains("not a step") })
        // The first response, while it ran, read the repair and the whole output.
        #expect(model.requests[2].messages.last?.content.contains("Hidden Valley") == true)
    }

    @Test func summarizingToolOutputsShortensWhatTheModelReadsNotTheTranscript() async throws {
        let model = Fixtures.RecordingModel([
            LanguageModelSession.stepText(calling: "places", arguments: [:]),
            LanguageModelSession.stepText(answering: "Visit Arch Rock."),
        ])
        let session = LanguageModelSession(model: model, tools: [Places()], instructions: "Plan.")
        session.configuration.historyTransform = .summarizingToolOutputs(maximumItems: 2, maximumCharacters: 10)
        _ = try await session.respond(to: "What to see?", generating: String.self, includeSchemaInPrompt: false)

        let read = try #require(model.requests.last?.messages.last?.content)
        #expect(read == #"places returned: {"places":["Arch Rock","Barker Dam"],"note":"Open all y…"}"#)
        let output = session.transcript.compactMap { if case .toolOutput(let output) = $0 { output.result } else { nil } }.first
        #expect(output?["places"]?.arrayValue?.count == 4, "the transcript keeps the whole result")
    }

    @Test func fortyResponsesUnderARollingWindowSendAtMostTheWindowAndKeepTheTranscriptWhole() async throws {
        let model = Fixtures.RecordingModel((1...40).map { "Answer \($0)." })
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        session.configuration.historyTransform = .rollingWindow(entries: 8)
        for turn in 1...40 { _ = try await session.respond(to: Prompt("Question \(turn)?")) }
        #expect(model.requests.allSatisfy { $0.messages.count <= 1 + 8 })
        #expect(model.requests.last?.messages.last?.content == "Question 40?")
        #expect(session.transcript.filter { $0.kind == .response }.count == 40)
        #expect(session.transcript.filter { $0.kind == .prompt }.count == 40)
    }

    /// A tool whose result is longer than the model needs.
    struct Places: Tool {
        let name = "places"
        let description = "Lists places to see."
        struct Arguments: Generable {
            static let generationSchema = SchemaBuilder.object(properties: [:]).declaredSchema
        }
        func call(arguments: Arguments) async throws -> GeneratedContent {
            ["places": ["Arch Rock", "Barker Dam", "Hidden Valley", "Keys View"], "note": "Open all year, day and night."]
        }
    }
}
