/// A line of a vCard after unfolding, still raw bytes (its charset is only known from its
/// parameters), with the number of the physical line it starts on.
struct LogicalLine {
    var number: Int
    var bytes: [UInt8]
}

/// Splits a file into logical lines.
///
/// - Line ends: CRLF, LF or a lone CR.
/// - RFC 2426/6350 folding: a line starting with a space or a tab continues the previous one
///   (the one whitespace character is dropped).
/// - vCard 2.1 quoted-printable soft line breaks: a value encoded as QUOTED-PRINTABLE that ends
///   in `=` continues on the next physical line, which does not start with whitespace.
/// - vCard 2.1 base64 without indentation: lines made only of base64 characters after a
///   base64 property continue it (2.1 ends such values with a blank line).
enum LogicalLines {
    static func split(_ bytes: [UInt8]) -> [LogicalLine] {
        var result: [LogicalLine] = []
        var pending: LogicalLine?
        var pendingKind = PendingKind.unknown

        func flush() {
            if let line = pending { result.append(line) }
            pending = nil
            pendingKind = .unknown
        }

        forEachPhysicalLine(bytes) { number, line in
            if var current = pending {
                if pendingKind == .unknown { pendingKind = PendingKind.of(current.bytes) }
                // A soft line break comes first: the next line is the value's continuation,
                // leading whitespace included (RFC 2045), not an RFC 2426 fold.
                if pendingKind == .quotedPrintable, current.bytes.last == equals, !line.isEmpty {
                    current.bytes.removeLast()
                    current.bytes.append(contentsOf: line)
                    pending = current
                    return
                }
                if let first = line.first, first == space || first == tab {
                    current.bytes.append(contentsOf: line.dropFirst())
                    pending = current
                    return
                }
                if pendingKind == .base64, !line.isEmpty, line.allSatisfy(isBase64Character) {
                    current.bytes.append(contentsOf: line)
                    pending = current
                    return
                }
            }
            flush()
            if line.isEmpty || line.allSatisfy({ $0 == space || $0 == tab }) { return }
            pending = LogicalLine(number: number, bytes: Array(line))
        }
        flush()
        return result
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
                if byte == cr, index + 1 < bytes.count, bytes[index + 1] == lf { index += 1 }
                start = index + 1
            }
            index += 1
        }
        if start < bytes.count { body(number, bytes[start..<bytes.count]) }
    }

    /// What a pending line's parameters say about how its value may continue.
    private enum PendingKind {
        case unknown, plain, quotedPrintable, base64

        static func of(_ line: [UInt8]) -> PendingKind {
            // Parameters folded onto the next line: decide once they are all there.
            guard let colon = ContentLineParser.valueSeparatorIndex(in: line[...]) else { return .unknown }
            // Byte search, not String.contains: this runs for most lines of a file.
            let head = line[..<colon].map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
            if head.contains(ascii: "QUOTED-PRINTABLE") { return .quotedPrintable }
            if head.contains(ascii: "BASE64") || head.contains(ascii: "ENCODING=B") { return .base64 }
            return .plain
        }
    }
}

private let lf: UInt8 = 0x0A
private let cr: UInt8 = 0x0D
private let space: UInt8 = 0x20
private let tab: UInt8 = 0x09
private let equals: UInt8 = 0x3D

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
