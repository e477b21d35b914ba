import Foundation
import TrailheadSchema
import TrailheadTestSupport
import XCTest

@testable import TrailheadModels

/// Foundation Models 27's `LanguageModelError` from an OpenAI-compatible server that rate limits,
/// refuses, and says when to come back in every way `Retry-After` allows (and some it does not).
final class LanguageModelErrorTests: XCTestCase {
    private func model(_ server: FakeHTTPServer, retries: Int = 2) -> OpenAICompatibleModel {
        OpenAICompatibleModel(
            configuration: .init(
                endpoint: try! ModelEndpoint(parsing: server.baseURL + "#m"), constraint: .responseFormat,
                retry: RetryPolicy(maximumRetries: retries, initialDelay: 0.05, maximumDelay: 0.5), idleTimeout: 5, requestTimeout: 10))
    }

    private let request = ModelRequest(messages: [.user("hi")])

    /// A server that answers every request with 429 and `retryAfter` as its `Retry-After`.
    private func limitedServer(retryAfter: String?) throws -> FakeHTTPServer {
        try FakeHTTPServer { _, _ in
            let header = retryAfter.map { "Retry-After: \($0)\r\n" } ?? ""
            return [.send(FakeHTTPServer.head(status: 429, type: "application/json", extra: header) + #"{"error":{"message":"slow down"}}"#)]
        }
    }

    private func rateLimit(_ model: OpenAICompatibleModel) async throws -> LanguageModelError.RateLimited {
        do {
            _ = try await model.respond(to: request)
        } catch LanguageModelError.rateLimited(let info) {
            return info
        }
        XCTFail("expected rateLimited")
        throw CancellationError()
    }

    func test429WithRetryAfterInSecondsIsRateLimitedUntilThenWithoutWaiting() async throws {
        // Given a server that asks for two minutes, far beyond the policy's longest wait…
        let server = try limitedServer(retryAfter: "120")
        defer { server.stop() }
        let before = Date()
        let info = try await rateLimit(model(server))
        // …the request fails at once (no retry would be answered sooner), saying until when.
        let reset = try XCTUnwrap(info.resetDate)
        XCTAssertEqual(reset.timeIntervalSince(before), 120, accuracy: 5)
        XCTAssertEqual(server.requests.count, 1, "a wait longer than maximumDelay is not held")
        XCTAssertTrue(info.debugDescription.contains("rate limited") && info.debugDescription.contains("slow down"), info.debugDescription)
        XCTAssertEqual(info.metadata["status"] as? Int, 429)
        XCTAssertEqual(info.metadata["model"] as? String, server.baseURL + "#m")
    }

    func test429WithAnHTTPDateIsRateLimitedUntilThatDate() async throws {
        let server = try limitedServer(retryAfter: "Fri, 31 Dec 2100 23:59:59 GMT")
        defer { server.stop() }
        let info = try await rateLimit(model(server))
        XCTAssertEqual(info.resetDate, Date(timeIntervalSince1970: 4_133_980_799))
        XCTAssertEqual(server.requests.count, 1)
    }

    func test429WithAMalformedOrMissingRetryAfterHasNoResetDateAndIsRetried() async throws {
        for header in ["soon", "-5", "1.5", "", nil] as [String?] {
            let server = try limitedServer(retryAfter: header)
            defer { server.stop() }
            let info = try await rateLimit(model(server, retries: 2))
            XCTAssertNil(info.resetDate, "Retry-After: \(header ?? "(none)") says nothing")
            XCTAssertEqual(server.requests.count, 3, "\(header ?? "(none)"): the policy's own backoff, twice")
        }
    }

    func testAShortRetryAfterIsWaitedForAndTheRetryAnswers() async throws {
        let server = try FakeHTTPServer { index, _ in
            index == 0
                ? [.send(FakeHTTPServer.head(status: 429, type: "application/json", extra: "Retry-After: 0\r\n") + "{}")]
                : FakeHTTPServer.stream(["fine"])
        }
        defer { server.stop() }
        let answer = try await model(server).respond(to: request)
        XCTAssertEqual(answer.text, "fine")
        XCTAssertEqual(server.requests.count, 2)
    }

    func testRetryAfterValues() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        XCTAssertEqual(RetryAfter.date("30", now: now), now.addingTimeInterval(30))
        XCTAssertEqual(RetryAfter.date(" 0 ", now: now), now)
        XCTAssertEqual(RetryAfter.date("Sun, 06 Nov 1994 08:49:37 GMT"), Date(timeIntervalSince1970: 784_111_777))
        XCTAssertEqual(RetryAfter.date("Sunday, 06-Nov-94 08:49:37 GMT"), Date(timeIntervalSince1970: 784_111_777))
        XCTAssertEqual(RetryAfter.date("Sun Nov  6 08:49:37 1994"), Date(timeIntervalSince1970: 784_111_777))
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now.addingTimeInterval(1e9)), 0, "a date passed is no wait")
        // Nothing to read, or nothing sensible: ignored, never a crash or a wait of forever.
        for garbage in ["", "soon", "-1", "1.5", "1e3", "0x10", "Sun, 06 Nov 1994", "Sun, 32 Nov 1994 08:49:37 GMT", "\u{0}"] {
            XCTAssertNil(RetryAfter.date(garbage, now: now), garbage.debugDescription)
        }
        let huge = RetryAfter.seconds(String(repeating: "9", count: 400), now: now)
        XCTAssertEqual(huge, 366 * 24 * 3600, "bounded to a year")
    }

    func testARefusalIsLanguageModelErrorRefusalWithTheModelsWords() async throws {
        let server = try FakeHTTPServer { _, _ in
            [
                .send(FakeHTTPServer.head()),
                .send(#"data: {"choices":[{"index":0,"delta":{"refusal":"I can't help "}}]}"# + "\n\n"),
                .send(#"data: {"choices":[{"index":0,"delta":{"refusal":"with that."},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"),
            ]
        }
        defer { server.stop() }
        do {
            _ = try await model(server).respond(to: request)
            XCTFail("a refusal is no answer")
        } catch LanguageModelError.refusal(let info) {
            XCTAssertEqual(info.explanation, "I can't help with that.")
        }
        let filtered = try FakeHTTPServer { _, _ in
            [.send(FakeHTTPServer.head() + #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"content_filter"}]}"# + "\n\ndata: [DONE]\n\n")]
        }
        defer { filtered.stop() }
        do {
            _ = try await model(filtered).respond(to: request)
            XCTFail("a filtered answer is a refusal")
        } catch LanguageModelError.refusal(let info) {
            XCTAssertEqual(info.explanation, "")
        }
    }
}
