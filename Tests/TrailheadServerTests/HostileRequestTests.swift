import Foundation
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// What a stranger may send `agent serve`: every malformed request is refused (a 4xx, a 505 for a
/// protocol it does not speak, or a closed connection), and the server goes on serving. Each case is
/// written byte for byte on a raw socket, as an attacker would; after each one, `GET /health` must
/// still answer 200. What libmicrohttpd refuses itself (framing it cannot read) it answers with its
/// own status and body; what Trailhead refuses has an OpenAI-style JSON error body.
final class HostileRequestTests: XCTestCase {
    struct Case {
        var name: String
        var bytes: [UInt8]
        /// The answers accepted; nil: the server closes the connection without one.
        var status: Set<Int?>
        /// Whether the answer is Trailhead's own (a JSON error body), not libmicrohttpd's.
        var json = false
        /// Whether the client closes its side after sending (a truncated message ends there).
        var halfClose = false

        init(name: String, bytes: [UInt8], status: Set<Int?>, json: Bool = false, halfClose: Bool = false) {
            self.name = name
            self.bytes = bytes
            self.status = status
            self.json = json
            self.halfClose = halfClose
        }
    }

    static func request(_ head: String, body: String = "") -> [UInt8] { Array((head + "\r\n\r\n" + body).utf8) }

