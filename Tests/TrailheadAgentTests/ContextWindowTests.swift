import Foundation
import Testing
import TrailheadModels

@testable import TrailheadAgent

/// A turn that would not fit the model's context fails before anything is sent, saying how
/// many tokens it took and how many fit.
@Suite struct ContextWindowTests {
    @Test func anOverLongPromptFailsBeforeTheModelIsAskedWithBothNumbers() async throws {
        // Given a model whose context holds 256 tokens…
        let model = ScriptedModel(outputs: ["Never sent."], contextSize: 256)
        let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
        let prompt = String(repeating: "Tell me about the trails of Joshua Tree. ", count: 40)

        // …a prompt of ~1,600 bytes is refused with Foundation Models 27's error, and the script is untouched.
        let error = await #expect(throws: LanguageModelError.self) {
            try await session.respond(to: Prompt(prompt))
        }
        guard case .contextSizeExceeded(let info)? = error else {
            Issue.record("expected contextSizeExceeded, got \(String(describing: error))")
            return
        }
        let expected = TokenEstimate([.system("Answer briefly."), .user(prompt)]).tokens
        #expect(info.tokenCount == expected)
        #expect(info.contextSize == 256)
        #expect(model.used == 0, "no request was sent")
        #expect("\(info.debugDescription)".contains("\(info.tokenCount) tokens") && info.debugDescription.contains("holds 256"))
        #expect(session.transcript.map(\.kind) == [.instructions, .prompt, .error])
    }

    @Test func aPromptThatFitsIsSentAsUsual() async throws {
        let model = ScriptedModel(outputs: ["Sunny."], contextSize: 256)
        let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
        let answer = try await session.respond(to: "Weather in Porto?")
        #expect(answer.content == "Sunny.")
        #expect(await model.contextSize == 256)
    }

    @Test func theEstimateIsBoundedByTheBytes() {
        let messages: [ChatMessage] = [.system("Be brief."), .user(String(repeating: "é", count: 100))]
        let estimate = TokenEstimate(messages)
        #expect(estimate.bytes == "Be brief.".utf8.count + 200 + "system".count + "user".count)
        #expect(estimate.tokens < estimate.upperBound)
        #expect(estimate.upperBound == estimate.bytes + 2 * 8 + 64)
    }

    @Test func instructionsPromptsAndTranscriptsAreCounted() async throws {
        let model = ScriptedModel(outputs: ["Sunny."])
        let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
        _ = try await session.respond(to: "Weather in Porto?")
        let instructions = try await model.tokenCount(for: Instructions("Answer briefly."))
        let prompt = try await model.tokenCount(for: Prompt("Weather in Porto?"))
        let transcript = try await model.tokenCount(for: session.transcript)
        #expect(instructions == TokenEstimate([.system("Answer briefly.")]).tokens)
        #expect(prompt == TokenEstimate([.user("Weather in Porto?")]).tokens)
        #expect(transcript == TokenEstimate([.system("Answer briefly."), .user("Weather in Porto?"), .assistant("Sunny.")]).tokens)
    }
}
