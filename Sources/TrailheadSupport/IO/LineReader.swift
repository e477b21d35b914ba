import Foundation

/// Reads newline-terminated lines from a file descriptor with plain `read` calls (no Foundation
/// buffering between the pipe and the protocol).
public struct LineReader {
    private let fd: Int32
    private var buffer = LineBuffer()
    private var atEnd = false

    public init(fd: Int32) { self.fd = fd }

    /// The next line without its newline; a last line without one is returned too; `nil` at end.
    public mutating func next() -> [UInt8]? {
        while true {
            if let line = buffer.nextLine() { return line }
            if atEnd { return buffer.takeRest() }
            let count = buffer.fill(from: fd)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { atEnd = true }
        }
    }
}
