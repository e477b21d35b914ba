import Foundation

/// Bytes read from a pipe, cut into newline-terminated lines. Reads go straight into spare room
/// at the end of one reused buffer (no per-read allocation or zero-filling: this is on every
/// tool call's path, twice).
public struct LineBuffer {
    public init() {}

    private var storage = [UInt8](repeating: 0, count: 64 * 1024)
    private var start = 0
    private var end = 0
    /// Bytes before this index (from `start`) hold no newline.
    private var scanned = 0

    /// Bytes buffered that are not yet part of a returned line.
    public var pendingCount: Int { end - start }

    /// The next complete line without its newline, if one is buffered.
    public mutating func nextLine() -> [UInt8]? {
        let from = max(scanned, start)
        let found = storage.withUnsafeBytes { (buffer) -> Int? in
            guard from < end, let hit = memchr(buffer.baseAddress! + from, 0x0A, end - from) else { return nil }
            return UnsafeRawPointer(hit) - buffer.baseAddress!
        }
        guard let newline = found else {
            scanned = end
            return nil
        }
        let line = Array(storage[start..<newline])
        start = newline + 1
        scanned = start
        if start == end { start = 0; end = 0; scanned = 0 }
        return line
    }

    /// What remains after the last newline (a final line without one), emptying the buffer.
    public mutating func takeRest() -> [UInt8]? {
        guard start < end else { return nil }
        let rest = Array(storage[start..<end])
        start = 0; end = 0; scanned = 0
        return rest
    }

    /// One `read` from `fd` into the buffer; returns what `read` returned (0 at end of file).
    public mutating func fill(from fd: Int32) -> Int {
        if end == storage.count {
            if start > 0 {
                // Move the unfinished line to the front.
                let count = end - start
                storage.withUnsafeMutableBytes { buffer in
                    _ = memmove(buffer.baseAddress!, buffer.baseAddress! + start, count)
                }
                scanned -= start
                end = count
                start = 0
            } else {
                storage.append(contentsOf: repeatElement(0, count: storage.count))
            }
        }
        let room = storage.count - end
        let offset = end
        let count = storage.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, room) }
        if count > 0 { end += count }
        return count
    }
}
