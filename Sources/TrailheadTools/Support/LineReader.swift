import Foundation

/// Reads newline-terminated lines from a file descriptor with plain `read` calls (no Foundation
/// buffering between the pipe and the protocol).
struct LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var atEnd = false

    init(fd: Int32) { self.fd = fd }

    /// The next line without its newline; a last line without one is returned too; `nil` at end.
    mutating func next() -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                scanned = start
                return line
            }
            scanned = buffer.count
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                scanned -= start
                start = 0
            }
            let chunk = 64 * 1024
            let before = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: chunk))
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + before, chunk) }
            buffer.removeLast(chunk - max(count, 0))
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { atEnd = true }
        }
    }
}
