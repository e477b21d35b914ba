import Foundation
import TrailheadSupport

#if canImport(Glibc)
import Glibc
#endif

/// A request written byte for byte on a raw socket, as an attacker would, and what came back.
enum RawHTTP {
    struct Answer {
        /// The first response's status; nil when none (the connection closed, or no whole head came).
        var status: Int?
        /// The first response's body, once its Content-Length of it arrived.
        var body: ArraySlice<UInt8>
        /// Everything received.
        var text: String
        /// Whether the first response arrived whole.
        var isComplete: Bool
    }

    /// Sends `bytes` on a new connection (closing the sending side after them when `halfClose`:
    /// a truncated message ends there) and reads until the first response is whole, the server
    /// closes the connection, or `seconds` pass.
    static func exchange(_ bytes: [UInt8], port: Int, halfClose: Bool = false, seconds: Double = 30) throws -> Answer {
        let fd = try LoopbackSocket.connect(host: "127.0.0.1", port: port)
        defer { close(fd) }
        try? LoopbackSocket.send(fd, bytes)
        if halfClose { _ = shutdown(fd, Int32(SHUT_WR)) }
        let deadline = monotonicSeconds() + seconds
        var received: [UInt8] = []
        while monotonicSeconds() < deadline {
            if let answer = complete(received) { return answer }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) >= 0 else { break }
            guard pfd.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            received += chunk[0..<n]
        }
        return complete(received) ?? Answer(status: nil, body: [], text: String(decoding: received, as: UTF8.self), isComplete: received.isEmpty)
    }

    /// Waits until `GET path` on `port` answers 200 while `process` (the server just started)
    /// runs; kills it and throws, with `log`'s end, when it exits first or `timeout` passes.
    static func waitUntilAnswering(_ path: String, port: Int, process: ChildProcess, timeout: Double, log: () -> String) throws {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        let deadline = monotonicSeconds() + timeout
        while (try? exchange(request, port: port, seconds: 2))?.status != 200 {
            if !process.isRunning || monotonicSeconds() > deadline {
                _ = process.signal(SIGKILL)
                throw ServeProcess.Failure(description: "\(process.pid) never answered GET \(path) on port \(port): \(log().suffix(3000))")
            }
            usleep(100_000)
        }
    }

    /// The first response in `bytes`, once its head and Content-Length of body arrived.
    private static func complete(_ bytes: [UInt8]) -> Answer? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<end.lowerBound]
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let bodyStart = text.utf8.distance(from: text.startIndex, to: end.upperBound)
        guard bytes.count - bodyStart >= length else { return nil }
        return Answer(status: status, body: bytes[bodyStart..<bodyStart + length], text: text, isComplete: true)
    }
}
