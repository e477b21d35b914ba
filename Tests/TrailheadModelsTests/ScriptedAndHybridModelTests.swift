import Foundation
import TrailheadSchema
import TrailheadSupport
import XCTest

@testable import TrailheadModels

final class ScriptedAndHybridModelTests: XCTestCase {
    private func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "trailhead-script-\(UUID().uuidString).jsonl"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func texts(_ model: some LanguageModel) async throws -> (chunks: [String], response: ModelResponse) {
        var chunks: [String] = []
        var response: ModelResponse?
        for try await event in model.generate(ModelRequest(messages: [.user("go")])) {
            switch event {
            case .text(let t): chunks.append(t)
            case .completed(let r): response = r
            case .usage, .metadata: break
            }
        }
        return (chunks, try XCTUnwrap(response))
    }

    func testReplaysTranscriptModelTurnsInOrderThenIsExhausted() async throws {
        let path = try temporaryFile(
            """
            {"kind":"instructions","text":"plan trips"}
            {"kind":"modelTurn","text":"{\\"name\\":\\"poi\\",\\"arguments\\":{}}","tokensIn":10}
            {"kind":"toolOutput","output":{"result":1}}
            {"kind":"modelTurn","text":"{\\"answer\\":{\\"days\\":[]}}"}
            """)
        let model = try ScriptedModel(path: path, chunkSize: 5)
        let first = try await texts(model)
        XCTAssertEqual(first.response.text, #"{"name":"poi","arguments":{}}"#)
        XCTAssertEqual(first.chunks.joined(), first.response.text)
        XCTAssertTrue(first.chunks.count > 1 && first.chunks.allSatisfy { $0.count <= 5 })
        let second = try await texts(model)
        XCTAssertEqual(second.response.text, #"{"answer":{"days":[]}}"#)
        do {
            _ = try await texts(model)
            XCTFail("must be exhausted")
        } catch let error as ModelError {
            XCTAssertEqual(error, .scriptExhausted(path: path, used: 2))
            XCTAssertTrue(error.description.contains("no more outputs"))
        }
    }

    func testJSONLinesOfStringsAndABadLine() throws {
        let good = try ScriptedModel(path: try temporaryFile("\"one\"\n{\"text\":\"two\"}\n"))
        XCTAssertEqual(good.id.hasPrefix("scripted:"), true)
        XCTAssertThrowsError(try ScriptedModel(path: try temporaryFile("\"one\"\nnot json\n"))) { error in
            XCTAssertTrue("\(error)".contains("line 2"), "\(error)")
        }
    }

    func testHybridFallsBackWhenThePrimaryIsUnavailableOrFailsBeforeOutput() async throws {
        let unavailable = OpenAICompatibleModel(
            configuration: .init(endpoint: try ModelEndpoint(parsing: "http://127.0.0.1:\(try LocalPorts.freePort())/v1"), retry: .none))
        let backup = ScriptedModel(outputs: ["from backup", "again"], path: "backup")
        let hybrid = HybridModel(primary: unavailable, secondary: backup)
        let fallback = try await texts(hybrid)
        XCTAssertEqual(fallback.response.modelID, "scripted:backup")

        let failing = FailingModel()
        let preferSecond = HybridModel(primary: backup, secondary: failing, prefer: .secondary)
        let answer = try await texts(preferSecond)
        XCTAssertEqual(answer.response.text, "again")
        XCTAssertEqual(answer.response.modelID, "scripted:backup")
    }

    func testPreferRemoteFallsBackOnlyWhenTheRemoteIsUnreachable() async throws {
        let local = ScriptedModel(outputs: ["local answer", "local again"], path: "local")
        // Given a remote that nothing answers (offline): the local model answers.
        let offline = OpenAICompatibleModel(
            configuration: .init(endpoint: try ModelEndpoint(parsing: "http://127.0.0.1:\(try LocalPorts.freePort())/v1"), retry: .none))
        let answered = try await texts(HybridModel(primary: offline, secondary: local))
        XCTAssertEqual(answered.response.modelID, "scripted:local")
        // Given a remote that answers with an error: it is thrown, the local model is not asked.
        let overloaded = ErrorModel(error: .httpStatus(model: "remote", status: 503, body: "overloaded"))
        do {
            _ = try await texts(HybridModel(primary: overloaded, secondary: local))
            XCTFail("a remote's HTTP error is not a reason to fall back")
        } catch {
            XCTAssertTrue("\(error)".contains("503"), "\(error)")
        }
        XCTAssertEqual(local.used, 1)
        // Prefer local (or any model asked to): every failure falls back.
        let anyFailure = try await texts(HybridModel(primary: overloaded, secondary: local, fallback: .onAnyFailure))
        XCTAssertEqual(anyFailure.response.text, "local again")
        XCTAssertEqual(HybridModel.hybridModel(primary: local, secondary: overloaded).fallback, .onAnyFailure)
        XCTAssertEqual(HybridModel.hybridModel(primary: offline, secondary: local).fallback, .whenUnreachable)
    }

    func testHybridAppliesEachBackendsOptions() async throws {
        let spy = OptionsSpy()
        let hybrid = HybridModel(
            primary: FailingModel(), secondary: spy, primaryOptions: .init(maxTokens: 999),
            secondaryOptions: .init(temperature: 0.1, maxTokens: 50))
        _ = try await hybrid.respond(to: ModelRequest(messages: [.user("x")], options: .init(temperature: 0.9, seed: 4)))
        XCTAssertEqual(spy.seen.current, [GenerationOptions(temperature: 0.1, seed: 4, maxTokens: 50)])
    }

    func testHybridReportsBothFailures() async throws {
        let hybrid = HybridModel(primary: FailingModel(), secondary: ScriptedModel(outputs: [], path: "empty"))
        do {
            _ = try await texts(hybrid)
            XCTFail("must fail")
        } catch {
            XCTAssertTrue("\(error)".contains("boom") && "\(error)".contains("no more outputs"), "\(error)")
        }
    }
}

/// Available, but every generation fails before any output.
private struct FailingModel: LanguageModel {
    var id: String { "failing" }
    var availability: ModelAvailability { get async { .available } }
    func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        AsyncThrowingStream { $0.finish(throwing: ModelError.connection(model: id, message: "boom")) }
    }
}

/// Available, and every generation fails with `error`.
private struct ErrorModel: LanguageModel {
    var error: ModelError
    var id: String { "remote" }
    var availability: ModelAvailability { get async { .available } }
    func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        AsyncThrowingStream { $0.finish(throwing: error) }
    }
}

