import Foundation
import Synchronization
import Testing
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport

/// `agent mcp serve` message by message: revision negotiation and its error, unknown tools,
/// cancellation without a reply, list changes on quarantine, and the HTTP transport's sessions,
/// headers and origins.
@Suite struct MCPServeProtocolTests {
    /// `agent mcp serve` over stdio, driven line by line.
    final class StdioPeer: @unchecked Sendable {
        let process: ChildProcess
        /// Kept alive as long as the server runs (its folders are deleted with it).
        let installation: TestInstallation
        private final class Inbox: Sendable {
            let lines = Mutex<[GeneratedContent]>([])
        }
        private let inbox = Inbox()

        init(_ installation: TestInstallation) throws {
            self.installation = installation
            process = try ChildProcess(
                try BuildProducts.path("agent"), ["mcp", "serve", "--plugins", installation.plugins, "--manifests", installation.manifests],
                options: .init(
                    environment: ChildProcess.Options.environment(adding: ["SWIFT_BACKTRACE": "enable=no"]), standardInput: .pipe,
                    standardOutput: .pipe))
            let output = process.standardOutput!
            let thread = Thread { [inbox] in
                var reader = PipeLines(fd: output)
                while let line = reader.next() {
                    if let message = try? GeneratedContent(json: line) { inbox.lines.withLock { $0.append(message) } }
                }
            }
            thread.start()
        }

        func send(_ message: GeneratedContent) {
            guard let input = process.standardInput else { return }
            let line = Array((message.jsonString + "\n").utf8)
            var offset = 0
            while offset < line.count {
                let written = line.withUnsafeBytes { write(input, $0.baseAddress! + offset, $0.count - offset) }
                guard written > 0 else { return }
                offset += written
            }
        }