    static let cases: [Case] = {
        let post = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
        let json = #"{"model":"free-days","messages":[{"role":"user","content":"hi"}]}"#
        return [
            Case(name: "Content-Length: -5", bytes: request(post + "\r\nContent-Length: -5", body: json), status: [400]),
            Case(name: "Content-Length: abc", bytes: request(post + "\r\nContent-Length: abc", body: json), status: [400]),
            Case(name: "Content-Length: +5", bytes: request(post + "\r\nContent-Length: +5", body: json), status: [400]),
            Case(name: "Content-Length of 20 digits", bytes: request(post + "\r\nContent-Length: 99999999999999999999"), status: [400, 413]),
            Case(name: "Content-Length with a quote", bytes: request(post + "\r\nContent-Length: \"5"), status: [400]),
            Case(name: "two differing Content-Lengths", bytes: request(post + "\r\nContent-Length: 5\r\nContent-Length: 6", body: json), status: [400], json: true),
            Case(name: "Content-Length and Transfer-Encoding", bytes: request(post + "\r\nContent-Length: 5\r\nTransfer-Encoding: chunked", body: "0\r\n\r\n"), status: [400], json: true),
            Case(name: "Transfer-Encoding: gzip", bytes: request(post + "\r\nTransfer-Encoding: gzip", body: json), status: [400, 501, nil], halfClose: true),
            Case(name: "chunk size -5", bytes: request(post + "\r\nTransfer-Encoding: chunked", body: "-5\r\nhello\r\n0\r\n\r\n"), status: [400, nil]),
            Case(name: "chunk size zz", bytes: request(post + "\r\nTransfer-Encoding: chunked", body: "zz\r\nhello\r\n0\r\n\r\n"), status: [400, nil]),
            Case(name: "chunk size of 16 hex digits", bytes: request(post + "\r\nTransfer-Encoding: chunked", body: "ffffffffffffffff\r\nhello\r\n"), status: [400, 413, nil], halfClose: true),
            Case(name: "chunk longer than its size", bytes: request(post + "\r\nTransfer-Encoding: chunked", body: "2\r\nhello\r\n0\r\n\r\n"), status: [400, nil]),
            Case(name: "bare LF line ends", bytes: Array("POST /v1/chat/completions HTTP/1.1\nHost: x\nContent-Length: 2\n\n{}".utf8), status: [400, nil]),
            Case(name: "header without a colon", bytes: request(post + "\r\nNoColonHere"), status: [400, nil]),
            Case(name: "space before a header's colon", bytes: request(post + "\r\nContent-Length : 2", body: "{}"), status: [400, nil]),
            Case(name: "headers of 70 KiB", bytes: request(post + "\r\nX-Big: " + String(repeating: "a", count: 70 * 1024)), status: [400, 431]),
            Case(name: "body declared at 1 GiB", bytes: request(post + "\r\nContent-Length: 1073741824"), status: [413], json: true),
            Case(name: "HTTP/2 preface", bytes: Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8), status: [400, 505]),
            Case(name: "binary junk", bytes: [0, 1, 2, 255, 254, 13, 10, 13, 10], status: [400, nil], halfClose: true),
            Case(name: "body not JSON", bytes: request(post + "\r\nContent-Length: 9", body: "not json!"), status: [400], json: true),
            Case(name: "body with invalid UTF-8", bytes: request(post + "\r\nContent-Length: 4") + [0x22, 0xFF, 0xFE, 0x22], status: [400], json: true),
            Case(name: "malformed previous_response_id", bytes: {
                let body = #"{"model":"free-days","input":"hi","previous_response_id":"resp_../../etc_1"}"#
                return request("POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)", body: body)
            }(), status: [400], json: true),
            Case(name: "truncated body, then close", bytes: request(post + "\r\nContent-Length: 500", body: "{\"model\""), status: [nil], halfClose: true),
        ]
    }()

    func testEveryMalformedRequestIsA4xxAndTheServerGoesOnServing() throws {
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        try ServeFixtures.write(ServeFixtures.final("Free on Sunday."), to: folder + "/script.jsonl")
        let serve = try ServeProcess(["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"])

        // All at once: what libmicrohttpd cannot frame it holds until its 60 s connection timeout,
        // and the server must serve /health while those connections wait.
        let results = Locked<[Int: (answer: RawHTTP.Answer, seconds: Double, serving: RawHTTP.Answer)]>([:])
        let failures = Locked<[String]>([])
        let port = serve.port
        let group = DispatchGroup()
        for index in Self.cases.indices {
            group.enter()
            Thread {
                defer { group.leave() }
                let hostile = Self.cases[index]
                do {
                    let started = monotonicSeconds()
                    let answer = try Self.exchange(hostile.bytes, port: port, halfClose: hostile.halfClose, deadline: 90)
                    let seconds = monotonicSeconds() - started
                    let serving = try Self.exchange(Array("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: port)
                    results.withLock { $0[index] = (answer, seconds, serving) }
                } catch {
                    failures.withLock { $0.append("\(hostile.name): \(error)") }
                }
            }.start()
        }
        group.wait()
        XCTAssertEqual(failures.current, [])
        var table = ["| request | status | answered after | server still serving |", "|---|---|---|---|"]
        for (index, hostile) in Self.cases.enumerated() {
            guard let (answer, seconds, serving) = results.current[index] else { continue }
            table.append(
                "| \(hostile.name) | \(answer.status.map(String.init) ?? "closed") | \(String(format: "%.1f s", seconds)) | \(serving.status == 200 ? "yes" : "NO") |")
            XCTAssertTrue(hostile.status.contains(answer.status), "\(hostile.name): \(answer.text.prefix(300))")
            if hostile.json, answer.status != nil {
                let body = try? GeneratedContent(json: Array(answer.body))
                XCTAssertNotNil(body?["error"]?["message"]?.stringValue, "\(hostile.name): the error body is JSON with a message: \(answer.text.prefix(300))")
            }
            XCTAssertEqual(serving.status, 200, "after \(hostile.name), /health answered \(serving.text.prefix(200))")
        }
        print(table.joined(separator: "\n"))
        XCTAssertFalse(serve.output.contains("Fatal error"), serve.output)
    }

    func testAKeyIsCheckedBeforeAnyByteOfTheBodyIsRead() throws {
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        try ServeFixtures.write(ServeFixtures.final("Free on Sunday."), to: folder + "/script.jsonl")
        let key = "test-key-\(UUID().uuidString)"
        let serve = try ServeProcess(
            ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"],
            environment: ["TRAILHEAD_API_KEY": key])
        // The head promises 16 MB and none of it is sent: the 401 comes from the head alone.
        let answer = try Self.exchange(request("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 16000000"), port: serve.port, deadline: 20)
        XCTAssertEqual(answer.status, 401, answer.text)
    }

    private func request(_ head: String) -> [UInt8] { Self.request(head) }

    /// `RawHTTP.exchange`, refusing an answer that stopped half-way.
    static func exchange(_ bytes: [UInt8], port: Int, halfClose: Bool = false, deadline seconds: Double = 30) throws -> RawHTTP.Answer {
        let answer = try RawHTTP.exchange(bytes, port: port, halfClose: halfClose, seconds: seconds)
        guard answer.isComplete else { throw HTTPError(.malformed, "an incomplete answer: \(answer.text.prefix(300))") }
        return answer
    }
}
