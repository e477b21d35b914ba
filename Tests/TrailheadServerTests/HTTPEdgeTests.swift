import Foundation
import Synchronization
import TrailheadSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP edge on libmicrohttpd and libcurl, against hostile and broken peers: what is refused
/// and when, what a client's mistake is answered, streams that arrive in pieces, and the client's
/// errors and cancellation.
final class HTTPEdgeTests: XCTestCase {
    /// A server answering `GET /ok` with 200 and counting the requests its handler saw.
    private func server(limits: HTTPServer.Limits = .init(), key: String? = nil) throws -> (HTTPServer, Counter) {
        let handled = Counter()
        let admit: @Sendable (HTTPHead) -> HTTPServer.Response? = { head in
            guard let key, head[header: "authorization"] != "Bearer \(key)" else { return nil }
            return .error(401, "no key")
        }
        let server = try HTTPServer(port: 0, limits: limits, admit: admit) { [handled] request in
            handled.add()
            return .respond(.json(200, #"{"path":"\#(request.path)","bytes":\#(request.body.count)}"#))
        }
        return (server, handled)
    }

    /// What came back for `bytes` on a new connection (`RawHTTP.exchange`), as text.
    private func raw(_ port: Int, _ bytes: String, seconds: Double = 20) throws -> String {
        try RawHTTP.exchange(Array(bytes.utf8), port: port, seconds: seconds).text
    }

    private static func status(_ response: String) -> Int { response.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0 }

    private func assertStillServing(_ port: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let response = try raw(port, "GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(Self.status(response), 200, "server still serving", file: file, line: line)
    }

    func testTheKeyIsCheckedFromTheHeadBeforeAnyBodyByte() throws {
        let (server, handled) = try server(key: "k")
        defer { server.stop() }
        // A head that announces a megabyte, and no body at all: the answer comes anyway.
        let response = try raw(server.port, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
        XCTAssertEqual(Self.status(response), 401, response)
        let body = try XCTUnwrap(response.range(of: "\r\n\r\n").map { response[$0.upperBound...] })
        let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        XCTAssertNotNil(json?["error"], "the error body is JSON: \(body)")
        XCTAssertEqual(handled.value, 0)
        let allowed = try raw(server.port, "GET /ok HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(Self.status(allowed), 200, allowed)
    }

    func testABodyLargerThanTheLimitIs413() throws {
        var limits = HTTPServer.Limits()
        limits.bodyBytes = 1024
        let (server, handled) = try server(limits: limits)
        defer { server.stop() }
        // Announced: refused from the head.
        XCTAssertEqual(Self.status(try raw(server.port, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")), 413)
        // Chunked, so only counting tells.
        let chunk = String(repeating: "a", count: 1500)
        let chunked = "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5dc\r\n\(chunk)\r\n0\r\n\r\n"
        XCTAssertEqual(Self.status(try raw(server.port, chunked)), 413)
        XCTAssertEqual(handled.value, 0)
        // Within the limit it is served.
        let small = try raw(server.port, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
        XCTAssertEqual(Self.status(small), 200, small)
        XCTAssertTrue(small.contains(#""bytes":3"#), small)
    }

    func testMalformedRequestsAreClientErrorsAndTheServerKeepsServing() throws {
        let (server, handled) = try server()
        defer { server.stop() }
        let hostile = [
            "GARBAGE\r\n\r\n",
            "GET / HTTP/9.9\r\nHost: x\r\n\r\n",
            "GET / FOO\r\nHost: x\r\n\r\n",
            "GET /\u{01}\u{7f} HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n",
            "GET / HTTP/1.1\nHost: x\n\n",
            "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nabc\r\n0\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nthis line has no colon\r\n\r\n",
            "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
            "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
            "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
            "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nabc\r\n0\r\n\r\n",
            "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nX-Long: \(String(repeating: "x", count: 200_000))\r\n\r\n",
        ]
        for request in hostile {
            let response = try raw(server.port, request)
            let status = Self.status(response)
            let serving = Self.status(try raw(server.port, "GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) == 200
            print("hostile request \(request.prefix(70).debugDescription): \(status == 0 ? "closed without an answer" : String(status)); server still serving: \(serving ? "yes" : "no")")
            XCTAssertTrue(serving, "server still serving after \(request.prefix(60).debugDescription)")
            // libmicrohttpd's own answers: a line that is not a request line at all is dropped without
            // one; an unknown HTTP version is 505, as RFC 9110 has it; a bare LF may end a line (RFC 9112 §2.2).
            if request.hasPrefix("GARBAGE") && status == 0 { continue }
            if request.contains("HTTP/9.9") && status == 505 { continue }
            if request.hasPrefix("GET / HTTP/1.1\nHost") && status == 200 { continue }
            XCTAssertTrue((400..<500).contains(status), "\(request.prefix(60).debugDescription) → \(response.prefix(80).debugDescription)")
        }
        XCTAssertEqual(handled.value, hostile.count + 1, "only the well-formed requests (and the one with bare LFs) reached the handler")
    }

    func testAStreamedResponseArrivesInPieces() async throws {
        // The second event is sent only once the client has received the first.
        let firstArrived = DispatchSemaphore(value: 0)
        let server = try HTTPServer(port: 0) { _ in
            .stream(headers: ["X-Test": "yes"]) { stream in
                stream.send("one", event: nil)
                Thread {
                    _ = firstArrived.wait(timeout: .now() + 30)
                    stream.send("two", event: nil)
                    stream.close()
                }.start()
            }
        }
        defer { server.stop() }
        var parser = ServerSentEventParser()
        var events: [String] = []
        var headers: [String: String] = [:]
        for try await event in HTTPClient.stream(.init(url: "http://127.0.0.1:\(server.port)/events", idleSeconds: 30, totalSeconds: 60)) {
            switch event {
            case .head(let status, let h):
                XCTAssertEqual(status, 200)
                headers = h
            case .body(let piece):
                events += parser.feed(piece)
                if events == ["one"] { firstArrived.signal() }
            }
        }
        XCTAssertEqual(events, ["one", "two"])
        XCTAssertEqual(headers["content-type"], "text/event-stream")
        XCTAssertEqual(headers["x-test"], "yes")
    }

    func testTheClientSaysWhichEndpointRefusedTheConnection() async throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let port = try XCTUnwrap(LoopbackSocket.bindLoopback(fd, port: 0))
        close(fd)
        let url = "http://127.0.0.1:\(port)/v1/models"
        do {
            _ = try await HTTPClient.fetch(.init(url: url, idleSeconds: 5, totalSeconds: 10))
            XCTFail("nobody listens")
        } catch let error as HTTPError {
            XCTAssertEqual(error.kind, .refused)
            XCTAssertEqual(error.message, "\(url): connection refused")
        }
    }

    func testACancelledStreamStopsTheTransferAndTheServerSeesItGo() async throws {
        let opened = Mutex<EventStream?>(nil)
        let server = try HTTPServer(port: 0) { request in
            guard request.path == "/events" else { return .respond(.json(200, "{}")) }
            return .stream(headers: [:]) { stream in
                opened.withLock { $0 = stream }
                stream.send("first", event: nil)
            }
        }
        defer { server.stop() }
        let consumer = Task {
            var pieces = 0
            for try await event in HTTPClient.stream(.init(url: "http://127.0.0.1:\(server.port)/events", idleSeconds: 60, totalSeconds: 120)) {
                if case .body = event { pieces += 1 }
                if pieces == 1 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return pieces
        }
        // The consumer's iteration ends (cancelled), well before the 60 s idle bound.
        let result = await consumer.result
        if case .success(let pieces) = result { XCTAssertGreaterThanOrEqual(pieces, 1) }
        // The server notices the client went away (its next write, at the latest a heartbeat, fails).
        let deadline = monotonicSeconds() + 30
        while monotonicSeconds() < deadline, opened.withLock({ $0?.isOpen ?? true }) { try await Task.sleep(nanoseconds: 50_000_000) }
        XCTAssertEqual(opened.withLock { $0?.isOpen }, false)
        try assertStillServing(server.port)
    }

    func testPerformStopsWhenCancelledFromAnotherThread() throws {
        let server = try HTTPServer(port: 0) { _ in .stream(headers: [:]) { $0.send("tick", event: nil) } }
        defer { server.stop() }
        let cancellation = HTTPClient.Cancellation()
        do {
            try HTTPClient.perform(.init(url: "http://127.0.0.1:\(server.port)/", idleSeconds: 60, totalSeconds: 120), cancellation: cancellation) { event in
                if case .body = event { cancellation.cancel() }
                return true
            }
            XCTFail("a cancelled transfer throws")
        } catch {
            XCTAssertEqual(error.kind, .cancelled)
        }
    }
}

/// A count several threads add to.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
