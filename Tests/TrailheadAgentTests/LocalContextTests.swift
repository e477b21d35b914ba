import Foundation
import Testing
import TrailheadModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import TrailheadAgent

/// The context API and history transforms against a real llama-server on 127.0.0.1 serving the
/// small test model (SmolLM2-135M): plumbing, not answers. Nothing is skipped: without the binary
/// or the model these tests fail and say how to get them.
@Suite(.serialized) final class LocalContextTests {
    /// A private run directory, so tests never touch a user's running model.
    private let runDirectory = NSTemporaryDirectory() + "trailhead-context-\(UUID().uuidString)"

    /// A server of its own (stopped by `finish`, or by its idle watchdog after a failure).
    private func makeModel(contextSize: Int) throws -> LocalModel {
        if case .failure(let reason) = ModelAssets().locate(ModelAssets.testModel) {
            Issue.record("these tests need llama-server and SmolLM2: \(reason)")
            throw reason
        }
        var configuration = LocalModelConfiguration(
            model: ModelAssets.testModel, runDirectory: runDirectory, contextSize: contextSize, idleShutdownSeconds: 120,
            defaultOptions: .init(temperature: 0, seed: 1), parallelSlots: 1)
        configuration.extraServerArguments = ["--metrics"]
        return LocalModel(configuration: configuration)
    }

    private func finish(_ model: LocalModel) async {
        await model.stop()
        try? FileManager.default.removeItem(atPath: runDirectory)
    }

    /// Prompt tokens the server has read since it started (`/metrics`).
    private func promptTokensRead(_ model: LocalModel) async throws -> Double {
        let record = try #require(await model.status())
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(record.port)/metrics")!)
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("llamacpp:prompt_tokens_total") }
        return try #require(line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) })
    }

    @Test func anOverLongPromptFailsBeforeTheServerReadsIt() async throws {
        // Given the managed server with 512 tokens per slot, started and warm…
        let model = try makeModel(contextSize: 512)
        let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
        _ = try await session.respond(to: "Say hello.", options: .init(maximumResponseTokens: 4))
        let readBefore = try await promptTokensRead(model)

        // …a prompt of ~3,000 bytes fails with both numbers, counted by the model's own tokenizer…
        let prompt = String(repeating: "The trail climbs past granite boulders to a quiet ridge. ", count: 52)
        let error = await #expect(throws: LanguageModelError.self) {
            try await session.respond(to: Prompt(prompt), options: .init(maximumResponseTokens: 4))
        }
        guard case .contextSizeExceeded(let info)? = error else {
            Issue.record("expected contextSizeExceeded, got \(String(describing: error))")
            return
        }
        let tokenCount = info.tokenCount
        #expect(info.contextSize == 512)
        #expect(await model.contextSize == 512)
        let history: [ChatMessage] = [.system("Answer briefly."), .user("Say hello.")]
        let exact = try await model.tokenCount(for: history + [.assistant(session.transcript.lastModelText ?? ""), .user(prompt)])
        #expect(tokenCount == exact)
        #expect(tokenCount > 512)
        // …and the server read none of it.
        #expect(try await promptTokensRead(model) == readBefore)
        await finish(model)
    }

    @Test func tokenCountIsWhatTheServerReads() async throws {
        let model = try makeModel(contextSize: 512)
        let messages: [ChatMessage] = [.system("Answer briefly."), .user("Name a colour of the desert at dusk.")]
        let counted = try await model.tokenCount(for: messages)
        let response = try await model.respond(to: ModelRequest(messages: messages, options: .init(maxTokens: 2)))
        #expect(counted == response.usage?.promptTokens)
        await finish(model)
    }

    @Test func fortyResponsesCompleteUnderARollingWindowWithTheirTranscriptWhole() async throws {
        // Given 512 tokens per slot, which forty exchanges overflow…
        let model = try makeModel(contextSize: 512)
        let options = GenerationOptions(maximumResponseTokens: 6)
        let unbounded = LanguageModelSession(model: model, instructions: "Answer in one word.")
        var overflowedAt: Int?
        for turn in 1...40 {
            do { _ = try await unbounded.respond(to: Prompt("Name colour number \(turn)."), options: options) } catch {
                guard case .contextSizeExceeded? = error as? LanguageModelError else { throw error }
                overflowedAt = turn
                break
            }
        }
        #expect(overflowedAt != nil, "without a window the conversation outgrows the context")

        // …under a rolling window all forty complete, and the transcript keeps every one.
        let session = LanguageModelSession(model: model, instructions: "Answer in one word.")
        session.configuration.historyTransform = .rollingWindow(entries: 16)
        for turn in 1...40 { _ = try await session.respond(to: Prompt("Name colour number \(turn)."), options: options) }
        let kinds = session.transcript.map(\.kind)
        #expect(kinds.filter { $0 == .prompt }.count == 40)
        #expect(kinds.filter { $0 == .response }.count == 40)
        #expect(!kinds.contains(.error))
        let turns = session.transcript.compactMap { if case .modelTurn(let turn) = $0 { turn } else { nil } }
        let read = turns.compactMap(\.tokensIn).reduce(0, +), cached = turns.compactMap(\.cachedTokensIn).reduce(0, +)
        print("forty responses under rollingWindow(entries: 16): \(read) prompt tokens, \(cached) of them from the server's cache")
        await finish(model)
    }
}

extension Transcript {
    /// The text of the last model turn.
    var lastModelText: String? {
        entries.last { $0.kind == .modelTurn }.flatMap { if case .modelTurn(let turn) = $0 { turn.text } else { nil } }
    }
}
