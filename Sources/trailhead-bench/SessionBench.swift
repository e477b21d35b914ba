import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema

/// What a session costs per model turn beyond the model itself: the step schema, validation,
/// grounding, the tool call, the transcript. Measured against the bare model calls that make the
/// same turns, with a model that answers at once, so only the runtime's own work is timed.
struct SessionBench: Benchmark {
    let name = "session"

    /// Answers with the next of its outputs at once: one text event and the final record.
    final class InstantModel: LanguageModel, @unchecked Sendable {
        let outputs: [String]
        private var next = 0
        private let lock = NSLock()
        init(_ outputs: [String]) { self.outputs = outputs }
        var id: String { "instant" }
        var availability: ModelAvailability { get async { .available } }
        func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
            let text = lock.withLock { () -> String in
                defer { next += 1 }
                return outputs[next % outputs.count]
            }
            return AsyncThrowingStream { continuation in
                continuation.yield(.text(text))
                continuation.yield(.completed(ModelResponse(
                    text: text, modelID: id, usage: TokenUsage(promptTokens: 100, completionTokens: 20), timings: ModelTimings(total: 0),
                    finishReason: "stop")))
                continuation.finish()
            }
        }
    }

    struct Weather: Tool {
        let name = "weather"
        let description = "Tells the sky over a city."
        struct Arguments: Generable {
            var city: String
            static let generationSchema = SchemaBuilder.object(properties: ["city": .string()]).declaredSchema
        }
        func call(arguments: Arguments) async throws -> String { "rain" }
    }

    struct Advice: Generable {
        var umbrella: Bool
        var reason: String
        static let generationSchema = SchemaBuilder.object(properties: ["umbrella": .boolean(), "reason": .text(words: 1...12)]).declaredSchema
    }

    func run() throws {
        let outputs = [#"{"name":"weather","arguments":{"city":"Porto"}}"#, #"{"answer":{"umbrella":true,"reason":"It rains in Porto today."}}"#]
        let responses = 300
        let (bare, session) = try blocking {
            // The bare model: the same two turns, streamed and consumed.
            let model = InstantModel(outputs)
            let request = ModelRequest(messages: [.user("Umbrella?")])
            var bare: [Double] = []
            for _ in 0..<responses {
                let start = now()
                for _ in 0..<2 { for try await _ in model.generate(request) {} }
                bare.append(now() - start)
            }
            // A fresh session per response (the first turn then also writes the instructions).
            var timed: [Double] = []
            for _ in 0..<responses {
                let session = LanguageModelSession(model: InstantModel(outputs), tools: [Weather()], instructions: "Help travellers.")
                let start = now()
                let response = try await session.respond(to: "Umbrella in Porto?", generating: Advice.self)
                timed.append(now() - start)
                precondition(response.turns == 2 && response.content.umbrella)
            }
            return (bare, timed)
        }
        let perTurn = (percentile(session, 0.5) - percentile(bare, 0.5)) / 2
        print("| what | p50 | p99 |")
        print("|---|---|---|")
        print(String(format: "| bare model, 2 turns | %.1f µs | %.1f µs |", percentile(bare, 0.5) * 1e6, percentile(bare, 0.99) * 1e6))
        print(String(format: "| session respond (tool call + typed answer), 2 turns | %.1f µs | %.1f µs |", percentile(session, 0.5) * 1e6, percentile(session, 0.99) * 1e6))
        print(String(format: "session overhead per turn: %.1f µs (p50; %d responses; load %@)", perTurn * 1e6, responses, loadAverage()))
    }
}
