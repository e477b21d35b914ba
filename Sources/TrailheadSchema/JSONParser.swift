/// A problem in a JSON text, with where it is.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Byte offset into the text, and its line and column (1-based).
    public var offset: Int
    public var line: Int
    public var column: Int

    public var description: String { "line \(line), column \(column): \(message)" }
}

extension GeneratedContent {
    /// The deepest nesting of arrays and objects accepted. Deeper documents are refused with a
    /// clear error rather than risking the stack in code that walks the tree recursively.
    public static let maximumDepth = 512

    /// Parses one strict JSON document (RFC 8259). Refuses invalid UTF-8, numbers beyond
    /// `Double`, nesting deeper than `maximumDepth` and trailing content.
    public init(json text: String) throws(JSONSyntaxError) {
        var parser = JSONParser(Array(text.utf8))
        self = try parser.parseDocument()
    }

    public init(json bytes: some Collection<UInt8>) throws(JSONSyntaxError) {
        var parser = JSONParser(Array(bytes))
        self = try parser.parseDocument()
    }
}

/// An iterative recursive-descent parser over UTF-8 bytes: containers are kept on an explicit
/// stack, so input depth never becomes call depth.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private enum Container {
        case array([GeneratedContent])
        case object(JSONObject, key: String)
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> GeneratedContent {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected content after the JSON value") }
        return value
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> GeneratedContent {
        var stack: [Container] = []
        while true {
            // Read one value, or open a container and loop to read its first element.
            var value: GeneratedContent
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if stack.count >= GeneratedContent.maximumDepth {
                    throw error("nesting deeper than \(GeneratedContent.maximumDepth) levels")
                }
                let isArray = bytes[index] == UInt8(ascii: "[")
                index += 1
                skipWhitespace()
                if isArray {
                    if peek(UInt8(ascii: "]")) { index += 1; value = .array([]); break }
                    stack.append(.array([]))
                } else {
                    if peek(UInt8(ascii: "}")) { index += 1; value = .object(JSONObject()); break }
                    stack.append(.object(JSONObject(), key: try parseKey()))
                }
                continue
            default:
                value = try parseScalar()
            }
            // Attach the value to the enclosing containers, closing those that end here.
            while true {
                guard let top = stack.popLast() else { return value }
                skipWhitespace()
                switch top {
                case .array(var elements):
                    elements.append(value)
                    if consume(UInt8(ascii: ",")) { stack.append(.array(elements)) }
                    else if consume(UInt8(ascii: "]")) { value = .array(elements); continue }
                    else { throw error("expected ',' or ']' in array") }
                case .object(var members, let key):
                    if members[key] != nil { members[key] = nil }  // last duplicate wins, in its position
                    members[key] = value
                    if consume(UInt8(ascii: ",")) {
                        skipWhitespace()
                        stack.append(.object(members, key: try parseKey()))
                    } else if consume(UInt8(ascii: "}")) { value = .object(members); continue }
                    else { throw error("expected ',' or '}' in object") }
                }
                break
            }
        }
    }

    private mutating func parseKey() throws(JSONSyntaxError) -> String {
        guard peek(UInt8(ascii: "\"")) else { throw error("expected a string key in object") }
        let key = try parseString()
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after object key") }
        return key
    }

    private mutating func parseScalar() throws(JSONSyntaxError) -> GeneratedContent {
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character \(describe(bytes[index])), expected a value")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let start = index
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count, bytes[index] == byte else {
                index = start
                throw error("invalid literal, expected '\(word)'")
            }
            index += 1
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
        } else if digits() == 0 { throw error("invalid number: expected a digit") }
        if consume(UInt8(ascii: ".")) {
            if digits() == 0 { throw error("invalid number: expected a digit after '.'") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            if digits() == 0 { throw error("invalid number: expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("number \(text.prefix(40)) is beyond the range of a double")
        }
        return value
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ end: Int) {
            if end > runStart { scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars) }
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                flushRun(index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flushRun(index)
                index += 1
                scalars.append(try parseEscape())
                runStart = index
            case 0..<0x20:
                throw error("control character \(describe(byte)) must be escaped in a string")
            case 0x80...:
                try skipUTF8Sequence()
            default:
                index += 1
            }
        }
    }

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
                    }
                }
                return "\u{FFFD}"  // a lone surrogate cannot be a Swift string: replace it
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            index -= 1
            throw error("invalid escape '\\\(describe(byte))' in string")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw error("invalid \\u escape: expected 4 hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Checks one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF).
    private mutating func skipUTF8Sequence() throws(JSONSyntaxError) {
        let lead = bytes[index]
        guard let (length, low, high) = UTF8Validation.sequence(leadBy: lead) else {
            throw error("invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true))")
        }
        for k in 1..<length {
            let i = index + k
            let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard i < bytes.count, bytes[i] >= lo, bytes[i] <= hi else {
                throw error("invalid UTF-8 sequence starting with byte 0x\(String(lead, radix: 16, uppercase: true))")
            }
        }
        index += length
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek(byte) else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func error(_ message: String) -> JSONSyntaxError {
        let position = min(index, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<position where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return JSONSyntaxError(message: message, offset: position, line: line, column: position - lineStart + 1)
    }
}
