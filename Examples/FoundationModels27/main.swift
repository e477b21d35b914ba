// Foundation Models 27's model protocol, on Trailhead: a model that declares its capabilities and
// reports usage and metadata, Apple's `LanguageModelError`s, `LanguageModelSession.Usage`, the
// transcript's error policy and a settable transcript. Each name is Apple's (docs/FoundationModels.md
// lists the few renames); each is exercised against a model written here or a `ScriptedModel`.
import Foundation
import Trailhead

struct Advice: Generable {
    var umbrella: Bool
    var reason: String
    static let generationSchema = SchemaBuilder.object(properties: ["umbrella": .boolean(), "reason": .string()]).declaredSchema
}

/// A model as Apple's `MyLanguageModel` would be: it calls tools and reasons but cannot follow a
/// schema, streams its text with usage and metadata, and fails with `failure` when given one.
struct EchoModel: LanguageModel {
    var failure: LanguageModelError?
    var id: String { "echo" }
    var availability: ModelAvailability { get async { .available } }
    var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([.toolCalling, .reasoning]) }

    func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        AsyncThrowingStream { channel in
            if let failure { return channel.finish(throwing: failure) }
            let text = "You said: " + (request.messages.last?.content ?? "")
            let usage = TokenUsage(promptTokens: 12, completionTokens: 4, cachedPromptTokens: 8, reasoningTokens: 1)
            channel.yield(.metadata(["modelID": "echo-2026-06-08"]))
            channel.yield(.text(text))
            channel.yield(.usage(usage))
            let response = ModelResponse(
                text: text, modelID: id, usage: usage, timings: ModelTimings(total: 0), finishReason: "stop", metadata: ["modelID": "echo-2026-06-08"])
            channel.yield(.completed(response))
            channel.finish()
        }
    }
}

// Capabilities: asked ahead, and enforced before the model is called.
let echo = EchoModel()
let capability: LanguageModelCapabilities.Capability = .guidedGeneration
print("echo guided generation: \(echo.capabilities.contains(capability)), reasoning: \(echo.capabilities.contains(.reasoning))")
do {
    _ = try await LanguageModelSession(model: echo).respond(to: "Umbrella?", generating: Advice.self)
} catch LanguageModelError.unsupportedCapability(let info) {
    print("unsupportedCapability: \(info.capability)")
}

// Usage and metadata, from the model's events to the response and the session.
let session = LanguageModelSession(model: echo)
let hello = try await session.respond(to: "hello")
let usage: LanguageModelSession.Usage = hello.usage
print(
    "\(hello.content) — input \(usage.input.totalTokenCount) (\(usage.input.cachedTokenCount) cached),",
    "output \(usage.output.totalTokenCount) (\(usage.output.reasoningTokenCount) reasoning),",
    "total \(usage.totalTokenCount), \(usage.metadata["modelID"]?.stringValue ?? "?")")

// Apple's errors, thrown by a model and caught as they are.
let failures: [LanguageModelError] = [
    .rateLimited(.init(resetDate: Date(timeIntervalSince1970: 4_133_980_799), debugDescription: "quota spent", metadata: ["status": 429])),
    .timeout(.init(debugDescription: "no answer in 60 s")),
    .refusal(.init(explanation: "I would rather not.", debugDescription: "refused")),
]
for failure in failures {
    do { _ = try await LanguageModelSession(model: EchoModel(failure: failure)).respond(to: "hi") } catch let error as LanguageModelError {
        switch error {
        case .rateLimited(let info): print("rateLimited until \(Int(info.resetDate?.timeIntervalSince1970 ?? 0)): \(info.debugDescription)")
        case .timeout(let info): print("timeout: \(info.debugDescription), metadata \(info.metadata.count)")
        case .refusal(let info): print("refusal: \(info.explanation)")
        case .contextSizeExceeded, .unsupportedCapability: print("unexpected: \(error)")
        }
    }
}
let small = LanguageModelSession(model: ScriptedModel(outputs: ["never"], contextSize: 64))
do {
    _ = try await small.respond(to: Prompt(String(repeating: "far too long ", count: 40)))
} catch LanguageModelError.contextSizeExceeded(let info) {
    print("contextSizeExceeded: \(info.tokenCount) tokens, context \(info.contextSize)")
}

// A streamed typed answer: each snapshot carries the usage so far; the session adds up every response.
let counted = ScriptedModel(outputs: [#"{"umbrella":true,"reason":"Rain all day."}"#], usages: [TokenUsage(promptTokens: 30, completionTokens: 9)])
let streaming = LanguageModelSession(model: counted)
let stream = streaming.streamResponse(to: "Umbrella in Porto?", generating: Advice.self)
var last: LanguageModelSession.Usage?
for try await snapshot in stream { last = snapshot.usage }
let streamed = try await stream.collect()
print("streamed: last snapshot \(last?.totalTokenCount ?? 0) tokens, response \(streamed.usage.totalTokenCount), session \(streaming.usage.totalTokenCount)")

// What a failed response leaves in the transcript.
for policy in [TranscriptErrorHandlingPolicy.revertTranscript, .preserveTranscript] {
    let failing = LanguageModelSession(model: EchoModel(failure: .timeout(.init(debugDescription: "slow"))))
    failing.transcriptErrorHandlingPolicy = policy
    _ = try? await failing.respond(to: "hi")
    print("\(policy): \(failing.transcript.count) entries after a failure")
}

// A settable transcript: continued between responses, refused during one.
let resumed = LanguageModelSession(model: ScriptedModel(outputs: ["Yes, it was.", "Too late."], delaysMs: [0, 300]))
resumed.transcript = session.transcript
print("resumed: \(try await resumed.respond(to: "Was that an echo?").content)")
let slow = Task { try await resumed.respond(to: "And now?") }
while !resumed.isResponding { try await Task.sleep(nanoseconds: 5_000_000) }
resumed.transcript = Transcript()
do { _ = try await slow.value } catch LanguageModelSession.GenerationError.transcriptMutationWhileResponding {
    print("transcriptMutationWhileResponding: \(resumed.transcript.count) entries now")
}
