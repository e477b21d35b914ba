import Foundation
import TrailheadSchema
import TrailheadSupport

/// An MCP server's Streamable HTTP endpoint as a `WorkerChannel`: a request line is POSTed when
/// its reply is awaited (so the POST runs under the reply's deadline), and the reply, a JSON body
/// or the messages of an SSE stream, comes back as lines. The `Mcp-Session-Id` the server
/// assigns at `initialize` and the agreed `MCP-Protocol-Version` go with every later message.
///
/// Each POST uses its own connection (`Connection: close`): one connect on loopback costs
/// ~0.1 ms, and an aborted call then never leaves a connection in an unknown state.
final class HTTPWorkerChannel: WorkerChannel {
    let url: String
    private let host: String
    private let port: Int
    private let path: String
    private var sessionID: String?
    private var protocolVersion: String?
    /// A request whose reply has not been read yet: (its line, its id, its method).
    private var pendingRequest: (body: [UInt8], id: GeneratedContent, method: String)?
    private var received: [[UInt8]] = []
    private var ended: String?
    /// The socket of the exchange in flight, so `kill()` can cut it from another thread.
    private let socketLock = NSLock()
    private var activeSocket: Int32 = -1
    private var killed = false

    /// Notifications and the closing DELETE are not worth waiting long for.
    private static let shortSeconds = 5.0

    init(url: String) throws(PluginLoadError) {
        guard let parsed = URL(string: url), parsed.scheme == "http", let host = parsed.host else {
            throw PluginLoadError("MCP server URL '\(url)' is not an http:// URL")
        }
        self.url = url
        self.host = host
        self.port = parsed.port ?? 80
        var path = parsed.path.isEmpty ? "/" : parsed.path
        if let query = parsed.query { path += "?" + query }
        self.path = path
    }

    func send(_ bytes: [UInt8]) -> Bool {
        guard ended == nil else { return false }
        let line = bytes.last == 0x0A ? Array(bytes.dropLast()) : bytes
        guard let message = try? GeneratedContent(json: line) else { return false }
        if let id = message["id"], let method = message["method"]?.stringValue {
            pendingRequest = (line, id, method)
            return true
        }
        // A notification or a response: the server answers 202 Accepted.
        do { try post(line, replyTo: nil, method: nil, deadline: monotonicSeconds() + Self.shortSeconds) } catch {
            ended = ended ?? error.message
            return false
        }
        return true
    }

    func readLine(deadline: Double, maximumBytes: Int) -> WorkerReadOutcome {
        if received.isEmpty, let request = pendingRequest {
            pendingRequest = nil
            do { try post(request.body, replyTo: request.id, method: request.method, deadline: deadline) } catch let error as HTTPError {
                if error.kind == .timedOut { return .timedOut }
                ended = ended ?? "\(error.message)"
                return .endOfFile
            } catch {
                ended = ended ?? "\(error)"
                return .endOfFile
            }
        }
        guard !received.isEmpty else { return .endOfFile }
        let line = received.removeFirst()
        return line.count > maximumBytes ? .tooLong(line.count) : .line(line)
    }

    func kill() {
        socketLock.withLock {
            killed = true
            if activeSocket >= 0 { _ = shutdown(activeSocket, Int32(SHUT_RDWR)) }
        }
    }

    /// Ends the session (DELETE), as the transport asks of a client that is done.
    func closeInput() {
        guard ended == nil else { return }
        ended = "closed its session"
        guard let sessionID else { return }
        try? exchange(method: "DELETE", body: nil, extraHeaders: ["Mcp-Session-Id": sessionID], deadline: monotonicSeconds() + Self.shortSeconds) { _, _ in }
    }

    func reap(graceSeconds: Double?) -> String {
        killed ? "was cut off" : (ended.map { $0 } ?? "closed its session")
    }

    func stderrExcerpt(last bytes: Int) -> String { "" }

    // MARK: - HTTP

