extension PartialJSONParser {
    /// Where an escape sequence is, between bytes.
    enum EscapePhase: Sendable {
        case none
        /// After `\`.
        case backslash
        /// Reading the 4 hex digits of `\u`.
        case hex(count: Int, value: UInt32)
        /// After a `\u` high surrogate: a `\u` low surrogate may follow.
        case afterHigh(UInt32)
        /// After a high surrogate and `\`.
        case afterHighBackslash(UInt32)
        /// Reading the 4 hex digits that should be a low surrogate.
        case lowHex(high: UInt32, count: Int, value: UInt32)
    }

    /// The string being read: its decoded text so far and where it is inside an escape or a
    /// multi-byte UTF-8 sequence.
    struct StringState: Sendable {
        var isKey = false
        /// Decoded text of the complete characters read so far.
        var content = ""
        /// Validated UTF-8 bytes not yet moved into `content` (batched for speed).
        var pending: [UInt8] = []
        var escape = EscapePhase.none
        /// Continuation bytes still expected in the current UTF-8 sequence, and the range
        /// allowed for the next one (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF).
        var utf8Remaining = 0
        var utf8Low: UInt8 = 0x80
        var utf8High: UInt8 = 0xBF
        var utf8Lead: UInt8 = 0
        var utf8LeadOffset = 0

        mutating func begin(isKey: Bool) {
            self.isKey = isKey
            content = ""
            pending.removeAll(keepingCapacity: true)
            escape = .none
            utf8Remaining = 0
        }

        /// Moves the complete characters of `pending` into `content`.
        mutating func flush() {
            let complete = pending.count - (utf8Remaining > 0 ? sequenceLength(utf8Lead) - utf8Remaining : 0)
            guard complete > 0 else { return }
            content += String(decoding: pending[..<complete], as: UTF8.self)
            pending.removeFirst(complete)
        }

        mutating func append(_ scalar: Unicode.Scalar) {
            flush()
            content.unicodeScalars.append(scalar)
        }

        private func sequenceLength(_ lead: UInt8) -> Int { lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2 }
    }

    /// Takes the run of plain ASCII characters starting at `start` in one step (the common case
    /// inside strings); returns where the run ends.
    mutating func consumePlainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard string.utf8Remaining == 0, case .none = string.escape else { return start }
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte >= 0x80 { break }
            end += 1
        }
        string.pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        byteCount += end - start
        return end
    }

    /// One byte inside a string.
    mutating func consumeStringByte(_ byte: UInt8) throws(JSONSyntaxError) {
        if string.utf8Remaining > 0 {
            guard byte >= string.utf8Low, byte <= string.utf8High else {
                throw fail(
                    "invalid UTF-8 sequence starting with byte 0x\(hex(string.utf8Lead))", at: string.utf8LeadOffset)
            }
            string.pending.append(byte)
            string.utf8Remaining -= 1
            (string.utf8Low, string.utf8High) = (0x80, 0xBF)
            return
        }
        switch string.escape {
        case .none:
            try consumePlainStringByte(byte)
        case .backslash:
            try consumeEscapeLetter(byte)
        case .hex(let count, let value):
            let value = try hexDigit(byte, into: value)
            if count < 3 {
                string.escape = .hex(count: count + 1, value: value)
            } else if (0xD800..<0xDC00).contains(value) {
                string.escape = .afterHigh(value)
            } else {
                string.escape = .none
                string.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            }
        case .afterHigh(let high):
            // The strict parser pairs a high surrogate only with an immediately following `\u`.
            if byte == UInt8(ascii: "\\") {
                string.escape = .afterHighBackslash(high)
            } else {
                string.escape = .none
                string.append("\u{FFFD}")  // a lone surrogate cannot be in a Swift string
                try consumePlainStringByte(byte)
            }
        case .afterHighBackslash(let high):
            if byte == UInt8(ascii: "u") {
                string.escape = .lowHex(high: high, count: 0, value: 0)
            } else {
                string.append("\u{FFFD}")
                try consumeEscapeLetter(byte)
            }
        case .lowHex(let high, let count, let value):
            let value = try hexDigit(byte, into: value)
            if count < 3 {
                string.escape = .lowHex(high: high, count: count + 1, value: value)
            } else {
                string.escape = .none
                // Like the strict parser: a high surrogate followed by an escape that is not a
                // low surrogate becomes one U+FFFD for both escapes.
                if (0xDC00..<0xE000).contains(value) {
                    string.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))!)
                } else {
                    string.append("\u{FFFD}")
                }
            }
        }
    }

    private mutating func consumePlainStringByte(_ byte: UInt8) throws(JSONSyntaxError) {
        switch byte {
        case UInt8(ascii: "\""):
            string.flush()
            try endString()
        case UInt8(ascii: "\\"):
            string.escape = .backslash
        case 0..<0x20:
            throw fail("control character \(describe(byte)) must be escaped in a string")
        case 0x80...:
            try beginUTF8Sequence(byte)
        default:
            string.pending.append(byte)
        }
    }

    private mutating func consumeEscapeLetter(_ byte: UInt8) throws(JSONSyntaxError) {
        let scalar: Unicode.Scalar
        switch byte {
        case UInt8(ascii: "\""): scalar = "\""
        case UInt8(ascii: "\\"): scalar = "\\"
        case UInt8(ascii: "/"): scalar = "/"
        case UInt8(ascii: "b"): scalar = "\u{08}"
        case UInt8(ascii: "f"): scalar = "\u{0C}"
        case UInt8(ascii: "n"): scalar = "\n"
        case UInt8(ascii: "r"): scalar = "\r"
        case UInt8(ascii: "t"): scalar = "\t"
        case UInt8(ascii: "u"):
            string.escape = .hex(count: 0, value: 0)
            return
        default:
            throw fail("invalid escape '\\\(describe(byte))' in string")
        }
        string.escape = .none
        string.append(scalar)
    }

    private mutating func beginUTF8Sequence(_ lead: UInt8) throws(JSONSyntaxError) {
        guard let (length, low, high) = UTF8Validation.sequence(leadBy: lead) else {
            throw fail("invalid UTF-8 byte 0x\(hex(lead))")
        }
        string.pending.append(lead)
        string.utf8Remaining = length - 1
        (string.utf8Low, string.utf8High) = (low, high)
        string.utf8Lead = lead
        string.utf8LeadOffset = byteCount
    }

    private func hexDigit(_ byte: UInt8, into value: UInt32) throws(JSONSyntaxError) -> UInt32 {
        let digit: UInt32
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
        default: throw fail("invalid \\u escape: expected 4 hex digits")
        }
        return value << 4 | digit
    }
}
