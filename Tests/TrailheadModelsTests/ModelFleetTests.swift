import Foundation
import Synchronization
import TrailheadSchema
import TrailheadTestSupport
import XCTest

@testable import TrailheadModels

/// A fleet of endpoints as one model, and each endpoint's structured-output dialect, against
/// fake OpenAI-compatible servers on 127.0.0.1 (a llama.cpp, a vLLM, an OpenAI) and a dead port.
final class ModelFleetTests: XCTestCase {
    private let schema = try! GenerationSchema(json: ["type": "object", "properties": ["days": ["type": "integer"]], "required": ["days"]])

    private func endpoint(_ url: String) -> OpenAICompatibleModel {
        OpenAICompatibleModel(configuration: .init(
            endpoint: try! ModelEndpoint(parsing: url + "#m"), retry: RetryPolicy(maximumRetries: 0), idleTimeout: 5, requestTimeout: 10))
    }

    /// A server that answers `/props` or `/version` as `kind` does and every generation with `{"days":2}`.
    private func server(_ kind: String, pause: Double = 0) throws -> FakeHTTPServer {
        try FakeHTTPServer { _, request in
            switch (kind, request.path) {
            case ("llama", "/props"):
                return [.send(FakeHTTPServer.head(type: "application/json") + #"{"default_generation_settings":{},"total_slots":2}"#)]
            case ("vllm", "/version"): return [.send(FakeHTTPServer.head(type: "application/json") + #"{"version":"0.12.1"}"#)]
            case ("old-vllm", "/version"): return [.send(FakeHTTPServer.head(type: "application/json") + #"{"version":"0.11.2"}"#)]
            case (_, "/v1/chat/completions"):
                return [.pause(pause)] + FakeHTTPServer.stream([#"{"days":"#, "2}"])
            default:
                return [.send(FakeHTTPServer.head(status: 404, type: "application/json") + #"{"error":"not found"}"#)]
            }
        }
    }

    private func constrainedRequest() -> ModelRequest { ModelRequest(messages: [.user("How many days?")], schema: schema) }

    func testEachEndpointIsProbedOnceAndGetsItsOwnDialect() async throws {
        for (kind, dialect, field) in [
            ("llama", StructuredOutputDialect.llamaCppGrammar, "grammar"), ("vllm", .vllmStructuredOutputs, "structured_outputs"),
            ("old-vllm", .vllmGuidedJSON, "guided_json"), ("openai", .responseFormat, "response_format"),
        ] {
            let fake = try server(kind)
            defer { fake.stop() }
            let model = endpoint(fake.baseURL)
            let answer = try await model.respond(to: constrainedRequest())
            XCTAssertEqual(answer.text, #"{"days":2}"#)
            let dialectSeen = await model.dialect()
            XCTAssertEqual(dialectSeen, dialect, kind)
            _ = try await model.respond(to: constrainedRequest())
            let generations = fake.requests.filter { $0.path == "/v1/chat/completions" }
            XCTAssertEqual(generations.count, 2)
            XCTAssertEqual(fake.requests.count - generations.count, kind == "llama" ? 1 : 2, "\(kind): probed once, not per request")
            let body = try GeneratedContent(json: Array(generations[0].body.utf8))
            XCTAssertNotNil(body[field], "\(kind) gets \(field): \(body.jsonString.prefix(200))")
            for other in ["grammar", "structured_outputs", "guided_json", "response_format"] where other != field {
                XCTAssertNil(body[other], "\(kind) gets no \(other)")
            }
        }
    }

    func testAFailedEndpointIsSkippedAndLeftOutWhileItCoolsDown() async throws {
        let healthy = try server("openai")
        defer { healthy.stop() }
        let dead = endpoint("http://127.0.0.1:\(try LocalPorts.freePort())/v1")
        let fleet = ModelFleet([.init(dead, slots: 4), .init(endpoint(healthy.baseURL), slots: 4)], cooldown: 60)
        for _ in 0..<3 {
            let answer = try await fleet.respond(to: constrainedRequest())
            XCTAssertEqual(answer.modelID, healthy.baseURL + "#m", "the endpoint that answered is named")
        }
        XCTAssertEqual(fleet.counts.served, [0, 3])
        XCTAssertEqual(fleet.counts.skipped, [1, 0], "the dead endpoint was tried once, then left out")
    }

    func testRequestsGoToFreeSlotsAndWaitWhenAllAreTaken() async throws {
        let first = try server("openai", pause: 0.3), second = try server("openai", pause: 0.3)
        defer { first.stop(); second.stop() }
        let fleet = ModelFleet([.init(endpoint(first.baseURL), slots: 1), .init(endpoint(second.baseURL), slots: 1)])
        let request = constrainedRequest()
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 { group.addTask { try await fleet.respond(to: request).text } }
            for try await text in group { XCTAssertEqual(text, #"{"days":2}"#) }
        }
        // One slot each: two at once, the other two waited for a slot rather than piling on one.
        XCTAssertEqual(fleet.counts.served, [2, 2])
    }

    func testAFleetWithEveryEndpointDownSaysWhatEachOneDid() async throws {
        let fleet = ModelFleet([.init(endpoint("http://127.0.0.1:\(try LocalPorts.freePort())/v1"), slots: 1)])
        do {
            _ = try await fleet.respond(to: constrainedRequest())
            XCTFail("no endpoint can answer")
        } catch let error as ModelError {
            XCTAssertTrue("\(error)".contains("127.0.0.1"), "\(error)")
        }
    }

    /// Whether a server rate limits, switched off by the test.
    private final class Limit: Sendable {
        let on = Mutex(true)
    }

    /// A server that answers generations with 429 (`Retry-After: retryAfter`) while `limited` is on.
    private func limitedServer(retryAfter: String, limited: Limit) throws -> FakeHTTPServer {
        try FakeHTTPServer { _, request in
            guard request.path == "/v1/chat/completions" else {
                return [.send(FakeHTTPServer.head(status: 404, type: "application/json") + "{}")]
            }
            if limited.on.withLock({ $0 }) {
                return [.send(FakeHTTPServer.head(status: 429, type: "application/json", extra: "Retry-After: \(retryAfter)\r\n") + #"{"error":"quota"}"#)]
            }
            return FakeHTTPServer.stream([#"{"days":"#, "2}"])
        }
    }

    func testARateLimitedEndpointIsSkippedUntilItsResetDateAndIsNoFailure() async throws {
        // Given a first endpoint that rate limits for 2 s, and a second that answers…
        let limited = Limit()
        let first = try limitedServer(retryAfter: "2", limited: limited), second = try server("openai")
        defer { first.stop(); second.stop() }
        let fleet = ModelFleet([.init(endpoint(first.baseURL), slots: 4), .init(endpoint(second.baseURL), slots: 4)], cooldown: 60)
        let generations = { first.requests.filter { $0.path == "/v1/chat/completions" }.count }

        // …the first request meets the limit and goes on to the second endpoint…
        let answered = try await fleet.respond(to: constrainedRequest())
        XCTAssertEqual(answered.modelID, second.baseURL + "#m")
        XCTAssertEqual(fleet.counts.rateLimited, [1, 0])
        XCTAssertEqual(fleet.counts.skipped, [0, 0], "a rate limit is not counted as a failure")
        // …and until the reset date every request goes there without asking the first again…
        for _ in 0..<3 { _ = try await fleet.respond(to: constrainedRequest()) }
        XCTAssertEqual(generations(), 1)
        XCTAssertEqual(fleet.counts.served, [0, 4])

        // …after which the first endpoint (listed first, as free as the other) serves again.
        limited.on.withLock { $0 = false }
        try await Task.sleep(nanoseconds: 2_300_000_000)
        let back = try await fleet.respond(to: constrainedRequest())
        XCTAssertEqual(back.modelID, first.baseURL + "#m")
        XCTAssertEqual(generations(), 2)
    }

    func testAFleetWhoseEveryEndpointIsRateLimitedFailsWithTheFirstResetDate() async throws {
        let limited = Limit()
        let soon = try limitedServer(retryAfter: "30", limited: limited), later = try limitedServer(retryAfter: "90", limited: limited)
        defer { soon.stop(); later.stop() }
        let fleet = ModelFleet([.init(endpoint(later.baseURL), slots: 1), .init(endpoint(soon.baseURL), slots: 1)])
        let started = Date()
        for attempt in 1...2 {
            do {
                _ = try await fleet.respond(to: constrainedRequest())
                XCTFail("every endpoint is rate limited")
            } catch LanguageModelError.rateLimited(let info) {
                let reset = try XCTUnwrap(info.resetDate)
                XCTAssertEqual(reset.timeIntervalSince(started), 30, accuracy: 5, "attempt \(attempt): the first to lift")
            }
        }
        XCTAssertEqual(fleet.counts.rateLimited, [1, 1], "the second request did not ask either endpoint again")
    }
}
