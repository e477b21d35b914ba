import CMicroHTTPD
import Foundation
import Synchronization

/// What libmicrohttpd's callbacks reach through their context pointer: the handler, the limits,
/// and the exchanges under way.
final class ServerCore: Sendable {
    let limits: HTTPServer.Limits
    let admit: @Sendable (HTTPHead) -> HTTPServer.Response?
    let handler: @Sendable (HTTPServer.Request) -> HTTPServer.Outcome
    /// Whether a request's handler answers at once (run on the polling thread, not a thread of its own).
    let runsInline: @Sendable (HTTPHead) -> Bool
    /// Exchanges whose connection is suspended (a handler is running, or a stream waits for events).
    private let suspended = Mutex<[ObjectIdentifier: Exchange]>([:])
    private let isStopping = Atomic(false)

    init(
        limits: HTTPServer.Limits, admit: @escaping @Sendable (HTTPHead) -> HTTPServer.Response?,
        runsInline: @escaping @Sendable (HTTPHead) -> Bool, handler: @escaping @Sendable (HTTPServer.Request) -> HTTPServer.Outcome
    ) {
        self.limits = limits
        self.admit = admit
        self.runsInline = runsInline
        self.handler = handler
    }

    func noteSuspended(_ exchange: Exchange, _ isSuspended: Bool) {
        suspended.withLock { if isSuspended { $0[ObjectIdentifier(exchange)] = exchange } else { $0[ObjectIdentifier(exchange)] = nil } }
    }

    func stopping() {
        isStopping.store(true, ordering: .sequentiallyConsistent)
        for exchange in suspended.withLock({ Array($0.values) }) { exchange.stream?.close() }
    }

    var isStopped: Bool { isStopping.load(ordering: .sequentiallyConsistent) }

    /// Until the server stops: breaks the silence of idle event streams, so that one whose client
    /// went away is noticed (libmicrohttpd does not watch a suspended connection).
    func startHeartbeat() {
        let thread = Thread { [self] in
            while !isStopped {
                usleep(500_000)
                for exchange in suspended.withLock({ Array($0.values) }) { exchange.stream?.beat() }
            }
        }
        thread.start()
    }

    func waitUntilNoneSuspended(seconds: Double) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while monotonicSeconds() < deadline {
            if suspended.withLock({ $0.isEmpty }) { return true }
            usleep(10_000)
        }
        return false
    }

    // MARK: - libmicrohttpd's callbacks

    /// Called for the head, for each piece of the body, and once the request is complete (again
    /// after each resume, until a response is queued).
    static let access: MHD_AccessHandlerCallback = { context, connection, url, method, version, uploadData, uploadSize, connectionContext in
        guard let context, let connection, let uploadSize, let connectionContext else { return MHD_Result.NO }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        guard let existing = connectionContext.pointee else {
            // The head: everything that refuses a request is decided here, before any body byte.
            let head = Exchange.head(of: connection, method: method, url: url, version: version)
            if let refusal = core.refusal(of: head) { return Exchange.queue(refusal, on: connection) }
            let exchange = Exchange(core: core, connection: connection, head: head)
            connectionContext.pointee = Unmanaged.passRetained(exchange).toOpaque()
            return MHD_Result.YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let uploadData { exchange.receive(UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee)) }
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        return exchange.complete()
    }

    /// The request is over (answered, failed or cut): releases its exchange.
    static let completed: MHD_RequestCompletedCallback = { _, _, connectionContext, _ in
        guard let connectionContext, let pointer = connectionContext.pointee else { return }
        connectionContext.pointee = nil
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeRetainedValue()
        exchange.stream?.connectionEnded()
    }

    /// Why a request is refused from its head alone, if it is.
    func refusal(of head: HTTPHead) -> HTTPServer.Response? {
        if isStopped { return .error(503, "the server is stopping", type: "unavailable") }
        if head.startLine[1].utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return .error(400, "a control character in the request's path") }
        if head.headers.keys.contains(where: { $0.utf8.contains { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ":") } }) {
            return .error(400, "a malformed header name")
        }
        if head.headers["content-length"] != nil, head.headers["transfer-encoding"] != nil {
            return .error(400, "a request with both Content-Length and Transfer-Encoding (RFC 9112 section 6.3)")
        }
        if let length = head.headers["content-length"] {
            guard !length.isEmpty, length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(length) else {
                return .error(400, "malformed Content-Length")
            }
            if count > limits.bodyBytes { return .error(413, "a body of \(count) bytes, more than the \(limits.bodyBytes) allowed") }
        }
        return admit(head)
    }
}

/// One request on one connection: its head and body, then its handler's outcome.
final class Exchange: @unchecked Sendable {
    // `head`, `body` and `tooLarge` are touched only by libmicrohttpd's thread for this
    // connection, before the handler starts; `outcome` is set by the handler's thread before it
    // resumes the connection, and read after.
    let core: ServerCore
    let connection: ConnectionHandle
    private let head: HTTPHead
    private var body: [UInt8] = []
    private var tooLarge = false
    private var started = false
    private var outcome: HTTPServer.Outcome?
    private(set) var stream: EventStream?

