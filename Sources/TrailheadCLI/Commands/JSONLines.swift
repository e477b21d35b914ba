/// The lines of a JSON Lines text: split at `\n`; a final `\n` ends the last line rather than
/// starting an empty one, but an empty line inside the text is a line (and not JSON).
struct JSONLines: Sequence, IteratorProtocol {
    private let bytes: [UInt8]
    private var start = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> ArraySlice<UInt8>? {
        guard start < bytes.count else { return nil }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        defer { start = end + 1 }
        return bytes[start..<end]
    }
}
