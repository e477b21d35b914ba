import CMicroHTTPD
import Foundation
import Synchronization

/// The one HTTP server, for `agent mcp serve --http` and `agent serve`, on libmicrohttpd: its
/// parser, its limits (connections, connections per address, idle timeout, memory per
/// connection) and a small pool of threads on epoll. A request's handler runs on a thread of its
/// own while its connection is suspended (handlers block: an agent's answer takes seconds), and
/// its answer is either whole or a server-sent-event stream held open until either side closes it.
/// On 127.0.0.1 unless told otherwise (`agent serve` asks for an API key before it listens
/// anywhere else).
public final class HTTPServer: Sendable {
    public struct Request: Sendable {
        public var method: String
        /// The path, without the query.
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

        /// `{"error": {"message": …, "type": …}}`, encoded as JSON whatever the message holds.
        public static func error(_ status: Int, _ message: String, type: String = "invalid_request_error") -> Response {
            let object = ["error": ["message": message, "type": type]]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            return Response(status: status, headers: ["Content-Type": "application/json"], body: Array(data))
        }
    }

    /// What to do with a request.
    public enum Outcome: Sendable {
        case respond(Response)
        /// Start an event stream with these headers; `opened` gets it, and it lasts until closed.
        case stream(headers: [String: String], opened: @Sendable (EventStream) -> Void)
    }

    /// What the server admits.
    public struct Limits: Sendable {
        /// Bodies larger than this are refused with 413 (one JSON message never comes close).
        public var bodyBytes = 16 << 20
        public var connections = 4096
        public var connectionsPerAddress = 2048
        /// A connection silent this long (between requests, or in the middle of one) is closed.
        public var idleSeconds = 60
        /// Memory for one connection's head and buffers: a head larger than about this is refused.
        public var connectionMemoryBytes = 64 << 10
        /// Threads polling the connections (handlers run on threads of their own).
        public var pollingThreads = 2

        public init() {}
    }

    public let port: Int
    public let host: String
    let core: ServerCore
    private let daemon: DaemonHandle
    private let finished = Mutex(false)
    private let stopped = DispatchSemaphore(value: 0)

    /// Listens on `host`:`port` (0 picks a free one; `self.port` says which); `host` is an IPv4
    /// address, 127.0.0.1 by default. `admit` sees each request's head before any byte of its
    /// body is read, and refuses it by returning the response to send (a missing API key, say).
    /// A request `runsInline` says answers at once (a health check) is handled on the polling
    /// thread; every other one on a thread of its own, its connection suspended meanwhile.
    public init(
        host: String = "127.0.0.1", port: Int, limits: Limits = Limits(), admit: @escaping @Sendable (HTTPHead) -> Response? = { _ in nil },
        runsInline: @escaping @Sendable (HTTPHead) -> Bool = { _ in false }, handler: @escaping @Sendable (Request) -> Outcome
    ) throws(HTTPError) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw HTTPError(.failed, "'\(host)' is not an IPv4 address") }
        let core = ServerCore(limits: limits, admit: admit, runsInline: runsInline, handler: handler)
        let context = Unmanaged.passRetained(core).toOpaque()
        guard
            let daemon = trailhead_mhd_start(
                &address, UInt32(limits.pollingThreads), UInt32(limits.connections), UInt32(limits.connectionsPerAddress),
                UInt32(limits.idleSeconds), limits.connectionMemoryBytes, ServerCore.access, context, ServerCore.completed)
        else {
            Unmanaged<ServerCore>.fromOpaque(context).release()
            throw HTTPError(.failed, "cannot listen on \(host):\(port): \(String(cString: strerror(errno)))")
        }
        self.core = core
        self.daemon = DaemonHandle(pointer: daemon)
        self.host = host
        self.port = Int(trailhead_mhd_port(daemon))
        core.startHeartbeat()
    }

    /// Serves until `stop()` (the daemon's own threads do the work).
    public func run() {
        stopped.wait()
        stopped.signal()
    }

    /// Stops: ends every event stream, lets handlers under way finish (up to a few seconds), and
    /// closes every connection.
    public func stop() {
        guard finished.withLock({ done in defer { done = true }; return !done }) else { return }
        core.stopping()
        // No new connections from now on (the listening socket is handed back to be closed).
        let listener = MHD_quiesce_daemon(daemon.pointer)
        if listener >= 0 { close(listener) }
        // libmicrohttpd must not be stopped with a connection suspended.
        if core.waitUntilNoneSuspended(seconds: 5) {
            MHD_stop_daemon(daemon.pointer)
            Unmanaged.passUnretained(core).release()
        }
        stopped.signal()
    }
}

/// The daemon's pointer, touched only by `init` and `stop`.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
