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
        let upstream = try RateLimitingUpstream(retryAfter: 120)
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
        #expect(upstream.generations >= 1, "the request reached the upstream")
    }
}

/// An OpenAI-compatible upstream that lists no models and answers every other request with
/// 429 and `Retry-After: retryAfter`.
final class RateLimitingUpstream: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let counted = Locked(0)
    var generations: Int { counted.current }

    init(retryAfter: Int) throws {
        (fd, port) = try LoopbackSocket.listen(port: 0)
        let fd = fd
        Thread { [counted] in
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                let request = Self.readRequest(client)
                let answer: String
                if request.hasPrefix("GET ") {
                    answer = "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
                } else {
                    counted.withLock { $0 += 1 }
                    let body = #"{"error":{"message":"quota","type":"requests"}}"#
                    answer = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: \(retryAfter)\r\n"
                        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                }
                try? LoopbackSocket.send(client, Array(answer.utf8))
                close(client)
            }
        }.start()
    }

    func stop() { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }

    /// The request's head and its Content-Length of body, as text.
    private static func readRequest(_ fd: Int32) -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let length = text[..<end.lowerBound].split(separator: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound) + length <= received.count { return text }
            }
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return text }
            received += chunk[0..<n]
        }
    }
}
