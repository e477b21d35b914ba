import Foundation
import Synchronization
import TrailheadSchema
import TrailheadSupport

/// `agent mcp serve --http PORT`: the Streamable HTTP transport (MCP 2025-11-25) on
/// `http://127.0.0.1:PORT/mcp`. A POST carries one message: a request is answered with a JSON
/// body, a notification with 202. `initialize` opens a session (`Mcp-Session-Id`), which every
/// later message must name; a GET opens the session's event stream (where
/// `notifications/tools/list_changed` goes); a DELETE ends the session.
final class MCPHTTPTransport: Sendable {
    static let path = "/mcp"

    /// One client's session: its protocol state, its calls in flight, its event streams.
    private final class Session: Sendable {
        let protocolState: Mutex<MCPServerSession>
        let inFlight = Mutex<[String: ToolCallCancellation]>([:])
        let streams = Mutex<[HTTPServer.EventStream]>([])

        init(_ session: MCPServerSession) { protocolState = Mutex(session) }

        func end() {
            for cancellation in inFlight.withLock({ Array($0.values) }) { cancellation.cancel() }
            for stream in streams.withLock({ $0 }) { stream.close() }
        }
    }

    private let source: any MCPToolSource
    private let sessions = Mutex<[String: Session]>([:])

    init(source: any MCPToolSource) { self.source = source }

    /// Sends a notification to every session's event streams.
    func notify(_ method: String) {
        let line = JSONRPC.notification(method: method).jsonString
        for session in sessions.withLock({ Array($0.values) }) {
            session.streams.withLock { streams in streams.removeAll { !$0.send(line) } }
        }
    }

    /// Ends every session (the server is stopping).
    func endAll() {
        for session in sessions.withLock({ sessions in defer { sessions = [:] }; return Array(sessions.values) }) { session.end() }
    }

    func handle(_ request: HTTPServer.Request) -> HTTPServer.Outcome {
        // DNS rebinding: a browser page from elsewhere must not reach a local tool server.
        if let origin = request[header: "origin"], !Self.isLocal(origin: origin) {
            return .respond(Self.error(403, "Forbidden: origin \(origin) is not local"))
        }
        guard request.path.split(separator: "?").first.map(String.init) == Self.path else {
            return .respond(Self.error(404, "Not Found: the MCP endpoint is \(Self.path)"))
        }
        if let version = request[header: "mcp-protocol-version"], !JSONRPC.supportedVersions.contains(version) {
            return .respond(Self.error(400, "Bad Request: unsupported MCP-Protocol-Version \(version) (supported: \(JSONRPC.supportedVersions.joined(separator: ", ")))"))
        }
        switch request.method {
        case "POST": return post(request)
        case "GET": return openStream(request)
        case "DELETE":
            guard let id = request[header: "mcp-session-id"] else { return .respond(Self.error(400, "Bad Request: no Mcp-Session-Id")) }
            guard let session = sessions.withLock({ $0.removeValue(forKey: id) }) else { return .respond(Self.error(404, "Not Found: no session \(id)")) }
            session.end()
            return .respond(.init(status: 200))
        default:
            return .respond(.init(status: 405, headers: ["Allow": "GET, POST, DELETE"]))
        }
    }

    private func post(_ request: HTTPServer.Request) -> HTTPServer.Outcome {
        guard let message = try? GeneratedContent(json: request.body) else {
            return .respond(.json(400, JSONRPC.error(id: .null, code: JSONRPC.parseError, message: "parse error: the body is not one JSON value").jsonString))
        }
        if message["method"]?.stringValue == "initialize", message["id"] != nil {
            var state = MCPServerSession(source: source)
            switch state.handle(message: message) {
            case .initialized(let reply):
                let sessionID = UUID().uuidString
                sessions.withLock { $0[sessionID] = Session(state) }
                return .respond(.json(200, reply, headers: ["Mcp-Session-Id": sessionID]))
            case .reply(let reply):
                // Refused (an unsupported revision): the JSON-RPC error, and no session.
                return .respond(.json(200, reply))
            case .call, .cancel, .none:
                return .respond(.init(status: 202))
            }
        }
        guard let sessionID = request[header: "mcp-session-id"] else {
            return .respond(Self.error(400, "Bad Request: no Mcp-Session-Id (send initialize first)"))
        }
        guard let session = sessions.withLock({ $0[sessionID] }) else {
            return .respond(Self.error(404, "Not Found: no session \(sessionID) (it ended; initialize again)"))
        }
        switch session.protocolState.withLock({ $0.handle(message: message) }) {
        case .reply(let reply), .initialized(let reply):
            return .respond(.json(200, reply))
        case .none:
            return .respond(.init(status: 202))
        case .cancel(let requestID):
            session.inFlight.withLock { $0[requestID.jsonString] }?.cancel()
            return .respond(.init(status: 202))
        case .call(let id, let tool, let arguments):
            let key = id.jsonString
            let cancellation = ToolCallCancellation()
            session.inFlight.withLock { $0[key] = cancellation }
            let outcome = source.call(tool, arguments: arguments, cancellation: cancellation)
            session.inFlight.withLock { _ = $0.removeValue(forKey: key) }
            // A cancelled request gets no reply (MCP: SHOULD NOT respond); its POST still needs an
            // HTTP answer, so it gets an event stream that ends without a message.
            if cancellation.isCancelled { return .respond(.init(status: 200, headers: ["Content-Type": "text/event-stream"])) }
            return .respond(.json(200, MCPServerSession.reply(to: id, with: outcome)))
        }
    }

    private func openStream(_ request: HTTPServer.Request) -> HTTPServer.Outcome {
        guard request[header: "accept"]?.contains("text/event-stream") == true else {
            return .respond(.init(status: 405, headers: ["Allow": "POST, DELETE"]))
        }
        guard let sessionID = request[header: "mcp-session-id"] else { return .respond(Self.error(400, "Bad Request: no Mcp-Session-Id")) }
        guard let session = sessions.withLock({ $0[sessionID] }) else { return .respond(Self.error(404, "Not Found: no session \(sessionID)")) }
        return .stream(headers: ["Mcp-Session-Id": sessionID]) { stream in
            session.streams.withLock { $0.append(stream) }
        }
    }

    private static func error(_ status: Int, _ message: String) -> HTTPServer.Response {
        .json(status, JSONRPC.error(id: .null, code: JSONRPC.invalidRequest, message: message).jsonString)
    }

    /// `http(s)://localhost`, `127.0.0.1` or `[::1]`, any port.
    static func isLocal(origin: String) -> Bool {
        guard let host = URL(string: origin)?.host else { return false }
        return ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)
    }
}
