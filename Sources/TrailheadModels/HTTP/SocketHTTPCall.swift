import Foundation
import TrailheadSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Plain-HTTP exchanges over a POSIX socket, for `http://` endpoints (the managed local server
/// above all).
///
/// Measured here: FoundationNetworking's URLSession burns 0.5–0.8 of a core while it waits for
/// a response (1.5 s of CPU over a 3 s wait, for a plain `dataTask`), which on a 2-core machine
/// is taken straight from llama-server's prompt processing. This client blocks in `poll` on
/// its own thread instead: no CPU while waiting. HTTP/1.1 with `Connection: close`;
/// bodies by Content-Length, chunked transfer encoding, or until close. `https://` still goes
/// through URLSession.
final class SocketHTTPCall: @unchecked Sendable {
    private let cancelled = Locked(false)

    static func start(_ request: URLRequest, timeouts: HTTPStreamingCall.Timeouts) -> AsyncThrowingStream<HTTPStreamingCall.Event, any Error> {
        let (stream, continuation) = AsyncThrowingStream<HTTPStreamingCall.Event, any Error>.makeStream()
        let call = SocketHTTPCall()
        continuation.onTermination = { _ in call.cancelled.withLock { $0 = true } }
        let thread = Thread {
            do {
                try call.run(request, timeouts: timeouts, continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.start()
        return stream
    }

    private func run(_ request: URLRequest, timeouts: HTTPStreamingCall.Timeouts, _ continuation: AsyncThrowingStream<HTTPStreamingCall.Event, any Error>.Continuation) throws {
        guard let url = request.url, let host = url.host else { throw HTTPTransportError.failed("no host in the URL") }
        let port = url.port ?? 80
        let started = monotonicSeconds()
        let fd = try connect(host: host, port: port)
        defer { close(fd) }
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        var head = "\(request.httpMethod ?? "GET") \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in request.allHTTPHeaderFields ?? [:] { head += "\(name): \(value)\r\n" }
        let body = request.httpBody ?? Data()
        if !body.isEmpty || request.httpMethod == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(fd, Array(head.utf8) + Array(body))

        var reader = Reader(fd: fd, timeouts: timeouts, started: started, cancelled: cancelled)
        // Status line and headers.
        let statusLine = try reader.line()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw HTTPTransportError.failed("not an HTTP response: \(statusLine.prefix(80))")
        }
        var headers: [String: String] = [:]
        while true {
            let line = try reader.line()
            if line.isEmpty { break }
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                if name == "content-length", let earlier = headers[name], earlier != line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) {
                    throw HTTPTransportError.failed("the response gives Content-Length twice, differently")
                }
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        continuation.yield(.head(status: status, headers: headers))
        if request.httpMethod == "HEAD" || status == 204 || status == 304 { return }

        let framing: HTTPBodyFraming
        do { framing = try HTTPHead(startLine: parts.map(String.init), headers: headers).bodyFraming(isResponse: true) } catch {
            throw HTTPTransportError.failed("the response's framing: \(error.message)")
        }
        if case .chunked = framing {
            while true {
                let sizeLine = try reader.line()
                guard let size = HTTPHead.hexadecimal(sizeLine.split(separator: ";", omittingEmptySubsequences: false)[0]) else {
                    throw HTTPTransportError.failed("malformed chunk size \(String(reflecting: String(sizeLine.prefix(20))))")
                }
                if size == 0 { return }
                var remaining = size
                while remaining > 0 {
                    let piece = try reader.bytes(upTo: remaining)
                    remaining -= piece.count
                    continuation.yield(.body(Data(piece)))
                }
                guard try reader.line().isEmpty else { throw HTTPTransportError.failed("a chunk longer than its size") }
            }
        } else if case .length(let length) = framing {
            var remaining = length
            while remaining > 0 {
                let piece = try reader.bytes(upTo: remaining)
                remaining -= piece.count
                continuation.yield(.body(Data(piece)))
            }
        } else {
            while let piece = try reader.bytesUntilClose() { continuation.yield(.body(Data(piece))) }
        }
    }

    /// The one socket client (TrailheadSupport's), its errors in this transport's terms.
    private func connect(host: String, port: Int) throws -> Int32 {
        do { return try HTTPSocket.connect(host: host, port: port) } catch {
            throw error.kind == .refused ? HTTPTransportError.refused(error.message) : HTTPTransportError.failed(error.message)
        }
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        do { try HTTPSocket.send(fd, bytes) } catch { throw HTTPTransportError.failed("sending the request: \(error.message)") }
    }

    /// Buffered reads with the idle and total timeouts, and cancellation checked every 100 ms.
    private struct Reader {
        let fd: Int32
        let timeouts: HTTPStreamingCall.Timeouts
        let started: Double
        let cancelled: Locked<Bool>
        var buffer: [UInt8] = []
        var closed = false

        init(fd: Int32, timeouts: HTTPStreamingCall.Timeouts, started: Double, cancelled: Locked<Bool>) {
            self.fd = fd
            self.timeouts = timeouts
            self.started = started
            self.cancelled = cancelled
        }

        /// Reads more into the buffer; false at end of stream.
        mutating func fill() throws -> Bool {
            let idleStart = monotonicSeconds()
            while true {
                if cancelled.current { throw HTTPTransportError.cancelled }
                let now = monotonicSeconds()
                if now - started > timeouts.total { throw HTTPTransportError.totalTimeout(seconds: timeouts.total) }
                if now - idleStart > timeouts.idle { throw HTTPTransportError.idleTimeout(seconds: timeouts.idle) }
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&pfd, 1, 100)
                if ready < 0 && errno == EINTR { continue }
                if ready <= 0 { continue }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let n = recv(fd, &chunk, chunk.count, 0)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw HTTPTransportError.failed("reading the response: \(String(cString: strerror(errno)))") }
                if n == 0 {
                    closed = true
                    return false
                }
                buffer += chunk[0..<n]
                return true
            }
        }

        mutating func line() throws -> String {
            while true {
                if let newline = buffer.firstIndex(of: 10) {
                    var end = newline
                    if end > 0 && buffer[end - 1] == 13 { end -= 1 }
                    let text = String(decoding: buffer[0..<end], as: UTF8.self)
                    buffer.removeFirst(newline + 1)
                    return text
                }
                guard try fill() else { throw HTTPTransportError.failed("the connection closed in the middle of the response") }
            }
        }

        mutating func bytes(upTo count: Int) throws -> [UInt8] {
            if buffer.isEmpty {
                guard try fill() else { throw HTTPTransportError.failed("the connection closed in the middle of the response") }
            }
            let take = min(count, buffer.count)
            defer { buffer.removeFirst(take) }
            return Array(buffer[0..<take])
        }

        mutating func bytesUntilClose() throws -> [UInt8]? {
            if buffer.isEmpty, !(try fill()) { return nil }
            defer { buffer.removeAll() }
            return buffer
        }
    }
}