    /// POSTs one message; the reply's messages are queued in `received`.
    private func post(_ body: [UInt8], replyTo id: GeneratedContent?, method: String?, deadline: Double) throws {
        var headers = ["Content-Type": "application/json", "Accept": "application/json, text/event-stream"]
        if let sessionID { headers["Mcp-Session-Id"] = sessionID }
        if let protocolVersion { headers["MCP-Protocol-Version"] = protocolVersion }
        try exchange(method: "POST", body: body, extraHeaders: headers, deadline: deadline) { head, reader in
            let status = Int(head.startLine[1]) ?? 0
            if status == 202 { return }
            if status == 404, self.sessionID != nil {
                throw HTTPError(.closed, "the server ended the session (404 Not Found)")
            }
            let type = head[header: "content-type"]?.lowercased() ?? ""
            if status == 200, type.hasPrefix("text/event-stream") {
                try self.readEvents(&reader, framing: head.bodyFraming(isResponse: true), until: id, deadline: deadline)
            } else {
                let bytes = try reader.body(head.bodyFraming(isResponse: true), deadline: deadline, maximumBytes: WorkerClient.maximumReplyBytes)
                // A notification's answer carries nothing to read (it should be 202 anyway).
                guard let id else { return }
                if status == 200, let message = try? GeneratedContent(json: bytes) {
                    self.take(message)
                } else {
                    // An HTTP error without a JSON-RPC body still answers the request, as an error.
                    let text = String(decoding: bytes.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    let reply = (try? GeneratedContent(json: bytes)).flatMap { $0["error"] != nil ? $0 : nil }
                        ?? JSONRPC.error(
                            id: id, code: JSONRPC.internalError,
                            message: "\(self.url) answered HTTP \(status)\(status == 200 ? " with no JSON-RPC message" : "")\(text.isEmpty ? "" : ": \(text)")")
                    self.take(reply)
                }
            }
            if method == "initialize" {
                self.sessionID = head[header: "mcp-session-id"]
                self.protocolVersion = self.received.lazy.compactMap { try? GeneratedContent(json: $0) }
                    .compactMap { $0["result"]?["protocolVersion"]?.stringValue }.first
            }
        }
    }

    private func take(_ message: GeneratedContent) {
        received.append(Array(message.jsonString.utf8))
    }

    /// Reads server-sent events, queueing each `data` payload, until the reply to `id` arrived.
    private func readEvents(_ reader: inout HTTPReader, framing: HTTPBodyFraming, until id: GeneratedContent?, deadline: Double) throws {
        reader.beginBody(framing)
        var events = ServerSentEventParser()
        while let piece = try reader.bodyPiece(deadline: deadline) {
            for payload in events.feed(piece) {
                guard let message = try? GeneratedContent(json: payload) else { continue }
                take(message)
                if let id, message["id"] == id, message["method"] == nil { return }
            }
        }
    }

    /// One HTTP exchange on a new connection; `read` gets the response's head and a reader positioned at its body.
    private func exchange(
        method: String, body: [UInt8]?, extraHeaders: [String: String], deadline: Double,
        read: (HTTPHead, inout HTTPReader) throws -> Void
    ) throws {
        let fd = try HTTPSocket.connect(host: host, port: port)
        let admitted = socketLock.withLock { () -> Bool in
            guard !killed else { return false }
            activeSocket = fd
            return true
        }
        defer {
            socketLock.withLock { activeSocket = -1 }
            close(fd)
        }
        guard admitted else { throw HTTPError(.closed, "the call was stopped") }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in extraHeaders { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try HTTPSocket.send(fd, Array(head.utf8) + (body ?? []))
        var reader = HTTPReader(fd: fd)
        guard let response = try reader.head(deadline: deadline), response.startLine[0].hasPrefix("HTTP/") else {
            throw HTTPError(.closed, "\(url): the connection closed without a response")
        }
        try read(response, &reader)
    }
}
