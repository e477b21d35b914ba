import Foundation
import TrailheadSchema
import TrailheadTestSupport
import XCTest

@testable import TrailheadModels

/// The HTTP backend against a fake server on 127.0.0.1 that misbehaves on purpose.
final class OpenAICompatibleModelTests: XCTestCase {
    private func model(_ server: FakeHTTPServer, retries: Int = 2, idle: Double = 2, apiKeyVariable: String? = nil) -> OpenAICompatibleModel {
        OpenAICompatibleModel(
            configuration: .init(
                endpoint: try! ModelEndpoint(parsing: server.baseURL + "#fake-model"), apiKeyEnvironmentVariable: apiKeyVariable,
                constraint: .responseFormat, retry: RetryPolicy(maximumRetries: retries, initialDelay: 0.05, maximumDelay: 0.2),
                idleTimeout: idle, requestTimeout: 10))
    }

    private let request = ModelRequest(messages: [.system("be brief"), .user("hi")], options: .init(temperature: 0, seed: 3, maxTokens: 20))

    private func collect(_ model: some LanguageModel, _ request: ModelRequest) async throws -> (deltas: [String], response: ModelResponse) {
        var deltas: [String] = []
        var final: ModelResponse?
        for try await event in model.generate(request) {
            switch event {
            case .text(let t): deltas.append(t)
            case .completed(let r): final = r
            case .usage, .metadata: break
            }
        }
        return (deltas, try XCTUnwrap(final))
    }

    func testStreamsDeltasAndRecordsUsageAndSendsTheRequestFields() async throws {
        let server = try FakeHTTPServer { _, _ in FakeHTTPServer.stream(["Hel", "lo", " there"]) }
        defer { server.stop() }
        let (deltas, response) = try await collect(model(server), request)
        XCTAssertEqual(deltas, ["Hel", "lo", " there"])
        XCTAssertEqual(response.text, "Hello there")
        XCTAssertEqual(response.usage, TokenUsage(promptTokens: 12, completionTokens: 3))
        XCTAssertEqual(response.finishReason, "stop")
        XCTAssertEqual(response.modelID, server.baseURL + "#fake-model")
        let body = try GeneratedContent(json: XCTUnwrap(server.requests.first).body)
        XCTAssertEqual(body["model"], "fake-model")
        XCTAssertEqual(body["stream"], true)
        XCTAssertEqual(body["stream_options"]?["include_usage"], true)
        XCTAssertEqual(body["seed"], 3)
        XCTAssertEqual(body["max_tokens"], 20)
        XCTAssertNil(body["tools"])
        XCTAssertEqual(server.requests.first?.path, "/v1/chat/completions")
    }

