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

    public init(startLine: [String], headers: [String: String]) {
        self.startLine = startLine
        self.headers = headers
    }

    public subscript(header name: String) -> String? { headers[name.lowercased()] }

    /// How the body that follows is delimited (RFC 9112 §6.3). A length that is not plain digits, a
    /// transfer coding other than chunked, and (in a request) both framings at once are refused:
    /// the disagreements request smuggling starts from.
    public func bodyFraming(isResponse: Bool) throws(HTTPError) -> HTTPBodyFraming {
        let length = self[header: "content-length"]
        if let coding = self[header: "transfer-encoding"] {
            guard coding.lowercased().split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "chunked" else {
                throw HTTPError(.malformed, "Transfer-Encoding '\(coding.prefix(40))' does not end in chunked")
            }
            if !isResponse, length != nil { throw HTTPError(.malformed, "both Content-Length and Transfer-Encoding") }
            return .chunked
        }
        if let length {
            guard let count = Self.decimal(length) else { throw HTTPError(.malformed, "Content-Length '\(length.prefix(40))' is not a number of bytes") }
            return .length(count)
        }
        return isResponse ? .untilClose : .length(0)
    }

    /// A count of plain ASCII digits (no sign, no spaces inside), at most 15 of them.
    public static func decimal(_ text: String) -> Int? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }

    /// A chunk size: hexadecimal digits only, at most 15 of them.
    public static func hexadecimal(_ text: Substring) -> Int? {
        let digits = text.utf8
        let isHex = { (c: UInt8) in (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) }
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(isHex) else { return nil }
        return Int(text, radix: 16)
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

    /// Lines must end in CRLF (a server's reading of requests); a client tolerates a bare LF.
    public var requiresCRLF = false

    public init(fd: Int32, requiresCRLF: Bool = false) {
        self.fd = fd
        self.requiresCRLF = requiresCRLF
    }

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
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw HTTPError(.malformed, "not a header line: \(String(reflecting: String(line.prefix(80))))")
            }
            let name = line[..<colon].lowercased()
            guard !name.contains(where: { $0 == " " || $0 == "\t" }) else {
                throw HTTPError(.malformed, "whitespace in the header name \(String(reflecting: String(name.prefix(40))))")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length", let earlier = headers[name], earlier != value {
                throw HTTPError(.malformed, "Content-Length given twice, as '\(earlier.prefix(20))' and '\(value.prefix(20))'")
            }
            headers[name] = value
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
                guard let size = HTTPHead.hexadecimal(sizeLine.split(separator: ";", omittingEmptySubsequences: false)[0]) else {
                    throw HTTPError(.malformed, "malformed chunk size \(String(reflecting: String(sizeLine.prefix(20))))")
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
            if chunkRemaining == 0, try line(deadline: deadline, allowEnd: false) != "" {
                throw HTTPError(.malformed, "a chunk longer than its size")
            }
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
                if end > start && buffer[end - 1] == 13 {
                    end -= 1
                } else if requiresCRLF {
                    throw HTTPError(.malformed, "a line ending in a bare LF (HTTP/1.1 lines end in CRLF)")
                }
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
        guard count > 0 else { return [] }
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
