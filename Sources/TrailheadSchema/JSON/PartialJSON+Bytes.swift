// The byte-level state machine: one call per byte, no look-ahead, so a chunk may end anywhere.
// Error messages and offsets are those of the strict parser (JSONParser.swift) for the same text.

extension PartialJSONParser {
    mutating func consume(_ byte: UInt8) throws(JSONSyntaxError) {
        switch mode {
        case .string: try consumeStringByte(byte)
        case .number: try consumeNumberByte(byte)
        case .literal: try consumeLiteralByte(byte)
        default: try consumeStructuralByte(byte)
        }
        byteCount += 1
    }

    /// A byte between tokens: whitespace, punctuation, or the first byte of a value.
    private mutating func consumeStructuralByte(_ byte: UInt8) throws(JSONSyntaxError) {
        switch byte {
        case 0x20, 0x09, 0x0D: return
        case 0x0A:
            line += 1
            lineStart = byteCount + 1
            return
        default: break
        }
        switch mode {
        case .value:
            try beginValue(byte)
        case .firstElementOrEnd:
            if byte == UInt8(ascii: "]") { closeContainer() } else { try beginValue(byte) }
        case .firstKeyOrEnd, .key:
            if byte == UInt8(ascii: "}"), mode == .firstKeyOrEnd {
                closeContainer()
            } else if byte == UInt8(ascii: "\"") {
                string.begin(isKey: true)
                mode = .string
            } else {
                throw fail("expected a string key in object")
            }
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw fail("expected ':' after object key") }
            mode = .value
        case .afterValue:
            guard let top = frames.last else { throw fail("unexpected content after the JSON value") }
            if byte == UInt8(ascii: ",") {
                mode = top.isArray ? .value : .key
            } else if byte == UInt8(ascii: top.isArray ? "]" : "}") {
                closeContainer()
            } else {
                throw fail(top.isArray ? "expected ',' or ']' in array" : "expected ',' or '}' in object")
            }
        case .string, .number, .literal:
            preconditionFailure("token bytes are handled by their own states")
        }
    }

    private mutating func beginValue(_ byte: UInt8) throws(JSONSyntaxError) {
        switch byte {
        case UInt8(ascii: "\""):
            string.begin(isKey: false)
            mode = .string
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            if frames.count >= maximumDepth { throw fail("nesting deeper than \(maximumDepth) levels") }
            let isArray = byte == UInt8(ascii: "[")
            frames.append(Frame(isArray: isArray))
            mode = isArray ? .firstElementOrEnd : .firstKeyOrEnd
        case UInt8(ascii: "t"): beginLiteral("true", .bool(true))
        case UInt8(ascii: "f"): beginLiteral("false", .bool(false))
        case UInt8(ascii: "n"): beginLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            number.text.removeAll(keepingCapacity: true)
            number.text.append(byte)
            number.start = byteCount
            number.phase = byte == UInt8(ascii: "-") ? .afterMinus : byte == UInt8(ascii: "0") ? .zero : .integer
            mode = .number
        default:
            throw fail("unexpected character \(describe(byte)), expected a value")
        }
    }

    private mutating func beginLiteral(_ word: StaticString, _ value: GeneratedContent) {
        literal = LiteralState(word: word, value: value, matched: 1, start: byteCount)
        mode = .literal
    }

    private mutating func consumeLiteralByte(_ byte: UInt8) throws(JSONSyntaxError) {
        let word = literal.word
        guard word.utf8CodeUnitCount > literal.matched, word.utf8Start[literal.matched] == byte else {
            throw fail("invalid literal, expected '\(word)'", at: literal.start)
        }
        literal.matched += 1
        if literal.matched == word.utf8CodeUnitCount { attach(literal.value) }
    }

    private mutating func consumeNumberByte(_ byte: UInt8) throws(JSONSyntaxError) {
        let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        let isExponent = byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        let next: NumberPhase?
        switch number.phase {
        case .afterMinus:
            guard isDigit else { throw fail("invalid number: expected a digit") }
            next = byte == UInt8(ascii: "0") ? .zero : .integer
        case .zero:
            next = byte == UInt8(ascii: ".") ? .afterDot : isExponent ? .afterE : nil
        case .integer:
            next = isDigit ? .integer : byte == UInt8(ascii: ".") ? .afterDot : isExponent ? .afterE : nil
        case .afterDot:
            guard isDigit else { throw fail("invalid number: expected a digit after '.'") }
            next = .fraction
        case .fraction:
            next = isDigit ? .fraction : isExponent ? .afterE : nil
        case .afterE:
            guard isDigit || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else {
                throw fail("invalid number: expected a digit in the exponent")
            }
            next = isDigit ? .exponent : .afterExponentSign
        case .afterExponentSign:
            guard isDigit else { throw fail("invalid number: expected a digit in the exponent") }
            next = .exponent
        case .exponent:
            next = isDigit ? .exponent : nil
        }
        if let next {
            number.phase = next
            number.text.append(byte)
        } else {
            // This byte is not part of the number: the number is complete, the byte comes after it.
            try completeNumber()
            try consumeStructuralByte(byte)
        }
    }

    private mutating func completeNumber() throws(JSONSyntaxError) {
        let text = String(decoding: number.text, as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw fail("number \(text.prefix(40)) is beyond the range of a double", at: number.start)
        }
        attach(.number(value))
    }

    /// The end of a string: a key waits for its value, a value is attached.
    mutating func endString() throws(JSONSyntaxError) {
        guard string.isKey else {
            attach(.string(string.content))
            return
        }
        let top = frames.count - 1
        let key = string.content
        // The last of duplicate keys wins, in its own position (as in the strict parser).
        if frames[top].members[key] != nil { frames[top].members[key] = nil }
        frames[top].key = key
        mode = .colon
    }

    private mutating func closeContainer() {
        let frame = frames.removeLast()
        attach(frame.value)
    }

    /// Stores a finished value in the innermost open container, or as the document.
    private mutating func attach(_ value: GeneratedContent) {
        mode = .afterValue
        guard !frames.isEmpty else {
            root = value
            return
        }
        let top = frames.count - 1
        if frames[top].isArray {
            frames[top].elements.append(value)
        } else {
            let key = frames[top].key!
            frames[top].members[key] = value
            frames[top].key = nil
        }
    }

    /// The end of the text: completes a top-level number, or names what is missing.
    mutating func consumeEndOfInput() throws(JSONSyntaxError) {
        switch mode {
        case .value, .firstElementOrEnd:
            throw fail("unexpected end of input, expected a value")
        case .firstKeyOrEnd, .key:
            throw fail("expected a string key in object")
        case .colon:
            throw fail("expected ':' after object key")
        case .afterValue:
            guard let top = frames.last else { return }
            throw fail(top.isArray ? "expected ',' or ']' in array" : "expected ',' or '}' in object")
        case .string:
            if string.utf8Remaining > 0 {
                throw fail("invalid UTF-8 sequence starting with byte 0x\(hex(string.utf8Lead))", at: string.utf8LeadOffset)
            }
            switch string.escape {
            case .hex, .lowHex: throw fail("invalid \\u escape: expected 4 hex digits")
            default: throw fail("unterminated string")
            }
        case .number:
            switch number.phase {
            case .afterMinus: throw fail("invalid number: expected a digit")
            case .afterDot: throw fail("invalid number: expected a digit after '.'")
            case .afterE, .afterExponentSign: throw fail("invalid number: expected a digit in the exponent")
            case .zero, .integer, .fraction, .exponent:
                try completeNumber()
                try consumeEndOfInput()
            }
        case .literal:
            throw fail("invalid literal, expected '\(literal.word)'", at: literal.start)
        }
    }

    // MARK: - Errors

    /// An error at `offset` (by default the byte being read, or the end of the text).
    func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = offset ?? byteCount
        return JSONSyntaxError(message: message, offset: offset, line: line, column: offset - lineStart + 1)
    }

    func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x\(hex(byte))"
    }

    func hex(_ byte: UInt8) -> String { String(byte, radix: 16, uppercase: true) }
}
