import Foundation
import TrailheadSchema
import TrailheadSupport

/// An MCP server's Streamable HTTP endpoint (http:// or https://) as a `WorkerChannel`: a request
/// line is POSTed when its reply is awaited (so the POST runs under the reply's deadline), and the
/// reply, a JSON body or the messages of an SSE stream, comes back as lines. The `Mcp-Session-Id`
/// the server assigns at `initialize` and the agreed `MCP-Protocol-Version` go with every later
/// message. Each exchange is one libcurl transfer (TrailheadSupport's `HTTPClient`) on the
/// calling thread; `kill()` stops the one in flight.
final class HTTPWorkerChannel: WorkerChannel {
    let url: String
    private var sessionID: String?
    private var protocolVersion: String?
    /// A request whose reply has not been read yet: (its line, its id, its method).
    private var pendingRequest: (body: [UInt8], id: GeneratedContent, method: String)?
    private var received: [[UInt8]] = []
    private var ended: String?
    /// The exchange in flight, so `kill()` can stop it from another thread.
    private let transferLock = NSLock()
    private var activeTransfer: HTTPClient.Cancellation?
    private var killed = false

    /// Notifications and the closing DELETE are not worth waiting long for.
    private static let shortSeconds = 5.0

    init(url: String) throws(PluginLoadError) {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw PluginLoadError("MCP server URL '\(url)' is not an http:// or https:// URL")
        }
        self.url = url
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
            do { try post(request.body, replyTo: request.id, method: request.method, deadline: deadline) } catch {
                if error.kind == .timedOut || error.kind == .idleTimeout { return .timedOut }
                ended = ended ?? error.message
                return .endOfFile
            }
        }
        guard !received.isEmpty else { return .endOfFile }
        let line = received.removeFirst()
        return line.count > maximumBytes ? .tooLong(line.count) : .line(line)
    }

    func kill() {
        transferLock.withLock {
            killed = true
            activeTransfer?.cancel()
        }
    }

    /// Ends the session (DELETE), as the transport asks of a client that is done.
    func closeInput() {
        guard ended == nil else { return }
        ended = "closed its session"
        guard let sessionID else { return }
        _ = try? exchange(method: "DELETE", body: nil, headers: ["Mcp-Session-Id": sessionID], deadline: monotonicSeconds() + Self.shortSeconds) { _ in true }
    }

    func reap(graceSeconds: Double?) -> String {
        killed ? "was cut off" : (ended.map { $0 } ?? "closed its session")
    }

    func stderrExcerpt(last bytes: Int) -> String { "" }

    // MARK: - HTTP

    /// POSTs one message; the reply's messages are queued in `received`.
    private func post(_ body: [UInt8], replyTo id: GeneratedContent?, method: String?, deadline: Double) throws(HTTPError) {
        var headers = ["Content-Type": "application/json", "Accept": "application/json, text/event-stream"]
        if let sessionID { headers["Mcp-Session-Id"] = sessionID }
        if let protocolVersion { headers["MCP-Protocol-Version"] = protocolVersion }
        var status = 0
        var isEventStream = false
        var events = ServerSentEventParser()
        var bytes: [UInt8] = []
        var replied = false
        let responseHeaders = try exchange(method: "POST", body: body, headers: headers, deadline: deadline) { event in
            switch event {
            case .head(let s, let h):
                status = s
                isEventStream = s == 200 && (h["content-type"]?.lowercased().hasPrefix("text/event-stream") ?? false)
            case .body(let piece) where isEventStream:
                let payloads = events.feed(piece)
                if events.overflowed { return false }
                for payload in payloads {
                    guard let message = try? GeneratedContent(json: payload) else { continue }
                    self.take(message)
                    // The reply to the request has come: the rest of the stream is not awaited.
                    if let id, message["id"] == id, message["method"] == nil {
                        replied = true
                        return false
                    }
                }
            case .body(let piece):
                bytes += piece
                if bytes.count > WorkerClient.maximumReplyBytes { return false }
            }
            return true
        }
        if events.overflowed { throw HTTPError(.malformed, "\(url) sent an event larger than \(events.maximumEventBytes >> 20) MiB") }
        if bytes.count > WorkerClient.maximumReplyBytes { throw HTTPError(.malformed, "\(url) sent a reply larger than \(WorkerClient.maximumReplyBytes) bytes") }
        if status == 404, sessionID != nil { throw HTTPError(.closed, "the server ended the session (404 Not Found)") }
        if status != 202, !isEventStream, !replied, let id {
            if status == 200, let message = try? GeneratedContent(json: bytes) {
                take(message)
            } else {
                // An HTTP error without a JSON-RPC body still answers the request, as an error.
                let text = String(decoding: bytes.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                let reply = (try? GeneratedContent(json: bytes)).flatMap { $0["error"] != nil ? $0 : nil }
                    ?? JSONRPC.error(
                        id: id, code: JSONRPC.internalError,
                        message: "\(url) answered HTTP \(status)\(status == 200 ? " with no JSON-RPC message" : "")\(text.isEmpty ? "" : ": \(text)")")
                take(reply)
            }
        }
        if method == "initialize" {
            sessionID = responseHeaders["mcp-session-id"]
            protocolVersion = received.lazy.compactMap { try? GeneratedContent(json: $0) }
                .compactMap { $0["result"]?["protocolVersion"]?.stringValue }.first
        }
    }

    private func take(_ message: GeneratedContent) {
        received.append(Array(message.jsonString.utf8))
    }

    /// One HTTP exchange until `deadline`; `receive` gets the head and each piece of the body
    /// (false stops reading). Returns the response's headers.
    private func exchange(
        method: String, body: [UInt8]?, headers: [String: String], deadline: Double, receive: @escaping (HTTPClient.Event) -> Bool
    ) throws(HTTPError) -> [String: String] {
        let cancellation = HTTPClient.Cancellation()
        let admitted = transferLock.withLock { () -> Bool in
            guard !killed else { return false }
            activeTransfer = cancellation
            return true
        }
        defer { transferLock.withLock { activeTransfer = nil } }
        guard admitted else { throw HTTPError(.closed, "the call was stopped") }
        let seconds = max(0.001, deadline - monotonicSeconds())
        var responseHeaders: [String: String] = [:]
        var sawHead = false
        let request = HTTPClient.Request(url: url, method: method, headers: headers, body: body, idleSeconds: seconds, totalSeconds: seconds)
        try HTTPClient.perform(request, cancellation: cancellation) { event in
            if case .head(_, let h) = event {
                responseHeaders = h
                sawHead = true
            }
            return receive(event)
        }
        guard sawHead else { throw HTTPError(.closed, "\(url): the connection closed without a response") }
        return responseHeaders
    }
}
