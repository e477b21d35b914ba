import Dispatch
import Foundation
import TrailheadModels
import TrailheadSchema

/// `trailhead-bench model`: the managed local default (Qwen2.5-Coder-1.5B on llama-server):
/// load time; time to first token cold, on a running server, and prewarmed; and what putting
/// the schema in the prompt and the grammar's whitespace cost in tokens and time.
///
/// `TRAILHEAD_BENCH_REPS` (default 3) sets the repetitions; `TRAILHEAD_BENCH_MODEL=test` runs it
/// on SmolLM2-135M (token counts of the plumbing only). Every request starts its system message
/// with a fresh run tag, so no request reuses another's cached prefix unless it is meant to.
struct ModelBench: Benchmark {
    let name = "model"
    let repetitions = Int(ProcessInfo.processInfo.environment["TRAILHEAD_BENCH_REPS"] ?? "") ?? 3
    let file = ProcessInfo.processInfo.environment["TRAILHEAD_BENCH_MODEL"] == "test" ? ModelAssets.testModel : ModelAssets.defaultModel

    static let schema = try! GenerationSchema(
        json: GeneratedContent(
            json: #"""
                {"type":"object","properties":{"landmark":{"type":"string","maxLength":40},
                 "days":{"type":"array","minItems":2,"maxItems":2,"items":{"type":"object","properties":{
                   "date":{"type":"string","pattern":"^\\d{4}-\\d{2}-\\d{2}$"},
                   "activities":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"object","properties":{
                     "name":{"type":"string","maxLength":40},"kind":{"enum":["trail","viewpoint","museum","restaurant"]}},
                     "required":["name","kind"],"additionalProperties":false}}},
                  "required":["date","activities"],"additionalProperties":false}}},
                 "required":["landmark","days"],"additionalProperties":false}
                """#))

    static let instructions = """
        You plan short trips. Answer with one JSON object: the landmark, and for each day its date \
        (YYYY-MM-DD) and one or two activities with a name and a kind (trail, viewpoint, museum or \
        restaurant). Use real places near the landmark. Keep names short.
        """

    func run() throws {
        let assets = ModelAssets()
        if case .failure(let reason) = assets.locate(file) { throw reason }
        let runDirectory = NSTemporaryDirectory() + "trailhead-bench-model-\(getpid())"
        let model = LocalModel(
            configuration: .init(model: file, runDirectory: runDirectory, idleShutdownSeconds: 300, defaultOptions: .init(temperature: 0)))
        defer { _ = blocking { await model.stop() } }

        var load: [Double] = [], cold: [Double] = [], warmServer: [Double] = [], prewarmed: [Double] = []
        for rep in 0..<repetitions {
            _ = blocking { await model.stop() }
            let started = now()
            try blocking { _ = try await model.start() }
            load.append(now() - started)
            // The first request on a fresh server pays for the whole prompt.
            cold.append(try ttft(model, nonce: "cold \(rep)"))
            // A running server, but new instructions: no cached prefix.
            warmServer.append(try ttft(model, nonce: "warm \(rep)"))
            // Prewarmed: the instructions are already in the cache.
            let prefix = [ChatMessage.system(Self.tagged("prewarm \(rep)"))]
            try blocking { try await model.prewarm(prefix: prefix) }
            prewarmed.append(try ttft(model, nonce: "prewarm \(rep)"))
        }
        say("| local model (\(file.name), 2 threads) | median of \(repetitions) |")
        say("|---|---|")
        say(String(format: "| server start + model load | %.2f s |", percentile(load, 0.5)))
        say(String(format: "| time to first token, fresh server | %.2f s |", percentile(cold, 0.5)))
        say(String(format: "| time to first token, running server, new instructions | %.2f s |", percentile(warmServer, 0.5)))
        say(String(format: "| time to first token, prewarmed instructions | %.2f s |", percentile(prewarmed, 0.5)))
        say("")

        say("| first turn under the itinerary schema | prompt tokens | completion tokens | TTFT | total |")
        say("|---|---|---|---|---|")
        let local = try blocking { try await model.start() }
        let llamaDefault = OpenAICompatibleModel(
            configuration: .init(
                endpoint: try ModelEndpoint(parsing: local.endpoint), constraint: .responseFormat,
                defaultOptions: .init(temperature: 0), idleTimeout: 120))
        let variants: [(String, any LanguageModel, Bool)] = [
            ("schema in the prompt (pretty), our compact grammar", model, true),
            ("schema out of the prompt, our compact grammar", model, false),
            ("schema out of the prompt, llama.cpp's json_schema grammar", llamaDefault, false),
        ]
        for (label, backend, schemaInPrompt) in variants {
            var results: [ModelResponse] = []
            for rep in 0..<repetitions {
                var system = Self.tagged("\(label) \(rep)")
                if schemaInPrompt { system += "\nThe JSON schema of the answer:\n" + Self.schema.json.prettyJSONString }
                let request = ModelRequest(
                    messages: [.system(system), .user("Joshua Tree, 2 days from 2025-04-12.")], schema: Self.schema,
                    options: .init(temperature: 0, seed: 1, maxTokens: 400))
                results.append(try blocking { try await backend.respond(to: request) })
            }
            let prompt = results.map { Double($0.usage?.promptTokens ?? 0) }
            let completion = results.map { Double($0.usage?.completionTokens ?? 0) }
            say(
                String(
                    format: "| %@ | %.0f | %.0f | %.2f s | %.2f s |", label, percentile(prompt, 0.5), percentile(completion, 0.5),
                    percentile(results.map { $0.timings.timeToFirstToken ?? .nan }, 0.5), percentile(results.map(\.timings.total), 0.5)))
        }
    }

    /// The instructions behind a tag that differs per run: the tag comes first, so the prompt
    /// shares no prefix with earlier runs.
    static func tagged(_ tag: String) -> String { "[run \(tag)] " + instructions }

    /// Prints a line at once (stdout to a file is block-buffered; a long benchmark should show
    /// its progress).
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private func ttft(_ model: LocalModel, nonce: String) throws -> Double {
        let request = ModelRequest(
            messages: [.system(Self.tagged(nonce)), .user("Joshua Tree, 2 days from 2025-04-12.")],
            schema: Self.schema, options: .init(temperature: 0, seed: 1, maxTokens: 8))
        let started = now()
        return try blocking {
            for try await event in model.generate(request) {
                if case .text = event { return now() - started }
            }
            return now() - started
        }
    }
}

/// Waits for async work from the synchronous benchmark runner.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = BlockingResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    try! blocking { () async throws -> T in await body() }
}

/// Written by the task before the semaphore is signalled, read after the wait.
private final class BlockingResult<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