    init(core: ServerCore, connection: OpaquePointer, head: HTTPHead) {
        self.core = core
        self.connection = ConnectionHandle(pointer: connection)
        self.head = head
    }

    func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !tooLarge else { return }
        if body.count + bytes.count > core.limits.bodyBytes {
            tooLarge = true
            body = []
        } else {
            body.append(contentsOf: bytes)
        }
    }

    /// The request is complete: starts its handler, or answers with what it decided.
    func complete() -> MHD_Result {
        if tooLarge { return Self.queue(.error(413, "a body of more than \(core.limits.bodyBytes) bytes"), on: connection.pointer) }
        if let outcome {
            core.noteSuspended(self, false)
            switch outcome {
            case .respond(let response): return Self.queue(response, on: connection.pointer)
            case .stream(let headers, _): return queueStream(headers: headers)
            }
        }
        guard !started else { return MHD_Result.YES }
        started = true
        let request = HTTPServer.Request(method: head.startLine[0], path: head.startLine[1], head: head, body: body)
        body = []
        // What the router says answers at once runs here, on the polling thread: no suspension,
        // no thread of its own (a health check or a model list costs microseconds).
        var answered: HTTPServer.Outcome?
        if core.runsInline(head) {
            let outcome = core.handler(request)
            if case .respond(let response) = outcome { return Self.queue(Self.explained(response), on: connection.pointer) }
            answered = outcome
        }
        core.noteSuspended(self, true)
        MHD_suspend_connection(connection.pointer)
        let thread = Thread { [self, answered] in
            var outcome = answered ?? core.handler(request)
            if case .stream(_, let opened) = outcome {
                let stream = EventStream(exchange: self)
                self.stream = stream
                opened(stream)
            }
            if case .respond(let response) = outcome { outcome = .respond(Self.explained(response)) }
            self.outcome = outcome
            MHD_resume_connection(connection.pointer)
        }
        thread.start()
        return MHD_Result.YES
    }

    /// A server error with no body gets one that says so.
    private static func explained(_ response: HTTPServer.Response) -> HTTPServer.Response {
        guard response.status >= 500, response.body.isEmpty else { return response }
        return .error(response.status, "the server failed", type: "server_error")
    }

    private func queueStream(headers: [String: String]) -> MHD_Result {
        guard let stream else { return MHD_Result.NO }
        let context = Unmanaged.passRetained(stream).toOpaque()
        guard
            let response = MHD_create_response_from_callback(
                trailhead_mhd_size_unknown(), 4096, EventStream.read, context, { Unmanaged<EventStream>.fromOpaque($0!).release() })
        else {
            Unmanaged<EventStream>.fromOpaque(context).release()
            return MHD_Result.NO
        }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Content-Type", "text/event-stream")
        MHD_add_response_header(response, "Cache-Control", "no-cache")
        for (name, value) in headers { MHD_add_response_header(response, name, value) }
        return MHD_queue_response(connection.pointer, 200, response)
    }

    static func queue(_ response: HTTPServer.Response, on connection: OpaquePointer) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let made else { return MHD_Result.NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    /// The request line and headers (names in lower case) as libmicrohttpd parsed them.
    static func head(of connection: OpaquePointer, method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?) -> HTTPHead {
        final class Collected {
            var headers: [String: String] = [:]
            var conflicting = false
            var query: [String: String] = [:]
        }
        let collected = Collected()
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(
                connection, MHD_ValueKind.HEADER_KIND,
                { context, _, key, value in
                    guard let context, let key else { return MHD_Result.YES }
                    let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
                    let name = String(cString: key).lowercased()
                    let text = value.map { String(cString: $0) } ?? ""
                    if name == "content-length", let earlier = collected.headers[name], earlier != text { collected.conflicting = true }
                    collected.headers[name] = text
                    return MHD_Result.YES
                }, Unmanaged.passUnretained(collected).toOpaque())
            _ = MHD_get_connection_values(
                connection, MHD_ValueKind.GET_ARGUMENT_KIND,
                { context, _, key, value in
                    guard let context, let key else { return MHD_Result.YES }
                    let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
                    collected.query[String(cString: key)] = value.map { String(cString: $0) } ?? ""
                    return MHD_Result.YES
                }, Unmanaged.passUnretained(collected).toOpaque())
        }
        if collected.conflicting { collected.headers["content-length"] = "conflicting" }
        let string = { (pointer: UnsafePointer<CChar>?) in pointer.map { String(cString: $0) } ?? "" }
        return HTTPHead(startLine: [string(method), string(url), string(version)], headers: collected.headers, query: collected.query)
    }
}

/// A connection's pointer, for the thread that resumes it.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
