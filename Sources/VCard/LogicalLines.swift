/// A line of a vCard after unfolding, still raw bytes (its charset is only known from its
/// parameters), with the number of the physical line it starts on.
struct LogicalLine {
    var number: Int
    var bytes: [UInt8]
}

/// Splits a file into logical lines, in time linear in the file's size.
///
/// - Line ends: CRLF, LF, a lone CR, and the mixes exports write: `\r\r\n` (seen in iPhone
///   exports that were re-saved on Windows) is one line end, not a blank line.
/// - RFC 2426/6350 folding: a line starting with a space or a tab continues the previous one
///   (the one whitespace character is dropped). Blank lines between a line and its
///   continuation are skipped: a stray line end must not cut a folded photo and lose the card.
/// - vCard 2.1 quoted-printable soft line breaks: a value encoded as QUOTED-PRINTABLE that ends
///   in `=` continues on the next physical line, which does not start with whitespace.
/// - vCard 2.1 base64 without indentation: lines made only of base64 characters after a
///   base64 property continue it (2.1 ends such values with a blank line).
///
/// Linear: the pending line is owned by the splitter alone while it grows, so appending a
/// continuation never copies what came before. (Holding it in an optional and mutating a copy
/// made unfolding quadratic: a 2 MB folded photo took 24 s.)
enum LogicalLines {
    static func split(_ bytes: [UInt8]) -> [LogicalLine] {
        var joiner = Joiner()
        forEachPhysicalLine(bytes) { number, line in joiner.consume(number, line) }
        return joiner.finish()
    }

    /// The unfolding state: the logical line being built and what its parameters say.
    private struct Joiner {
        var result: [LogicalLine] = []
        var number = 0
        var pending: [UInt8] = []
        var hasPending = false
        var kind = PendingKind.unknown
        /// Where the search for the pending line's `:` goes on (its parameters may be folded).
        var colonSearch = ColonSearch()
        /// A blank line came after the pending line: only a whitespace fold may still continue it.
        var afterBlank = false

        mutating func consume(_ number: Int, _ line: ArraySlice<UInt8>) {
            if hasPending {
                if kind == .unknown { kind = colonSearch.kind(of: pending) }
                // A soft line break comes first: the next line is the value's continuation,
                // leading whitespace included (RFC 2045), not an RFC 2426 fold.
                if !afterBlank, kind == .quotedPrintable, pending.last == equals, !line.isEmpty {
                    pending.removeLast()
                    pending.append(contentsOf: line)
                    return
                }
                if let first = line.first, first == space || first == tab, !isBlank(line) {
                    pending.append(contentsOf: line.dropFirst())
                    afterBlank = false
                    return
                }
                if !afterBlank, kind == .base64, !line.isEmpty, line.allSatisfy(isBase64Character) {
                    pending.append(contentsOf: line)
                    return
                }
                if isBlank(line) {
                    afterBlank = true
                    return
                }
            }
            flush()
            if isBlank(line) { return }
            self.number = number
            pending.append(contentsOf: line)
            hasPending = true
        }

        mutating func flush() {
            if hasPending { result.append(LogicalLine(number: number, bytes: pending)) }
            pending = []
            hasPending = false
            kind = .unknown
            colonSearch = ColonSearch()
            afterBlank = false
        }

        mutating func finish() -> [LogicalLine] {
            flush()
            return result
        }

        private func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
            line.allSatisfy { $0 == space || $0 == tab }
        }
    }

    /// Finds the `:` that ends a line's name and parameters, resuming where it stopped, so a
    /// line whose parameters are folded over many physical lines is scanned once in all.
    private struct ColonSearch {
        var scanned = 0
        var quoted = false

        mutating func kind(of line: [UInt8]) -> PendingKind {
            while scanned < line.count {
                let byte = line[scanned]
                if byte == quote { quoted.toggle() }
                if byte == colon, !quoted { return PendingKind.of(head: line[..<scanned]) }
                scanned += 1
            }
            return .unknown
        }
    }

    /// Calls `body` with each physical line (without its line end) and its 1-based number.
    private static func forEachPhysicalLine(_ bytes: [UInt8], _ body: (Int, ArraySlice<UInt8>) -> Void) {
        var start = 0
        var number = 1
        // A UTF-8 byte order mark is not part of the first line.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == lf || byte == cr {
                body(number, bytes[start..<index])
                number += 1
                if byte == cr {
                    // CRLF, and CR CR LF: one line end each.
                    var next = index + 1
                    while next < bytes.count, bytes[next] == cr { next += 1 }
                    if next < bytes.count, bytes[next] == lf { index = next }
                }
                start = index + 1
            }
            index += 1
        }
        if start < bytes.count { body(number, bytes[start..<bytes.count]) }
    }

    /// What a pending line's parameters say about how its value may continue.
    private enum PendingKind {
        case unknown, plain, quotedPrintable, base64

        static func of(head: ArraySlice<UInt8>) -> PendingKind {
            // Byte search, not String.contains: this runs for most lines of a file.
            let upper = head.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
            if upper.contains(ascii: "QUOTED-PRINTABLE") { return .quotedPrintable }
            if upper.contains(ascii: "BASE64") || upper.contains(ascii: "ENCODING=B") { return .base64 }
            return .plain
        }
    }
}

private let lf: UInt8 = 0x0A
private let cr: UInt8 = 0x0D
private let space: UInt8 = 0x20
private let tab: UInt8 = 0x09
private let equals: UInt8 = 0x3D
private let colon = UInt8(ascii: ":")
private let quote = UInt8(ascii: "\"")

private func isBase64Character(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
         UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
        true
    default:
        false
    }
}

extension Array where Element == UInt8 {
    /// Whether the ASCII text `needle` occurs in these bytes.
    fileprivate func contains(ascii needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard pattern.count <= count else { return false }
        return (0...(count - pattern.count)).contains { start in
            pattern.indices.allSatisfy { self[start + $0] == pattern[$0] }
        }
    }
}
