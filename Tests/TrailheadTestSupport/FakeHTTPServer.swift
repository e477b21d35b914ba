import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP server on 127.0.0.1 for tests (an OpenAI-compatible upstream, a rate-limited one…), written on POSIX sockets: each connection's
/// request is read whole, then answered by a scripted list of steps (send bytes, pause, close),
/// so tests can produce garbage, broken streams, 429s and slow servers on purpose.
public final class FakeHTTPServer: @unchecked Sendable {
    public enum Step: Sendable {
        case send(String)
        case pause(Double)
        /// Close the connection now (the rest of the response never comes).
        case close
    }

    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var body: String
    }

    public let port: Int
    private let listener: Int32
    private let respond: @Sendable (Int, Request) -> [Step]
    private let lock = NSLock()
    private var _requests: [Request] = []
    private var stopped = false

    /// The requests received so far, in order.
    public var requests: [Request] { lock.withLock { _requests } }

    /// Starts listening; `respond(n, request)` scripts the answer to the n-th request (0-based).
    public init(respond: @escaping @Sendable (Int, Request) -> [Step]) throws {
        self.respond = respond
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw NSError(domain: "FakeHTTPServer", code: Int(errno)) }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// Stops listening, once: a second close could hit a descriptor number that another test's
    /// socket has reused since (seen as EBADF in a later server's bind), so `deinit` after an
    /// explicit `stop()` must do nothing.
    public func stop() {
        let wasStopped = lock.withLock { () -> Bool in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0, errno == EINTR { continue }
            if connection < 0 { return }
            if lock.withLock({ stopped }) {
                close(connection)
                return
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        let index: Int = lock.withLock {
            _requests.append(request)
            return _requests.count - 1
        }
        for step in respond(index, request) {
            switch step {
            case .send(let text):
                let bytes = Array(text.utf8)
                var sent = 0
                while sent < bytes.count {
                    let n = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if n < 0, errno == EINTR { continue }
                    if n <= 0 { return }
                    sent += n
                }
            case .pause(let seconds): usleep(UInt32(seconds * 1e6))
            case .close: return
            }
        }
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = headerEnd(data) {
                let head = String(decoding: data[..<end], as: UTF8.self)
                let lines = head.split(separator: "\r\n")
                let parts = lines.first?.split(separator: " ") ?? []
                let length = lines.compactMap { line -> Int? in
                    let pair = line.split(separator: ":", maxSplits: 1)
                    return pair.count == 2 && pair[0].lowercased() == "content-length" ? Int(pair[1].trimmingCharacters(in: .whitespaces)) : nil
                }.first ?? 0
                if data.count - (end + 4) >= length {
                    let body = String(decoding: data[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                    return Request(method: parts.count > 0 ? String(parts[0]) : "", path: parts.count > 1 ? String(parts[1]) : "", body: body)
                }
            }
            // (A signal to this busy test process interrupts the call: that is no closed connection.
            // Taken for one, a loaded run answered a request with nothing at all.)
            let n = recv(connection, &buffer, buffer.count, 0)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return nil }
            data += buffer[0..<n]
        }
    }

    private func headerEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for i in 0...(data.count - 4) where data[i] == 13 && data[i + 1] == 10 && data[i + 2] == 13 && data[i + 3] == 10 { return i }
        return nil
    }

    // MARK: - Canned answers

    public static func head(status: Int = 200, type: String = "text/event-stream", extra: String = "") -> String {
        "HTTP/1.1 \(status) X\r\nContent-Type: \(type)\r\nConnection: close\r\n\(extra)\r\n"
    }

    public static func chunk(_ content: String) -> String {
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\(GeneratedContentString(content))}}]}\n\n"
    }

    public static let finish = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
        + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3}}\n\ndata: [DONE]\n\n"

    /// A complete streamed answer of `parts`.
    public static func stream(_ parts: [String]) -> [Step] {
        [.send(head())] + parts.map { .send(chunk($0)) } + [.send(finish)]
    }
}

import TrailheadSchema

private func GeneratedContentString(_ s: String) -> String { GeneratedContent.string(s).jsonString }
