import Foundation
import TrailheadSchema
import TrailheadTestSupport
import XCTest

@testable import TrailheadModels

/// Usage and metadata as events of a generation, besides its text: what an OpenAI-compatible
/// stream's last chunk says (`stream_options.include_usage`, llama.cpp's `timings`), what a
/// script recorded, and what every backend declares it can do.
final class ModelUsageEventTests: XCTestCase {
    private func model(_ server: FakeHTTPServer) -> OpenAICompatibleModel {
        OpenAICompatibleModel(
            configuration: .init(endpoint: try! ModelEndpoint(parsing: server.baseURL + "#m"), constraint: .responseFormat, retry: .none))
    }

    private func events(_ model: some LanguageModel) async throws -> [ModelEvent] {
        var events: [ModelEvent] = []
        for try await event in model.generate(ModelRequest(messages: [.user("hi")])) { events.append(event) }
        return events
    }

    func testAStreamedResponseReportsItsUsageAndMetadataBeforeItsFinalRecord() async throws {
        // Given a llama.cpp-like stream whose last chunk has `usage` and `timings`…
        let last = #"data: {"id":"c1","model":"qwen","choices":[],"usage":{"prompt_tokens":40,"completion_tokens":5,"prompt_tokens_details":{"cached_tokens":32},"completion_tokens_details":{"reasoning_tokens":2}},"timings":{"cache_n":32,"prompt_n":8,"prompt_ms":12.5,"predicted_n":5,"predicted_ms":50}}"#
        let server = try FakeHTTPServer { _, _ in
            [
                .send(FakeHTTPServer.head()),
                .send(#"data: {"id":"c1","model":"qwen","choices":[{"index":0,"delta":{"content":"Hel"}}]}"# + "\n\n"),
                .send(#"data: {"id":"c1","model":"qwen","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}"# + "\n\n"),
                .send(last + "\n\ndata: [DONE]\n\n"),
            ]
        }
        defer { server.stop() }
        let events = try await events(model(server))

        // …the text comes first, then the usage and the metadata, then the final record with both.
        let usage = TokenUsage(promptTokens: 40, completionTokens: 5, cachedPromptTokens: 32, reasoningTokens: 2)
        let metadata = events.compactMap { if case .metadata(let m) = $0 { m } else { nil } }
        XCTAssertEqual(metadata.first, ["id": "c1", "model": "qwen"], "who serves it is known from the first chunk")
        XCTAssertEqual(metadata.count, 2, "sent again only when a chunk changed it (the timings)")
        XCTAssertEqual(events.firstIndex(of: .text("lo")).map { $0 < events.firstIndex { if case .usage = $0 { true } else { false } }! }, true)
        XCTAssertEqual(events.compactMap { if case .text(let t) = $0 { t } else { nil } }, ["Hel", "lo"])
        XCTAssertEqual(events.compactMap { if case .usage(let u) = $0 { u } else { nil } }, [usage], "one usage, from the last chunk")
        guard case .completed(let response)? = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(response.usage, usage)
        XCTAssertEqual(response.metadata["timings"]?["prompt_ms"], 12.5)
        XCTAssertEqual(response.metadata["model"], "qwen")
        XCTAssertEqual(response.timings.serverPromptSeconds ?? 0, 0.0125, accuracy: 1e-9)
    }

    func testUsageWithGarbageInItIsIgnoredNeverACrash() async throws {
        for garbage in [
            #"{"prompt_tokens":"many","completion_tokens":3}"#, #"{"prompt_tokens":-1,"completion_tokens":3}"#,
            #"{"prompt_tokens":1.5,"completion_tokens":3}"#, #"{"prompt_tokens":1e300,"completion_tokens":3}"#, #""lots""#, "[1,2]", "null",
        ] {
            let server = try FakeHTTPServer { _, _ in
                [.send(FakeHTTPServer.head() + FakeHTTPServer.chunk("ok") + "data: {\"choices\":[],\"usage\":\(garbage),\"timings\":7}\n\ndata: [DONE]\n\n")]
            }
            defer { server.stop() }
            let events = try await events(model(server))
            XCTAssertFalse(events.contains { if case .usage = $0 { true } else { false } }, garbage)
            guard case .completed(let response)? = events.last else { return XCTFail("\(garbage): \(events)") }
            XCTAssertEqual(response.text, "ok", garbage)
            XCTAssertNil(response.usage, garbage)
        }
    }

    func testAScriptReplaysTheUsageItRecorded() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        {"kind":"modelTurn","text":"counted","tokensIn":20,"cachedTokensIn":16,"tokensOut":2}
        {"kind":"modelTurn","text":"garbage counts","tokensIn":"twenty","tokensOut":2}
        "a bare string"
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let model = try ScriptedModel(path: path)
        let counted = try await events(model)
        XCTAssertTrue(counted.contains(.usage(TokenUsage(promptTokens: 20, completionTokens: 2, cachedPromptTokens: 16))), "\(counted)")
        for _ in 0..<2 {
            let uncounted = try await events(model)
            XCTAssertFalse(uncounted.contains { if case .usage = $0 { true } else { false } })
        }
    }

    func testEveryBackendDeclaresItsCapabilities() throws {
        let both = LanguageModelCapabilities([.toolCalling, .guidedGeneration])
        let endpoint = try ModelEndpoint(parsing: "http://127.0.0.1:9/v1#m")
        XCTAssertEqual(OpenAICompatibleModel(configuration: .init(endpoint: endpoint)).capabilities, both)
        let textOnly = OpenAICompatibleModel(configuration: .init(endpoint: endpoint, capabilities: LanguageModelCapabilities([.reasoning])))
        XCTAssertTrue(textOnly.capabilities.contains(.reasoning))
        XCTAssertFalse(textOnly.capabilities.contains(.guidedGeneration))
        XCTAssertEqual(LocalModel(configuration: .init(model: ModelAssets.testModel)).capabilities, both)
        XCTAssertEqual(SystemLanguageModel.default.capabilities, both)
        XCTAssertEqual(ScriptedModel(outputs: []).capabilities, both)
        let plain = ScriptedModel(outputs: ["plain"], path: "plain", capabilities: LanguageModelCapabilities([]))
        XCTAssertEqual(plain.skipping(0).capabilities, LanguageModelCapabilities([]), "a script's later part declares the same")
        // A hybrid or a fleet can do what any member can, and sends a request where it can be served.
        XCTAssertEqual(HybridModel(primary: plain, secondary: textOnly).capabilities, LanguageModelCapabilities([.reasoning]))
        XCTAssertEqual(ModelFleet([.init(plain, slots: 1), .init(textOnly, slots: 1)]).capabilities, LanguageModelCapabilities([.reasoning]))
        XCTAssertEqual(both.description, "guided generation, tool calling")
    }

    func testAHybridSendsASchemaToTheMemberThatCanFollowIt() async throws {
        let plain = ScriptedModel(outputs: ["never"], path: "plain", capabilities: LanguageModelCapabilities([]))
        let guided = ScriptedModel(outputs: [#"{"days":2}"#], path: "guided")
        let schema = try GenerationSchema(json: ["type": "object", "properties": ["days": ["type": "integer"]]])
        let answer = try await HybridModel(primary: plain, secondary: guided).respond(to: ModelRequest(messages: [.user("days?")], schema: schema))
        XCTAssertEqual(answer.modelID, "scripted:guided")
        XCTAssertEqual(plain.used, 0)
        do {
            _ = try await HybridModel(primary: plain, secondary: plain).respond(to: ModelRequest(messages: [.user("days?")], schema: schema))
            XCTFail("neither member follows a schema")
        } catch LanguageModelError.unsupportedCapability(let info) {
            XCTAssertEqual(info.capability, .guidedGeneration)
        }
        XCTAssertEqual(plain.used, 0, "nothing was sent")
    }
}
