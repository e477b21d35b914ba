import Foundation
import Synchronization

/// The one small HTTP/1.1 server, for `agent mcp serve --http` and `agent serve`: one thread per
/// connection, keep-alive, bodies by Content-Length (or chunked), and responses that are either
/// whole or a server-sent-event stream held open until either side closes it. On 127.0.0.1
/// unless told otherwise (`agent serve` asks for an API key before it listens anywhere else).
public final class HTTPServer: Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var head: HTTPHead
        public var body: [UInt8]

        public init(method: String, path: String, head: HTTPHead, body: [UInt8]) {
            self.method = method
            self.path = path
            self.head = head
            self.body = body
        }

        public subscript(header name: String) -> String? { head[header: name] }
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String] = [:]
        public var body: [UInt8] = []

        public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        public static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Response {
            Response(status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: Array(text.utf8))
        }
    }

    /// What to do with a request.
    public enum Outcome: Sendable {
        case respond(Response)
        /// Start an event stream with these headers; `opened` gets it, and it lasts until closed.
        case stream(headers: [String: String], opened: @Sendable (EventStream) -> Void)
    }

    /// One open `text/event-stream` response.
    public final class EventStream: Sendable {
        private let fd: Int32
        private let open = Mutex(true)

        init(fd: Int32) { self.fd = fd }

        /// Sends one event carrying `data` (one line of JSON) under the name `event` (none: an
        /// unnamed event, as OpenAI's chat-completion chunks are); false once the stream is closed.
        @discardableResult
        public func send(_ data: String, event: String? = "message") -> Bool {
            open.withLock { isOpen in
                guard isOpen else { return false }
                let text = (event.map { "event: \($0)\n" } ?? "") + "data: \(data)\n\n"
                do { try HTTPSocket.send(fd, Array(text.utf8)) } catch {
                    isOpen = false
                    return false
                }
                return true
            }
        }

        /// Ends the stream (the connection closes).
        public func close() {
            open.withLock { isOpen in
                if isOpen { _ = shutdown(fd, Int32(SHUT_RDWR)) }
                isOpen = false
            }
        }

        public var isOpen: Bool { open.withLock { $0 } }
    }

    public let port: Int
    public let host: String
    private let listener: Int32
    private let handler: @Sendable (Request) -> Outcome
    private let admit: @Sendable (HTTPHead) -> Response?
    private let connections = Mutex<Set<Int32>>([])
    private let stopped = Mutex(false)
    /// Bodies larger than this are refused (413): one JSON-RPC message never comes close.
    static let maximumBodyBytes = 16 << 20
    /// A connection idle this long between requests, or this slow to send a head, is closed.
    static let idleSeconds = 60.0
    /// A body must arrive within this long of its head.
    static let bodySeconds = 60.0
    /// Connections served at once; one more is answered 503 and closed.
    public let maximumConnections: Int

    /// Listens on `host`:`port` (0 picks a free one; `self.port` says which); `host` is an IPv4
    /// address, 127.0.0.1 by default. `admit` sees each request's head before any byte of its
    /// body is read, and refuses it by returning the response to send (a missing API key, say).
    public init(
        host: String = "127.0.0.1", port: Int, maximumConnections: Int = 512, admit: @escaping @Sendable (HTTPHead) -> Response? = { _ in nil },
        handler: @escaping @Sendable (Request) -> Outcome
    ) throws(HTTPError) {
        (listener, self.port) = try HTTPSocket.listen(host: host, port: port)
        self.host = host
        self.maximumConnections = maximumConnections
        self.admit = admit
        self.handler = handler
    }

    /// Accepts connections until `stop()`.
    public func run() {
        while let fd = HTTPSocket.accept(listener) {
            enum Admission { case admitted, full, stopped }
            let admission = stopped.withLock { stopped -> Admission in
                if stopped { return .stopped }
                return connections.withLock { open in
                    guard open.count < maximumConnections else { return .full }
                    open.insert(fd)
                    return .admitted
                }
            }
            if admission == .stopped {
                close(fd)
                break
            }
            if admission == .full {
                let busy = Self.error(503, "the server is serving \(maximumConnections) connections, its most: try again shortly", headers: ["Retry-After": "1"])
                try? HTTPSocket.send(fd, Self.serialize(busy, close: true))
                close(fd)
                continue
            }
            let thread = Thread { [self] in
                serve(fd)
                connections.withLock { _ = $0.remove(fd) }
                close(fd)
            }
            thread.start()
        }
    }

    /// Stops accepting and cuts every open connection.
    public func stop() {
        stopped.withLock { $0 = true }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        for fd in connections.withLock({ $0 }) { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func serve(_ fd: Int32) {
        var reader = HTTPReader(fd: fd, requiresCRLF: true)
        while true {
            let request: Request
            do throws(HTTPError) {
                guard let head = try reader.head(deadline: monotonicSeconds() + Self.idleSeconds) else { return }
                guard head.startLine.count == 3, head.startLine[2].hasPrefix("HTTP/1.") else {
                    throw HTTPError(.malformed, "not an HTTP/1.x request line")
                }
                let framing = try head.bodyFraming(isResponse: false)
                if let refusal = admit(head) {
                    try? HTTPSocket.send(fd, Self.serialize(refusal, close: true))
                    return
                }
                if case .length(let count) = framing, count > Self.maximumBodyBytes {
                    try? HTTPSocket.send(fd, Self.serialize(Self.error(413, "a body of \(count) bytes, more than the \(Self.maximumBodyBytes) allowed"), close: true))
                    return
                }
                let body = try reader.body(framing, deadline: monotonicSeconds() + Self.bodySeconds, maximumBytes: Self.maximumBodyBytes)
                request = Request(method: head.startLine[0], path: head.startLine[1], head: head, body: body)
            } catch {
                if error.kind == .malformed { try? HTTPSocket.send(fd, Self.serialize(Self.error(400, error.message), close: true)) }
                return
            }
            let closeAfter = request[header: "connection"]?.lowercased() == "close"
            switch handler(request) {
            case .respond(let response):
                do { try HTTPSocket.send(fd, Self.serialize(response, close: closeAfter)) } catch { return }
                if closeAfter { return }
            case .stream(let headers, let opened):
                var head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n"
                for (name, value) in headers { head += "\(name): \(value)\r\n" }
                guard (try? HTTPSocket.send(fd, Array((head + "\r\n").utf8))) != nil else { return }
                let stream = EventStream(fd: fd)
                opened(stream)
                // Held open until the client goes away or the stream is closed (shutdown wakes this poll).
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                var scratch = [UInt8](repeating: 0, count: 4096)
                while stream.isOpen {
                    let ready = poll(&pfd, 1, 1000)
                    if ready < 0 && errno != EINTR { break }
                    if ready > 0, recv(fd, &scratch, scratch.count, 0) <= 0 { break }
                }
                stream.close()
                return
            }
        }
    }

    /// An error answered by the server itself: `{"error": {"message": …, "type": …}}`, encoded, so a
    /// message quoting the client's bytes stays valid JSON.
    static func error(_ status: Int, _ message: String, headers: [String: String] = [:]) -> Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                var message: String
                var type: String
            }
            var error: Detail
        }
        let type = status == 503 ? "unavailable" : "invalid_request_error"
        let data = (try? JSONEncoder().encode(Body(error: .init(message: message, type: type)))) ?? Data(#"{"error":{"message":"bad request"}}"#.utf8)
        return Response(status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: Array(data))
    }

    public static func serialize(_ response: Response, close: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\nContent-Length: \(response.body.count)\r\n"
        if close { head += "Connection: close\r\n" }
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + response.body
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 202: "Accepted"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
