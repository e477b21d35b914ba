import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The start line and headers of an HTTP/1.1 request or response.
public struct HTTPHead: Sendable {
    /// `["POST", "/mcp", "HTTP/1.1"]` or `["HTTP/1.1", "200", "OK"]`.
    public var startLine: [String]
    /// Header names in lower case; a repeated header keeps its last value.
    public var headers: [String: String]

    public subscript(header name: String) -> String? { headers[name.lowercased()] }

    /// How the body that follows is delimited (RFC 9112 §6.3).
    public func bodyFraming(isResponse: Bool) -> HTTPBodyFraming {
        if self[header: "transfer-encoding"]?.lowercased().contains("chunked") == true { return .chunked }
        if let length = self[header: "content-length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            return .length(length)
        }
        return isResponse ? .untilClose : .length(0)
    }
}

public enum HTTPBodyFraming: Sendable, Equatable {
    case length(Int)
    case chunked
    case untilClose
}

/// Buffered reads from a socket, each with a deadline on the monotonic clock.
public struct HTTPReader {
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// The body being read: bytes left in the current piece, and whether more chunks follow.
    private var framing: HTTPBodyFraming = .length(0)
    private var chunkRemaining = 0
    private var bodyDone = true

    /// Heads larger than this are refused (no legitimate MCP exchange comes close).
    public static let maximumHeadBytes = 64 * 1024

    public init(fd: Int32) { self.fd = fd }

    /// Reads a start line and headers; `nil` when the peer closed before sending anything.
    public mutating func head(deadline: Double) throws(HTTPError) -> HTTPHead? {
        var lines: [String] = []
        var total = 0
        while true {
            guard let line = try line(deadline: deadline, allowEnd: lines.isEmpty) else { return nil }
            total += line.utf8.count + 2
            guard total <= Self.maximumHeadBytes else { throw HTTPError(.malformed, "headers larger than \(Self.maximumHeadBytes) bytes") }
            if line.isEmpty {
                if lines.isEmpty { continue }  // tolerate a stray CRLF between messages
                break
            }
            lines.append(line)
        }
        let startLine = lines[0].split(separator: " ", maxSplits: 2).map(String.init)
        guard startLine.count >= 2 else { throw HTTPError(.malformed, "not an HTTP start line: \(lines[0].prefix(80))") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw HTTPError(.malformed, "not a header line: \(line.prefix(80))") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPHead(startLine: startLine, headers: headers)
    }

    /// Starts reading a body delimited by `framing`.
    public mutating func beginBody(_ framing: HTTPBodyFraming) {
        self.framing = framing
        bodyDone = false
        chunkRemaining = 0
        if case .length(let count) = framing {
            chunkRemaining = count
            bodyDone = count == 0
        }
    }

    /// The next piece of the body; `nil` once it is complete.
    public mutating func bodyPiece(deadline: Double) throws(HTTPError) -> [UInt8]? {
        guard !bodyDone else { return nil }
        switch framing {
        case .length:
            let piece = try some(upTo: chunkRemaining, deadline: deadline, what: "the body")
            chunkRemaining -= piece.count
            if chunkRemaining == 0 { bodyDone = true }
            return piece
        case .chunked:
            if chunkRemaining == 0 {
                let sizeLine = try line(deadline: deadline, allowEnd: false)!
                guard let size = Int(sizeLine.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) ?? "", radix: 16) else {
                    throw HTTPError(.malformed, "malformed chunk size '\(sizeLine.prefix(20))'")
                }
                if size == 0 {
                    // Trailers, then the blank line.
                    while let trailer = try line(deadline: deadline, allowEnd: true), !trailer.isEmpty {}
                    bodyDone = true
                    return nil
                }
                chunkRemaining = size
            }
            let piece = try some(upTo: chunkRemaining, deadline: deadline, what: "a chunk")
            chunkRemaining -= piece.count
            if chunkRemaining == 0 { _ = try line(deadline: deadline, allowEnd: false) }
            return piece
        case .untilClose:
            if start == buffer.count, try !fill(deadline: deadline) {
                bodyDone = true
                return nil
            }
            defer { buffer.removeAll(keepingCapacity: true); start = 0 }
            return Array(buffer[start...])
        }
    }

    /// The whole body, refused when larger than `maximumBytes`.
    public mutating func body(_ framing: HTTPBodyFraming, deadline: Double, maximumBytes: Int) throws(HTTPError) -> [UInt8] {
        if case .length(let count) = framing, count > maximumBytes {
            throw HTTPError(.malformed, "a body of \(count) bytes, more than the \(maximumBytes) allowed")
        }
        beginBody(framing)
        var body: [UInt8] = []
        while let piece = try bodyPiece(deadline: deadline) {
            body += piece
            guard body.count <= maximumBytes else { throw HTTPError(.malformed, "a body of more than \(maximumBytes) bytes") }
        }
        return body
    }

    /// One CRLF- (or LF-) terminated line; `nil` at a clean end of stream when `allowEnd`.
    private mutating func line(deadline: Double, allowEnd: Bool) throws(HTTPError) -> String? {
        var scanned = start
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 10) {
                var end = newline
                if end > start && buffer[end - 1] == 13 { end -= 1 }
                let text = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                compact()
                return text
            }
            scanned = buffer.count
            guard buffer.count - start <= Self.maximumHeadBytes else { throw HTTPError(.malformed, "a line longer than \(Self.maximumHeadBytes) bytes") }
            guard try fill(deadline: deadline) else {
                if allowEnd && start == buffer.count { return nil }
                throw HTTPError(.closed, "the connection closed in the middle of a message")
            }
        }
    }

    private mutating func some(upTo count: Int, deadline: Double, what: String) throws(HTTPError) -> [UInt8] {
        if start == buffer.count, try !fill(deadline: deadline) {
            throw HTTPError(.closed, "the connection closed in the middle of \(what)")
        }
        let take = min(count, buffer.count - start)
        defer {
            start += take
            compact()
        }
        return Array(buffer[start..<start + take])
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 64 * 1024 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// One `recv` into the buffer, waiting until `deadline`; false at end of stream.
    private mutating func fill(deadline: Double) throws(HTTPError) -> Bool {
        while true {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { throw HTTPError(.timedOut, "no answer in time") }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(remaining * 1000, Double(Int32.max)).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw HTTPError(.closed, "reading: \(String(cString: strerror(errno)))") }
            if n == 0 { return false }
            buffer += chunk[0..<n]
            return true
        }
    }
}
