import Foundation
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import TrailheadModels

/// The managed local model against a real llama-server on 127.0.0.1 serving SmolLM2-135M.
/// Nothing is skipped: without the binary or the model these tests fail and say how to get them.
final class LocalModelTests: XCTestCase {
    /// A private run directory, so tests never touch a user's running model.
    private var runDirectory = ""
    private var models: [LocalModel] = []

    override func setUpWithError() throws {
        let assets = ModelAssets()
        if case .failure(let reason) = assets.locate(ModelAssets.testModel) {
            XCTFail("the local model tests need llama-server and SmolLM2: \(reason)")
            throw reason
        }
        runDirectory = NSTemporaryDirectory() + "trailhead-models-\(UUID().uuidString)"
    }

    override func tearDown() async throws {
        for model in models { await model.stop() }
        if ProcessInfo.processInfo.environment["KEEP_RUN"] == nil { try? FileManager.default.removeItem(atPath: runDirectory) }
    }

    private func makeModel(port: Int? = nil, assets: ModelAssets = ModelAssets(), idle: Int = 300, slots: Int? = nil) -> LocalModel {
        let model = LocalModel(
            configuration: LocalModelConfiguration(
                model: ModelAssets.testModel, assets: assets, runDirectory: runDirectory, port: port, idleShutdownSeconds: idle,
                parallelSlots: slots))
        models.append(model)
        return model
    }

    private func run(_ model: some LanguageModel, _ request: ModelRequest) async throws -> (deltas: [String], response: ModelResponse) {
        var deltas: [String] = []
        var response: ModelResponse?
        for try await event in model.generate(request) {
            switch event {
            case .text(let t): deltas.append(t)
            case .completed(let r): response = r
            case .usage, .metadata: break
            }
        }
        return (deltas, try XCTUnwrap(response))
    }

    func testStreamsTextAndReportsUsageAndTimings() async throws {
        let model = makeModel()
        let request = ModelRequest(
            messages: [.system("You are terse."), .user("Name three colours.")], options: .init(temperature: 0, seed: 1, maxTokens: 24))
        let (deltas, response) = try await run(model, request)
        XCTAssertGreaterThan(deltas.count, 1, "streamed in several deltas")
        XCTAssertEqual(deltas.joined(), response.text)
        XCTAssertEqual(response.modelID, "local:smollm2-135m-instruct")
        let usage = try XCTUnwrap(response.usage)
        XCTAssertGreaterThan(usage.promptTokens, 5)
        XCTAssertGreaterThan(usage.completionTokens, 0)
        XCTAssertLessThanOrEqual(usage.completionTokens, 24)
        XCTAssertNotNil(response.timings.timeToFirstToken)
        XCTAssertNotNil(response.timings.serverGenerationSeconds)
    }