        /// The first message (removed) that `matches`, waiting up to `seconds`.
        func receive(within seconds: Double = 60, _ matches: (GeneratedContent) -> Bool) -> GeneratedContent? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let found = inbox.lines.withLock { lines -> GeneratedContent? in
                    guard let index = lines.firstIndex(where: matches) else { return nil }
                    return lines.remove(at: index)
                }
                if let found { return found }
                usleep(20_000)
            }
            return nil
        }

        func reply(to id: Int) -> GeneratedContent? { receive { $0["id"] == .number(Double(id)) } }

        var received: [GeneratedContent] { inbox.lines.withLock { $0 } }

        func request(_ id: Int, _ method: String, _ params: GeneratedContent = [:]) -> GeneratedContent? {
            send(["jsonrpc": "2.0", "id": .number(Double(id)), "method": .string(method), "params": params])
            return reply(to: id)
        }

        deinit {
            process.closeStandardInput()
            _ = process.wait()
        }
    }

    private func fixtureInstallation() throws -> TestInstallation {
        let installation = try TestInstallation()
        try installation.install(product: "libFixtureTool.so")
        try installation.writeManifest("fixture.json", manifest(plugin: "fixture", library: "libFixtureTool.so", timeoutMs: 600_000, tools: fixtureTools))
        return installation
    }

    private let initialize: GeneratedContent = ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "test", "version": "1"]]

    @Test func aRevisionWeDoNotSpeakGetsTheSpecsErrorAndOneWeDoIsAgreed() throws {
        let peer = try StdioPeer(try fixtureInstallation())
        let refused = try #require(peer.request(1, "initialize", initialize.setting("protocolVersion", "2099-01-01")))
        #expect(refused["error"]?["code"] == -32602)
        #expect(refused["error"]?["message"] == "Unsupported protocol version")
        #expect(refused["error"]?["data"] == ["supported": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"], "requested": "2099-01-01"])
        #expect(peer.request(2, "initialize", initialize.removing("protocolVersion"))?["error"]?["code"] == -32602)

        let agreed = try #require(peer.request(3, "initialize", initialize.setting("protocolVersion", "2025-06-18"))?["result"])
        #expect(agreed["protocolVersion"] == "2025-06-18")
        #expect(agreed["capabilities"] == ["tools": ["listChanged": true]])
        #expect(agreed["serverInfo"]?["name"] == "trailhead")
        peer.send(["jsonrpc": "2.0", "method": "notifications/initialized"])
        #expect(peer.request(4, "tools/call", ["name": "nope", "arguments": [:]])?["error"]?["code"] == -32602)
        #expect(peer.request(5, "resources/list")?["error"]?["code"] == -32601)
        #expect(peer.request(6, "ping")?["result"] == [:])
    }

    @Test func aCancelledCallGetsNoReplyAndItsWorkerIsReplaced() throws {
        let peer = try StdioPeer(try fixtureInstallation())
        _ = peer.request(1, "initialize", initialize)
        peer.send(["jsonrpc": "2.0", "method": "notifications/initialized"])
        peer.send(["jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": ["name": "hang", "arguments": [:]]])
        // Other requests are answered while the call is in flight…
        #expect(peer.request(3, "ping")?["result"] == [:])
        peer.send(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": 2, "reason": "the user gave up"]])
        // …and once it is cancelled, the plugin answers the next call (a new worker); the
        // cancelled request never gets a reply.
        #expect(peer.request(4, "tools/call", ["name": "echo", "arguments": ["after": true]])?["result"]?["structuredContent"] == ["after": true])
        #expect(peer.request(5, "ping")?["result"] == [:])
        #expect(!peer.received.contains { $0["id"] == 2 })
    }

    @Test func aQuarantinedPluginLeavesTheListAndClientsAreTold() throws {
        let peer = try StdioPeer(try fixtureInstallation())
        _ = peer.request(1, "initialize", initialize)
        peer.send(["jsonrpc": "2.0", "method": "notifications/initialized"])
        #expect(peer.request(2, "tools/list")?["result"]?["tools"]?.arrayValue?.count == 6)
        for id in 3...5 {
            let crashed = peer.request(id, "tools/call", ["name": "crash", "arguments": ["how": "abort"]])?["result"]
            #expect(crashed?["isError"] == true)
        }
        #expect(peer.receive { $0["method"] == "notifications/tools/list_changed" } != nil)
        #expect(peer.request(6, "tools/list")?["result"]?["tools"] == [])
    }

    @Test func theHTTPTransportKeepsSessionsAndRefusesWhatTheSpecRefuses() throws {
        let installation = try fixtureInstallation()
        defer { withExtendedLifetime(installation) {} }
        let server = try BackgroundProcess(try BuildProducts.path("agent"), [
            "mcp", "serve", "--http", "0", "--plugins", installation.plugins, "--manifests", installation.manifests,
        ])
        defer { server.stop() }
        let url = try #require(try server.waitForStderr(containing: "/mcp").split(separator: " ").last { $0.hasPrefix("http://") })
        let port = try #require(Int(url.split(separator: ":").last?.split(separator: "/").first ?? ""))
        let body = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#

        let opened = try post(port, body)
        #expect(opened.status == 200)
        let session = try #require(opened.headers["mcp-session-id"])
        #expect(try GeneratedContent(json: opened.body)["result"]?["protocolVersion"] == "2025-11-25")

        let list = #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#
        let listed = try post(port, list, headers: ["Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"])
        #expect(try GeneratedContent(json: listed.body)["result"]?["tools"]?.arrayValue?.count == 6)
        // A notification is accepted without a body.
        #expect(try post(port, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, headers: ["Mcp-Session-Id": session]).status == 202)
        // No session, an unknown one, a revision we do not speak, a foreign origin.
        #expect(try post(port, list).status == 400)
        #expect(try post(port, list, headers: ["Mcp-Session-Id": "nope"]).status == 404)
        #expect(try post(port, list, headers: ["Mcp-Session-Id": session, "MCP-Protocol-Version": "2099-01-01"]).status == 400)
        #expect(try post(port, list, headers: ["Mcp-Session-Id": session, "Origin": "http://evil.example"]).status == 403)
        #expect(try exchange(port, "GET", nil, headers: ["Mcp-Session-Id": session, "Accept": "application/json"]).status == 405)
        // DELETE ends the session.
        #expect(try exchange(port, "DELETE", nil, headers: ["Mcp-Session-Id": session]).status == 200)
        #expect(try post(port, list, headers: ["Mcp-Session-Id": session]).status == 404)
    }

    private struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    private func post(_ port: Int, _ body: String, headers: [String: String] = [:]) throws -> Reply {
        try exchange(port, "POST", body, headers: headers.merging(["Content-Type": "application/json", "Accept": "application/json, text/event-stream"]) { $1 })
    }

    private func exchange(_ port: Int, _ method: String, _ body: String?, headers: [String: String]) throws -> Reply {
        var reply = Reply(status: 0, headers: [:], body: [])
        let request = HTTPClient.Request(
            url: "http://127.0.0.1:\(port)/mcp", method: method, headers: headers, body: body.map { Array($0.utf8) }, idleSeconds: 30, totalSeconds: 30)
        try HTTPClient.perform(request) { event in
            switch event {
            case .head(let status, let headers): (reply.status, reply.headers) = (status, headers)
            case .body(let piece): reply.body += piece
            }
            return true
        }
        return reply
    }
}

/// Newline-delimited lines from a descriptor, for the peer's reader thread.
private struct PipeLines {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    mutating func next() -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                defer { buffer.removeSubrange(...newline) }
                return Array(buffer[..<newline])
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { return nil }
            buffer += chunk[..<count]
        }
    }
}
