import Foundation
import Synchronization
import Testing
import Trailhead

@testable import TrailheadAgent

/// Foundation Models 27's session surface with scripted models: usage on responses, snapshots and
/// the session.
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
}
