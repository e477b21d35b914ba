import Foundation
import Synchronization
import Testing
import Trailhead
import TrailheadModels

@testable import TrailheadAgent

/// Foundation Models 27's session surface with scripted models: capabilities checked before the
/// model is called, usage on responses, snapshots and the session, what a failed response leaves
/// in the transcript, and a transcript set between responses (or, wrongly, during one).
@Suite struct FoundationModels27SessionTests {
    struct Weather: Tool {
        let name = "weather"
        let description = "Tells the weather of a city."
        struct Arguments: Generable {
            var city: String
            static let generationSchema = SchemaBuilder.object(properties: ["city": .string()]).declaredSchema
        }
        func call(arguments: Arguments) async throws -> String { arguments.city == "Lisbon" ? "sunny" : "rain" }
    }

    struct Advice: Generable, Equatable {
        var umbrella: Bool
        var reason: String
        static let generationSchema = SchemaBuilder.object(properties: ["umbrella": .boolean(), "reason": .string()]).declaredSchema
        struct PartiallyGenerated: Decodable, Sendable { var umbrella: Bool?; var reason: String? }
    }

    /// Replays a script and keeps the messages of every request it was sent.
    final class RequestSpy: LanguageModel, Sendable {
        let script: ScriptedModel
        private let seen = Mutex<[[ChatMessage]]>([])
        init(_ script: ScriptedModel) { self.script = script }
        var id: String { script.id }
        var availability: ModelAvailability { get async { .available } }
        var capabilities: LanguageModelCapabilities { script.capabilities }
        var requests: [[ChatMessage]] { seen.withLock { $0 } }
        func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
            seen.withLock { $0.append(request.messages) }
            return script.generate(request)
        }
    }

    // MARK: - Capabilities

    @Test func aCapabilityTheModelLacksFailsBeforeTheModelIsCalled() async throws {
        // Given a model that calls tools but cannot follow a schema…
        let model = ScriptedModel(outputs: [#"{"answer":{"umbrella":true,"reason":"rain"}}"#], capabilities: LanguageModelCapabilities([.toolCalling]))
        let session = LanguageModelSession(model: model, tools: [Weather()])
        // …a typed answer is refused with Foundation Models 27's error, and nothing happened.
        let error = await #expect(throws: LanguageModelError.self) {
            try await session.respond(to: "Umbrella in Porto?", generating: Advice.self)
        }
        guard case .unsupportedCapability(let info)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(info.capability == .guidedGeneration)
        #expect(info.debugDescription.contains("guided generation") && info.debugDescription.contains("not called"), "\(info.debugDescription)")
        #expect(model.used == 0, "the model was not called")
        #expect(session.transcript.isEmpty)
        #expect(!session.isResponding)

        // A session with tools needs tool calling; a text answer without tools needs nothing.
        let plain = ScriptedModel(outputs: ["Take one."], capabilities: LanguageModelCapabilities([]))
        await #expect(throws: LanguageModelError.self) { try await LanguageModelSession(model: plain, tools: [Weather()]).respond(to: "Umbrella?") }
        let answer = try await LanguageModelSession(model: plain).respond(to: "Umbrella?")
        #expect(answer.content == "Take one.")
    }

    // MARK: - Usage

    @Test func usageIsCountedWithFoundationModelsNamesOnSnapshotsResponsesAndTheSession() async throws {
        let call = TokenUsage(promptTokens: 100, completionTokens: 10, cachedPromptTokens: 60)
        let answer = TokenUsage(promptTokens: 150, completionTokens: 20, cachedPromptTokens: 110, reasoningTokens: 4)
        let model = ScriptedModel(
            outputs: [#"{"name":"weather","arguments":{"city":"Porto"}}"#, #"{"answer":{"umbrella":true,"reason":"It rains in Porto."}}"#, #"{"answer":"Yes."}"#],
            chunkSize: 4, usages: [call, answer, TokenUsage(promptTokens: 7, completionTokens: 1)])
        let session = LanguageModelSession(model: model, tools: [Weather()])

        var snapshots: [LanguageModelSession.Usage] = []
        let stream = session.streamResponse(to: "Umbrella in Porto?", generating: Advice.self)
        for try await snapshot in stream { snapshots.append(snapshot.usage) }
        let response = try await stream.collect()

        // While the answer streams, its snapshots carry the call's turn; the last one, the response's.
        #expect(snapshots.dropLast().allSatisfy { $0.input.totalTokenCount == 100 && $0.output.totalTokenCount == 10 }, "\(snapshots)")
        let usage = response.usage
        #expect(snapshots.last == usage)
        #expect(usage.input == LanguageModelSession.Usage.Input(totalTokenCount: 250, cachedTokenCount: 170))
        #expect(usage.output == LanguageModelSession.Usage.Output(totalTokenCount: 30, reasoningTokenCount: 4))
        #expect(usage.totalTokenCount == 280)

        // The session's usage is every response's, and only grows.
        #expect(session.usage == usage)
        _ = try await session.respond(to: "Still?")
        #expect(session.usage.totalTokenCount == 288)
    }

    @Test func aFailedResponsesTokensAreTheSessionsToo() async throws {
        let turn = TokenUsage(promptTokens: 10, completionTokens: 2)
        let model = ScriptedModel(outputs: ["not json", "still not json", "nope"], usages: [turn, turn, turn])
        let session = LanguageModelSession(model: model)
        session.configuration.limits.maximumRepairs = 1
        await #expect(throws: LanguageModelSession.GenerationError.self) { try await session.respond(to: "Advice?", generating: Advice.self) }
        let turns = session.transcript.filter { $0.kind == .modelTurn }.count
        #expect(turns >= 2)
        #expect(session.usage.input.totalTokenCount == 10 * turns)
        #expect(session.usage.output.totalTokenCount == 2 * turns)
    }

    // MARK: - The transcript of a failed response

    /// A session whose second prompt does not fit the model's context (refused before it is sent).
    private func sessionThatFailsItsSecondResponse(_ policy: TranscriptErrorHandlingPolicy?) async throws -> LanguageModelSession {
        let session = LanguageModelSession(model: ScriptedModel(outputs: ["First.", "Third."], contextSize: 256), instructions: "Answer briefly.")
        session.transcriptErrorHandlingPolicy = policy
        _ = try await session.respond(to: "First question?")
        await #expect(throws: LanguageModelError.self) {
            try await session.respond(to: Prompt(String(repeating: "A question far too long for the context. ", count: 40)))
        }
        return session
    }

    @Test func revertTranscriptTakesTheFailedResponseOut() async throws {
        let session = try await sessionThatFailsItsSecondResponse(.revertTranscript)
        #expect(session.transcriptErrorHandlingPolicy == .revertTranscript)
        #expect(session.transcript.map(\.kind) == [.instructions, .prompt, .modelTurn, .response])
        // The conversation goes on from the first response.
        let third = try await session.respond(to: "Third question?")
        #expect(third.content == "Third.")
        #expect(session.transcript.map(\.kind) == [.instructions, .prompt, .modelTurn, .response, .prompt, .modelTurn, .response])
    }

    @Test func preserveTranscriptKeepsTheFailedResponseUpToItsError() async throws {
        for policy in [TranscriptErrorHandlingPolicy.preserveTranscript, nil] {
            let session = try await sessionThatFailsItsSecondResponse(policy)
            #expect(session.transcript.map(\.kind) == [.instructions, .prompt, .modelTurn, .response, .prompt, .error], "\(String(describing: policy))")
            _ = try await session.respond(to: "Third question?")
            #expect(session.transcript.filter { $0.kind == .response }.count == 2)
        }
    }

    @Test func revertTranscriptOfAFirstResponseLeavesNothingAndTheNextStartsAfresh() async throws {
        let session = LanguageModelSession(model: ScriptedModel(outputs: [], path: "empty"), instructions: "Answer briefly.")
        session.transcriptErrorHandlingPolicy = .revertTranscript
        await #expect(throws: LanguageModelSession.GenerationError.self) { try await session.respond(to: "Hello?") }
        #expect(session.transcript.isEmpty)
    }

    // MARK: - Setting the transcript

    @Test func aTranscriptSetBetweenResponsesIsWhatTheModelReadsNext() async throws {
        let earlier = LanguageModelSession(model: ScriptedModel(outputs: ["Porto is rainy."]), instructions: "Answer briefly.")
        _ = try await earlier.respond(to: "Weather in Porto?")

        let spy = RequestSpy(ScriptedModel(outputs: ["Take an umbrella."]))
        let session = LanguageModelSession(model: spy, instructions: "Answer briefly.")
        session.transcript = earlier.transcript
        #expect(session.transcript == earlier.transcript)
        _ = try await session.respond(to: "So, an umbrella?")
        #expect(spy.requests.first?.map(\.content) == ["Answer briefly.", "Weather in Porto?", "Porto is rainy.", "So, an umbrella?"])
        #expect(Array(session.transcript.entries.prefix(earlier.transcript.count)) == earlier.transcript.entries)
    }

    @Test func aTranscriptSetWhileRespondingFailsThatResponseAndTakesItsPlace() async throws {
        let replacement = Transcript(entries: LanguageModelSession.exchange(prompt: "Earlier?", answer: "Earlier.", withTools: false))
        let session = LanguageModelSession(model: ScriptedModel(outputs: ["Slow answer.", "Next."], delaysMs: [400]))
        let response = Task { try await session.respond(to: "Slowly?") }
        while !session.isResponding { try await Task.sleep(nanoseconds: 5_000_000) }

        session.transcript = replacement
        #expect(session.transcript != replacement, "not while the response is under way")
        let result = await response.result
        guard case .failure(LanguageModelSession.GenerationError.transcriptMutationWhileResponding) = result else {
            Issue.record("expected transcriptMutationWhileResponding, got \(result)"); return
        }
        #expect(session.transcript == replacement)
        #expect(!session.isResponding)
        // The session goes on from the transcript set.
        _ = try await session.respond(to: "And now?")
        #expect(session.transcript.filter { $0.kind == .prompt }.count == 2)
    }
}