    func testSchemaGoesAsResponseFormatAndAMismatchIsAClearError() async throws {
        let server = try FakeHTTPServer { _, _ in FakeHTTPServer.stream([#"{"days":"#, "2}"]) }
        defer { server.stop() }
        let schema = try GenerationSchema(json: ["type": "object", "properties": ["days": ["type": "string"]], "required": ["days"]])
        var constrained = request
        constrained.schema = schema
        do {
            _ = try await collect(model(server), constrained)
            XCTFail("a mismatching output must fail")
        } catch let error as ModelError {
            guard case .schemaMismatch(_, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("/days"), message)
        }
        let body = try GeneratedContent(json: XCTUnwrap(server.requests.first).body)
        XCTAssertEqual(body["response_format"]?["type"], "json_schema")
        XCTAssertEqual(body["response_format"]?["json_schema"]?["strict"], true)
        XCTAssertEqual(body["response_format"]?["json_schema"]?["schema"], schema.json)
    }

    func testRetriesAfter429ThenSucceeds() async throws {
        let server = try FakeHTTPServer { n, _ in
            n == 0
                ? [.send(FakeHTTPServer.head(status: 429, type: "application/json", extra: "Retry-After: 0\r\n") + #"{"error":"slow down"}"#)]
                : FakeHTTPServer.stream(["ok"])
        }
        defer { server.stop() }
        let (_, response) = try await collect(model(server), request)
        XCTAssertEqual(response.text, "ok")
        XCTAssertEqual(server.requests.count, 2)
    }

    func testPersistent500GivesUpAfterBoundedRetries() async throws {
        let server = try FakeHTTPServer { _, _ in [.send(FakeHTTPServer.head(status: 503, type: "text/plain") + "loading model")] }
        defer { server.stop() }
        do {
            _ = try await collect(model(server, retries: 2), request)
            XCTFail("must fail")
        } catch let error as ModelError {
            XCTAssertEqual(error, .httpStatus(model: server.baseURL + "#fake-model", status: 503, body: "loading model"))
        }
        XCTAssertEqual(server.requests.count, 3)
    }

    func testGarbageIsAProtocolError() async throws {
        let server = try FakeHTTPServer { _, _ in [.send(FakeHTTPServer.head() + "this is not an event stream\n\n")] }
        defer { server.stop() }
        do {
            _ = try await collect(model(server), request)
            XCTFail("must fail")
        } catch let error as ModelError {
            guard case .protocolViolation(_, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("not an event stream"), message)
        }
    }

    func testNonJSONEventIsAProtocolError() async throws {
        let server = try FakeHTTPServer { _, _ in [.send(FakeHTTPServer.head() + FakeHTTPServer.chunk("a") + "data: {broken\n\n")] }
        defer { server.stop() }
        do {
            _ = try await collect(model(server), request)
            XCTFail("must fail")
        } catch let error as ModelError {
            guard case .protocolViolation(_, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("not JSON"), message)
        }
    }

    func testConnectionClosedMidStreamIsAConnectionError() async throws {
        let server = try FakeHTTPServer { _, _ in [.send(FakeHTTPServer.head() + FakeHTTPServer.chunk("partial")), .pause(0.1), .close] }
        defer { server.stop() }
        var deltas: [String] = []
        do {
            for try await event in model(server).generate(request) { if case .text(let t) = event { deltas.append(t) } }
            XCTFail("must fail")
        } catch let error as ModelError {
            guard case .connection(_, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("before it was complete") || message.contains("broke"), message)
        }
        XCTAssertEqual(deltas, ["partial"])
    }

    /// A hostile or broken model server: each framing mistake is a ModelError naming the model,
    /// never a trap (libcurl parses the framing).
    func testBrokenFramingIsAnErrorNeverACrash() async throws {
        let framings = [
            "HTTP/1.1 200 X\r\nContent-Type: text/event-stream\r\nContent-Length: -5\r\n\r\n" + FakeHTTPServer.chunk("a"),
            "HTTP/1.1 200 X\r\nContent-Type: text/event-stream\r\nContent-Length: 3\r\nContent-Length: 9\r\n\r\n" + FakeHTTPServer.chunk("a"),
            "HTTP/1.1 200 X\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nabc\r\n0\r\n\r\n",
            "HTTP/1.1 200 X\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
            "HTTP/1.1 200 X\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\nfff\r\ndata: {\"choices\"",
            "HTTP/1.1 200 X\r\n" + String(repeating: "X-Endless: \(String(repeating: "h", count: 1000))\r\n", count: 400),
            "HTTP/1.1 -200 X\r\n\r\n",
            "NOT HTTP AT ALL\r\n\r\n",
        ]
        for framing in framings {
            let server = try FakeHTTPServer { _, _ in [.send(framing), .close] }
            defer { server.stop() }
            do {
                _ = try await collect(model(server, retries: 0), request)
                XCTFail("must fail: \(framing.prefix(80).debugDescription)")
            } catch let error as ModelError {
                XCTAssertTrue(error.description.contains("fake-model"), "\(framing.prefix(60).debugDescription): \(error)")
            }
        }
    }

    func testSilentServerHitsTheIdleTimeout() async throws {
        let server = try FakeHTTPServer { _, _ in [.send(FakeHTTPServer.head()), .pause(5)] }
        defer { server.stop() }
        do {
            _ = try await collect(model(server, idle: 0.5), request)
            XCTFail("must fail")
        } catch LanguageModelError.timeout(let info) {
            XCTAssertEqual(info.debugDescription, server.baseURL + "#fake-model: no answer within 0.5 s")
            XCTAssertEqual(info.metadata["seconds"] as? Double, 0.5)
        }
    }

    func testRefusedConnectionIsRetriedThenReported() async throws {
        let port = try LocalPorts.freePort()
        let model = OpenAICompatibleModel(
            configuration: .init(
                endpoint: try ModelEndpoint(parsing: "http://127.0.0.1:\(port)/v1"), constraint: .responseFormat,
                retry: RetryPolicy(maximumRetries: 2, initialDelay: 0.01), idleTimeout: 2, requestTimeout: 5))
        do {
            _ = try await collect(model, request)
            XCTFail("must fail")
        } catch let error as ModelError {
            guard case .connection(_, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("127.0.0.1:\(port)"), message)
        }
        guard case .unavailable(.unreachable) = await model.availability else { return XCTFail("should be unreachable") }
    }

    func testCancellationCancelsTheRequest() async throws {
        let server = try FakeHTTPServer { _, _ in
            [.send(FakeHTTPServer.head())] + (0..<100).flatMap { _ in [FakeHTTPServer.Step.send(FakeHTTPServer.chunk("x")), .pause(0.05)] }
        }
        defer { server.stop() }
        let model = self.model(server)
        let request = self.request
        let task = Task {
            var count = 0
            for try await event in model.generate(request) { if case .text = event { count += 1 } }
            return count
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()
        let result = await task.result
        switch result {
        case .success(let count): XCTAssertLessThan(count, 100)
        case .failure(let error): XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    func testMissingAPIKeyIsNotConfiguredAndTheKeyIsNeverShown() async throws {
        let variable = "TRAILHEAD_TEST_KEY_\(UInt32.random(in: 0...UInt32.max))"
        let server = try FakeHTTPServer { _, _ in FakeHTTPServer.stream(["x"]) }
        defer { server.stop() }
        let model = self.model(server, apiKeyVariable: variable)
        guard case .unavailable(.notConfigured(let detail, let fix)) = await model.availability else { return XCTFail("should be notConfigured") }
        XCTAssertTrue(detail.contains(variable) && fix.contains(variable))

        setenv(variable, "sk-secret-123", 1)
        defer { unsetenv(variable) }
        let echo = try FakeHTTPServer { _, request in
            [.send(FakeHTTPServer.head(status: 401, type: "text/plain") + "bad key sk-secret-123")]
        }
        defer { echo.stop() }
        do {
            _ = try await collect(self.model(echo, apiKeyVariable: variable), request)
            XCTFail("must fail")
        } catch {
            XCTAssertFalse("\(error)".contains("sk-secret-123"), "\(error)")
            XCTAssertTrue("\(error)".contains("[redacted]"), "\(error)")
        }
    }

    func testEndpointParsing() throws {
        let endpoint = try ModelEndpoint(parsing: "http://127.0.0.1:8080/v1/#qwen")
        XCTAssertEqual(endpoint.baseURL.absoluteString, "http://127.0.0.1:8080/v1")
        XCTAssertEqual(endpoint.modelName, "qwen")
        XCTAssertEqual(endpoint.serverRoot.absoluteString, "http://127.0.0.1:8080")
        XCTAssertThrowsError(try ModelEndpoint(parsing: "127.0.0.1:8080"))
    }
}
