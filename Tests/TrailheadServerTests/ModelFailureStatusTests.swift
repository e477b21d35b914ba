import Foundation
import Testing
import TrailheadModels
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
@testable import TrailheadServer

#if canImport(Glibc)
import Glibc
#endif

/// A model's failure a client can act on reaches it with the status OpenAI gives it: a rate
/// limit is a 429 that says when to come back, not a 500.
@Suite struct ModelFailureStatusTests {
    @Test func eachFailureOfTheModelHasOpenAIsStatus() throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let limited = APIError.response(for: .rateLimited(.init(resetDate: now.addingTimeInterval(29.2), debugDescription: "quota")), now: now)
        #expect(limited.status == 429)
        #expect(limited.headers["Retry-After"] == "30", "whole seconds, rounded up")
        let body = try GeneratedContent(json: Data(limited.body))
        #expect(body["error"]?["code"]?.stringValue == "rate_limit_exceeded")
        #expect(body["error"]?["message"]?.stringValue?.isEmpty == false)
        let unknownReset = APIError.response(for: .rateLimited(.init(resetDate: nil, debugDescription: "quota")), now: now)
        #expect(unknownReset.status == 429 && unknownReset.headers["Retry-After"] == nil)
        let long = APIError.response(for: .contextSizeExceeded(.init(contextSize: 4096, tokenCount: 5000, debugDescription: "too long")))
        #expect(long.status == 400)
        #expect(try GeneratedContent(json: Data(long.body))["error"]?["code"]?.stringValue == "context_length_exceeded")
        #expect(APIError.response(for: .timeout(.init(debugDescription: "slow"))).status == 504)
    }

    @Test func aRateLimitedUpstreamIsA429WithItsRetryAfter() throws {
        // An OpenAI-compatible upstream that lists no models and answers every generation with 429.
        let upstream = try FakeHTTPServer { _, request in
            guard request.method == "POST" else { return [.send(FakeHTTPServer.head(status: 404, type: "application/json", extra: "Content-Length: 2\r\n") + "{}")] }
            let body = #"{"error":{"message":"quota","type":"requests"}}"#
            return [.send(FakeHTTPServer.head(status: 429, type: "application/json", extra: "Retry-After: 120\r\nContent-Length: \(body.utf8.count)\r\n") + body)]
        }
        defer { upstream.stop() }
        let folder = try Scratch.newFolder()
        let serve = try ServeProcess(["--model", "http://127.0.0.1:\(upstream.port)/v1#limited", "--store", folder + "/sessions"])
        defer { serve.stop() }
        let body = #"{"model":"local","messages":[{"role":"user","content":"Hi"}]}"#
        let answer = try RawHTTP.exchange(
            Array("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8),
            port: serve.port, seconds: 60)
        #expect(answer.status == 429, "\(answer.text.prefix(400))")
        let retryAfter = answer.text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("retry-after:") }
            .flatMap { Int($0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces)) }
        #expect(retryAfter.map { (100...120).contains($0) } == true, "the upstream's 120 s, less the time spent: \(answer.text.prefix(400))")
        let error = try GeneratedContent(json: Data(answer.body))
        #expect(error["error"]?["code"]?.stringValue == "rate_limit_exceeded")
        #expect(upstream.requests.contains { $0.method == "POST" }, "the request reached the upstream")
    }
}