    func testSchemaConstrainedOutputAlwaysValidatesAndIsCompact() async throws {
        let schema = try GenerationSchema(
            json: GeneratedContent(
                json: #"""
                    {"type":"object","properties":{
                      "date":{"type":"string","pattern":"^\\d{4}-\\d{2}-\\d{2}$"},
                      "kind":{"enum":["trail","museum","viewpoint"]},
                      "hours":{"type":"integer","minimum":1,"maximum":12},
                      "note":{"type":"string","maxLength":20},
                      "tags":{"type":"array","items":{"type":"string","maxLength":8},"minItems":1,"maxItems":3}},
                     "required":["date","kind","hours","tags"],"additionalProperties":false}
                    """#))
        let model = makeModel()
        for seed in 1...5 {
            let request = ModelRequest(
                messages: [.system("Answer with JSON."), .user("Plan one activity in Joshua Tree.")], schema: schema,
                options: .init(temperature: 1.0, seed: seed, maxTokens: 120))
            let (_, response) = try await run(model, request)
            let value = try GeneratedContent(json: response.text)
            XCTAssertEqual(schema.validate(value), [], "seed \(seed): \(response.text)")
            XCTAssertEqual(value.jsonString, response.text, "seed \(seed): whitespace-free")
        }
    }

    func testLlamaServerAcceptsOurGrammarsForRandomSchemasAndOutputValidates() async throws {
        // The grammar text must parse in llama.cpp (a grammar it refuses is an HTTP 400), and
        // what it constrains must validate. A generation cut by max tokens proves nothing
        // either way, so only finished ones are judged (and most must finish).
        var random = RandomSchemas(rng: SeededRandom(seed: 99))
        let model = makeModel()
        var finished = 0
        let count = 8
        for n in 0..<count {
            let schemaJSON = random.rootSchema()
            guard (try GBNFPropertyTests.grammarIfSatisfiable(schemaJSON)) != nil else { continue }
            let schema = try GenerationSchema(json: schemaJSON)
            let response: ModelResponse
            do {
                response = try await model.respond(
                    to: ModelRequest(
                        messages: [.system("Answer with JSON only."), .user("Fill in an example.")], schema: schema,
                        options: .init(temperature: 0.7, seed: n, maxTokens: 160)))
            } catch ModelError.schemaMismatch(_, let message) where message.contains("token limit") {
                continue
            }
            finished += 1
            let value = try GeneratedContent(json: response.text)
            XCTAssertEqual(schema.validate(value), [], "schema #\(n) \(schemaJSON.jsonString): \(response.text)")
        }
        XCTAssertGreaterThanOrEqual(finished, count / 2, "most constrained generations should finish within 160 tokens")
    }

    func testCountsTokensAndPrewarmedPrefixIsReused() async throws {
        let model = makeModel()
        let count = try await model.countTokens("Hello, Joshua Tree!")
        XCTAssertGreaterThan(try XCTUnwrap(count), 2)
        let instructions = ChatMessage.system(String(repeating: "You plan trips to national parks carefully. ", count: 8))
        try await model.prewarm(prefix: [instructions])
        let (_, response) = try await run(
            model, ModelRequest(messages: [instructions, .user("One word: a park.")], options: .init(temperature: 0, maxTokens: 4)))
        let cached = try XCTUnwrap(response.usage?.cachedPromptTokens, "llama.cpp reports cache_n")
        XCTAssertGreaterThan(cached, 40, "the prewarmed instructions came from the cache")
    }

    func testReusesARunningServerAndRecoversFromAStaleStateFile() async throws {
        let first = try await makeModel().start()
        let again = try await makeModel().start()
        XCTAssertEqual(again.pid, first.pid, "a second LocalModel reuses the recorded server")

        // The server dies behind our back, leaving the state file: the next start is fresh.
        kill(first.pid, SIGKILL)
        while ProcessSpawner.isAlive(first.pid) { usleep(10_000) }
        let fresh = try await makeModel().start()
        XCTAssertNotEqual(fresh.pid, first.pid)

        // A corrupt state file is not an error either.
        await makeModel().stop()
        try "{not json".write(toFile: runDirectory + "/local-model.\(ModelAssets.testModel.name).json", atomically: true, encoding: .utf8)
        let afterCorrupt = try await makeModel().start()
        XCTAssertTrue(ProcessSpawner.isAlive(afterCorrupt.pid))
    }

    func testAServerWithOtherSlotsIsReplacedNotReusedAndConcurrentRequestsShareIt() async throws {
        let one = try await makeModel(slots: 1).start()
        XCTAssertEqual(one.slots, 1)
        let three = makeModel(slots: 3)
        let record = try await three.start()
        XCTAssertNotEqual(record.pid, one.pid, "a one-slot server would queue the sessions a three-slot one runs at once")
        XCTAssertEqual(record.slots, 3)
        XCTAssertFalse(ProcessSpawner.isAlive(one.pid))
        // The server says so itself: three slots, each with the configured context.
        let (status, _, body) = try await HTTPStreamingCall.fetch(
            HTTPClient.Request(url: "http://127.0.0.1:\(record.port)/slots"), timeouts: .init(idle: 5, total: 10))
        XCTAssertEqual(status, 200)
        let slots = try GeneratedContent(json: body).arrayValue ?? []
        XCTAssertEqual(slots.count, 3)
        XCTAssertEqual(slots.first?["n_ctx"]?.intValue, three.configuration.contextSize)
        // Three requests at once are answered by the one server.
        let request = ModelRequest(messages: [.user("Say hi.")], options: .init(temperature: 0, maxTokens: 8))
        try await withThrowingTaskGroup(of: ModelResponse.self) { group in
            for _ in 0..<3 { group.addTask { try await three.respond(to: request) } }
            for try await response in group { XCTAssertFalse(response.text.isEmpty) }
        }
    }

    func testStopStopsAndStatusSaysSo() async throws {
        let model = makeModel()
        let record = try await model.start()
        let status = await model.status()
        XCTAssertEqual(status?.pid, record.pid)
        let stopped = await model.stop()
        XCTAssertEqual(stopped?.pid, record.pid)
        XCTAssertFalse(ProcessSpawner.isAlive(record.pid))
        let after = await model.status()
        XCTAssertNil(after)
    }

    func testServerKilledMidStreamIsACleanErrorAndAHybridAnswersFromTheSecondary() async throws {
        let model = makeModel()
        let record = try await model.start()
        let request = ModelRequest(
            messages: [.user("Write a long story about a desert.")], options: .init(temperature: 0.8, seed: 2, maxTokens: 2000))
        var received = 0
        do {
            for try await event in model.generate(request) {
                if case .text = event {
                    received += 1
                    if received == 3 { kill(record.pid, SIGKILL) }
                }
            }
            XCTFail("the stream must fail when the server dies")
        } catch let error as ModelError {
            guard case .connection(_, let message) = error else { return XCTFail("expected a connection error, got \(error)") }
            XCTAssertFalse(message.isEmpty)
        }
        XCTAssertGreaterThanOrEqual(received, 3)

        // The dead server behind a hybrid: the secondary answers and is named.
        let dead = OpenAICompatibleModel(
            configuration: .init(endpoint: try ModelEndpoint(parsing: record.endpoint), retry: .none, idleTimeout: 2, requestTimeout: 5))
        let hybrid = HybridModel(primary: dead, secondary: ScriptedModel(outputs: ["backup answer"], path: "backup"))
        let (_, response) = try await run(hybrid, ModelRequest(messages: [.user("hi")]))
        XCTAssertEqual(response.text, "backup answer")
        XCTAssertEqual(response.modelID, "scripted:backup")

        // And the local model itself recovers: the next request starts a new server.
        let (_, recovered) = try await run(model, ModelRequest(messages: [.user("Say hi.")], options: .init(maxTokens: 4)))
        XCTAssertEqual(recovered.modelID, "local:smollm2-135m-instruct")
        let newRecord = await model.status()
        XCTAssertNotEqual(newRecord?.pid, record.pid)
    }

    func testTheWatchdogStopsAnIdleServer() async throws {
        let model = makeModel(idle: 4)
        let record = try await model.start()
        // Eventually (the watchdog wakes every second): the server is gone and forgotten.
        for _ in 0..<300 where ProcessSpawner.isAlive(record.pid) { try await Task.sleep(nanoseconds: 100_000_000) }
        XCTAssertFalse(ProcessSpawner.isAlive(record.pid), "still running after 30 s")
        XCTAssertFalse(FileManager.default.fileExists(atPath: runDirectory + "/local-model.\(ModelAssets.testModel.name).json"))
        // And the next request simply starts a new one.
        let again = try await model.respond(to: ModelRequest(messages: [.user("hi")], options: .init(maxTokens: 2)))
        XCTAssertEqual(again.modelID, "local:smollm2-135m-instruct")
    }

    func testAFixedPortInUseIsAClearError() async throws {
        let holder = try FakeHTTPServer { _, _ in [] }
        defer { holder.stop() }
        do {
            try await makeModel(port: holder.port).start()
            XCTFail("must refuse a taken port")
        } catch {
            XCTAssertTrue("\(error)".contains("port \(holder.port)") && "\(error)".contains("in use"), "\(error)")
        }
    }

    func testAWrongModelFileIsRefusedWithBothDigests() async throws {
        let cache = runDirectory + "-cache"
        try FileManager.default.createDirectory(atPath: cache + "/models", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: cache) }
        try "not a model".write(toFile: cache + "/models/" + ModelAssets.testModel.fileName, atomically: true, encoding: .utf8)
        let assets = ModelAssets(environment: ["TRAILHEAD_CACHE": cache, "TRAILHEAD_LLAMA_SERVER": ModelAssets().llamaServerPath])
        do {
            try await makeModel(assets: assets).start()
            XCTFail("must refuse the file")
        } catch {
            let text = "\(error)"
            XCTAssertTrue(text.contains(ModelAssets.testModel.sha256), text)
            XCTAssertTrue(text.contains(SHA256.hex(of: Array("not a model".utf8))), text)
        }
    }

    func testMissingFilesSayHowToInstallThem() async throws {
        let model = LocalModel(configuration: .init(assets: ModelAssets(environment: ["TRAILHEAD_CACHE": runDirectory + "-empty"])))
        guard case .unavailable(.notInstalled(_, let fix)) = await model.availability else { return XCTFail("should be notInstalled") }
        XCTAssertTrue(fix.contains("make model"), fix)
        do {
            _ = try await model.respond(to: ModelRequest(messages: [.user("hi")]))
            XCTFail("must fail")
        } catch {
            XCTAssertTrue("\(error)".contains("not installed"), "\(error)")
        }
    }
}
