import Foundation
import Synchronization
import Testing
import Trailhead
import TrailheadModels

@testable import TrailheadAgent

/// A session continued from a stored transcript reads what the original session read, and a
/// store takes its entries one by one, keeping them while it is unavailable.
@Suite struct SessionResumeTests {
    typealias Fixtures = LanguageModelSessionTests

    @Test func aResumedSessionSendsTheModelTheSameConversationAsTheOriginal() async throws {
        let outputs = [
            LanguageModelSession.stepText(calling: "weather", arguments: ["city": "Porto"]),
            LanguageModelSession.stepText(answering: ["umbrella": true, "reason": "It rains in Porto."]),
            LanguageModelSession.stepText(answering: ["umbrella": false, "reason": "Lisbon is sunny."]),
        ]
        let prefetch = [ToolCallRequest(tool: "weather", arguments: ["city": "Atlantis"])]
        // Given a session that answered twice…
        let live = Fixtures.RecordingModel(outputs)
        let original = LanguageModelSession(model: live, tools: [Fixtures.Weather()], instructions: "Help travellers.")
        _ = try await original.respond(to: "Umbrella in Porto?", generating: Fixtures.Advice.self, includeSchemaInPrompt: false, prefetching: prefetch)
        let stored = original.transcript
        _ = try await original.respond(to: "And Lisbon?", generating: Fixtures.Advice.self, includeSchemaInPrompt: false)

        // …a session rebuilt from its transcript after the first answer asks the second question alike.
        let resumedModel = Fixtures.RecordingModel([outputs[2]])
        let resumed = LanguageModelSession(model: resumedModel, tools: [Fixtures.Weather()], instructions: "Help travellers.", transcript: stored)
        let answer = try await resumed.respond(to: "And Lisbon?", generating: Fixtures.Advice.self, includeSchemaInPrompt: false)
        #expect(answer.content.reason == "Lisbon is sunny.")
        #expect(resumedModel.requests.first?.messages == live.requests.last?.messages)
        #expect(resumed.transcript.count == original.transcript.count)
        #expect(resumed.transcript.filter { $0.kind == .instructions }.count == 1, "the instructions are not recorded twice")
        // Call ids go on where the stored transcript left them.
        let ids = resumed.transcript.compactMap { if case .toolCall(let call) = $0 { call.id } else { nil } }
        #expect(Set(ids).count == ids.count)
    }

    @Test func entriesOfAResponseThatNeverCompletedAreNotShownToTheModel() async throws {
        let first = Fixtures.RecordingModel(["Lisbon is sunny."])
        let session = LanguageModelSession(model: first, instructions: "Be brief.")
        _ = try await session.respond(to: "Weather in Lisbon?")
        // A replica died after recording the next prompt.
        var transcript = session.transcript
        transcript.entries.append(.prompt(.init(text: "A question nobody answered")))

        let model = Fixtures.RecordingModel(["No umbrella."])
        let resumed = LanguageModelSession(model: model, instructions: "Be brief.", transcript: transcript)
        _ = try await resumed.respond(to: "Umbrella?")
        #expect(model.requests.first?.messages.map(\.content) == ["Be brief.", "Weather in Lisbon?", "Lisbon is sunny.", "Umbrella?"])
        #expect(resumed.transcript.map(\.kind) == [.instructions, .prompt, .modelTurn, .response, .prompt, .prompt, .modelTurn, .response])
    }

    @Test func earlierTurnsWithoutInstructionsGetTheSessionsOwnFirst() async throws {
        // A chat-completions client sent one earlier exchange along.
        let history = Transcript(entries: [
            .prompt(.init(text: "Weather in Lisbon?")),
            .modelTurn(.init(turn: 1, text: "Sunny.", parsed: nil, model: "client", tokensIn: nil, tokensOut: nil, latencyMs: 0)),
            .response(.init(content: "Sunny.", turns: 1)),
        ])
        let model = Fixtures.RecordingModel(["No umbrella."])
        let session = LanguageModelSession(model: model, instructions: "Be brief.", transcript: history)
        _ = try await session.respond(to: "Umbrella?")
        #expect(model.requests.first?.messages.map(\.content) == ["Be brief.", "Weather in Lisbon?", "Sunny.", "Umbrella?"])
        #expect(session.transcript.map(\.kind) == [.prompt, .modelTurn, .response, .instructions, .prompt, .modelTurn, .response])
        // And read back, the instructions recorded late still come first.
        let again = LanguageModelSession(model: Fixtures.RecordingModel(["Yes."]), instructions: "Be brief.", transcript: session.transcript)
        _ = try await again.respond(to: "Sure?")
        #expect(again.transcript.filter { $0.kind == .instructions }.count == 1)
    }

    @Test func aRecorderKeepsEntriesWhileTheStoreIsUnavailableAndWritesThemInOrder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-store-\(UUID().uuidString)").path
        let store = FlakyStore(try FileSessionStore(folder: folder))
        try store.create("s1", agent: "weather")
        let recorder = SessionRecorder(store: store, session: "s1", from: 0)
        let session = LanguageModelSession(model: Fixtures.RecordingModel(["Sunny."]), instructions: "Be brief.")
        var configuration = session.configuration
        configuration.recorder = recorder
        session.configuration = configuration

        store.failures.withLock { $0 = 2 }  // the store is down for the first two writes
        _ = try await session.respond(to: "Weather?")
        try await recorder.flush(timeout: 5)
        #expect(recorder.retries == 2)
        #expect(try store.load("s1")?.transcript == session.transcript)

        // A second writer at the same entry number is refused, not interleaved.
        let other = SessionRecorder(store: store, session: "s1", from: 2)
        other.append(.prompt(.init(text: "from another replica")))
        await #expect(throws: SessionStoreError.self) { try await other.flush(timeout: 1) }
        #expect(try store.load("s1")?.transcript == session.transcript)
    }

    @Test func aFileStoreRefusesBadSessionIDsAndSecondCreation() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-store-\(UUID().uuidString)").path
        let store = try FileSessionStore(folder: folder)
        #expect(throws: SessionStoreError.self) { try store.create("../etc/passwd", agent: "x") }
        try store.create("s2", agent: "x")
        #expect { try store.create("s2", agent: "x") } throws: { ($0 as? SessionStoreError)?.kind == .conflict }
        #expect(try store.load("unknown") == nil)
    }
}

/// A store that is unavailable for its next `failures` appends.
final class FlakyStore: SessionStore {
    let wrapped: FileSessionStore
    let failures = Mutex(0)
    init(_ wrapped: FileSessionStore) { self.wrapped = wrapped }
    var description: String { "flaky " + wrapped.description }
    func load(_ session: String) throws(SessionStoreError) -> StoredSession? { try wrapped.load(session) }
    func create(_ session: String, agent: String) throws(SessionStoreError) { try wrapped.create(session, agent: agent) }
    func append(_ entries: [Transcript.Entry], to session: String, at index: Int) throws(SessionStoreError) {
        let fail = failures.withLock { count in
            defer { count = max(0, count - 1) }
            return count > 0
        }
        if fail { throw SessionStoreError(.unavailable, "down") }
        try wrapped.append(entries, to: session, at: index)
    }
}
