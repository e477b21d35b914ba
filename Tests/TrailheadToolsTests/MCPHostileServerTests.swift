import Foundation
import Testing
import TrailheadSchema
import TrailheadSupport
@testable import TrailheadTools

#if canImport(Glibc)
import Glibc
#endif

/// The MCP client over HTTP against a server that answers with broken framing or not at all:
/// each is the end of that server's channel (or a timeout), never a crash of the agent calling it.
@Suite struct MCPHostileServerTests {
    /// Accepts connections on 127.0.0.1 and answers each with `answer` (nil: says nothing) until stopped.
    private final class RawServer: @unchecked Sendable {
        let port: Int
        private let fd: Int32

        init(answer: String?) throws {
            (fd, port) = try LoopbackSocket.listen(port: 0)
            let fd = fd
            Thread {
                while true {
                    let connection = accept(fd, nil, nil)
                    if connection < 0 { return }
                    Thread {
                        var buffer = [UInt8](repeating: 0, count: 65536)
                        _ = recv(connection, &buffer, buffer.count, 0)
                        if let answer {
                            try? LoopbackSocket.send(connection, Array(answer.utf8))
                            close(connection)
                        } else {
                            usleep(3_000_000)
                            close(connection)
                        }
                    }.start()
                }
            }.start()
        }

        func stop() { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private static let initialize = Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.utf8) + [0x0A]

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: -5\r\n\r\n{}",
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nabc\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\nfff\r\ndata: {\"jsonrpc\"",
        "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Endless: \(String(repeating: "h", count: 1000))\r\n", count: 400),
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\n\r\n\u{FF}\u{FE}{}",
        "NOT HTTP\r\n\r\n",
    ])
    func brokenFramingEndsTheChannelWithAReason(answer: String) throws {
        let server = try RawServer(answer: answer)
        defer { server.stop() }
        let channel = try HTTPWorkerChannel(url: "http://127.0.0.1:\(server.port)/mcp")
        #expect(channel.send(Self.initialize))
        switch channel.readLine(deadline: monotonicSeconds() + 20, maximumBytes: 1 << 20) {
        case .line(let line):
            // An answer that is not a JSON-RPC reply comes back as a JSON-RPC error for the request.
            let reply = try GeneratedContent(json: line)
            #expect(reply["error"] != nil, "\(String(decoding: line, as: UTF8.self))")
        case .endOfFile:
            #expect(!channel.reap(graceSeconds: nil).isEmpty)
        case .timedOut, .tooLong:
            Issue.record("a broken answer is not a timeout")
        }
    }

    @Test func aSilentServerIsATimeout() throws {
        let server = try RawServer(answer: nil)
        defer { server.stop() }
        let channel = try HTTPWorkerChannel(url: "http://127.0.0.1:\(server.port)/mcp")
        #expect(channel.send(Self.initialize))
        guard case .timedOut = channel.readLine(deadline: monotonicSeconds() + 1, maximumBytes: 1 << 20) else {
            Issue.record("silence must end in a timeout")
            return
        }
    }
}