/// Records the options of each request and answers "ok".
private final class OptionsSpy: LanguageModel, Sendable {
    let seen = Locked<[GenerationOptions]>([])
    var id: String { "spy" }
    var availability: ModelAvailability { get async { .available } }
    func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        seen.withLock { $0.append(request.options) }
        return ScriptedModel(outputs: ["ok"], path: "spy").generate(request)
    }
}

final class ModelSpecifierTests: XCTestCase {
    func testSpecifiers() throws {
        XCTAssertEqual(try ModelSpecifier.model("local").id, "local:qwen2.5-coder-1.5b-instruct")
        XCTAssertEqual(try ModelSpecifier.model("local:test").id, "local:smollm2-135m-instruct")
        XCTAssertEqual(try ModelSpecifier.model("http://127.0.0.1:9/v1#m").id, "http://127.0.0.1:9/v1#m")
        XCTAssertEqual(try ModelSpecifier.model("http://127.0.0.1:9/v1#m,local").id, "hybrid(http://127.0.0.1:9/v1#m, local:qwen2.5-coder-1.5b-instruct)")
        XCTAssertThrowsError(try ModelSpecifier.model("gpt-4")) { error in
            XCTAssertTrue("\(error)".contains("is not a model"), "\(error)")
        }
    }
}
