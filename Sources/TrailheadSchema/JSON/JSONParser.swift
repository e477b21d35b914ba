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
        var text = text
        self = try text.withUTF8 { bytes in Result { () throws(JSONSyntaxError) in try JSONParser.parse(bytes) } }.get()
    }

    public init(json bytes: some Collection<UInt8>) throws(JSONSyntaxError) {
        let parsed = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONSyntaxError) in try JSONParser.parse(buffer) }
        }
        if let parsed {
            self = try parsed.get()
        } else {
            self = try Array(bytes).withUnsafeBufferPointer { buffer in
                Result { () throws(JSONSyntaxError) in try JSONParser.parse(buffer) }
            }.get()
        }
    }
}

/// An iterative parser over UTF-8 bytes, linear in the length of its input.
///
/// Finished values wait on one flat stack; an open container only remembers where its first
/// element (and, for objects, its first key) lies on it, and closing it moves that run into a
/// new array or object in one step. Input depth never becomes call depth, and no container is
/// copied while it grows. (The parser this replaced kept each open container inside an enum on
/// its stack: every append copied the array, and 100,000 numbers took over a minute.)
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Finished values of every open container, innermost last.
    private var values: [GeneratedContent] = []
    /// Keys of every open object, innermost last; `keys[i]` names a value of `values`.
    private var keys: [String] = []
    private var open: [OpenContainer] = []

    private struct OpenContainer {
        var isArray: Bool
        /// Where this container's values (and keys) begin on the stacks.
        var firstValue: Int
        var firstKey: Int
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> GeneratedContent {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private mutating func parseDocument() throws(JSONSyntaxError) -> GeneratedContent {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected content after the JSON value") }
        return value
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> GeneratedContent {
        while true {
            // Read one value, or open a container and loop to read its first element.
            var value: GeneratedContent
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if open.count >= GeneratedContent.maximumDepth {
                    throw error("nesting deeper than \(GeneratedContent.maximumDepth) levels")
                }
                let isArray = bytes[index] == UInt8(ascii: "[")
                index += 1
                skipWhitespace()
                if isArray {
                    if consume(UInt8(ascii: "]")) { value = .array([]); break }
                } else {
                    if consume(UInt8(ascii: "}")) { value = .object(JSONObject()); break }
                }
                open.append(OpenContainer(isArray: isArray, firstValue: values.count, firstKey: keys.count))
                if !isArray { keys.append(try parseKey()) }
                continue
            default:
                value = try parseScalar()
            }
            // Attach the value to the enclosing containers, closing those that end here.
            while true {
                guard let top = open.last else { return value }
                values.append(value)
                skipWhitespace()
                if consume(UInt8(ascii: ",")) {
                    if !top.isArray {
                        skipWhitespace()
                        keys.append(try parseKey())
                    }
                    break
                }
                guard consume(UInt8(ascii: top.isArray ? "]" : "}")) else {
                    throw error(top.isArray ? "expected ',' or ']' in array" : "expected ',' or '}' in object")
                }
                value = close(top)
            }
        }
    }

    /// Moves the innermost container's values (and keys) off the stacks into its value.
    private mutating func close(_ container: OpenContainer) -> GeneratedContent {
        open.removeLast()
        defer {
            values.removeSubrange(container.firstValue...)
            if !container.isArray { keys.removeSubrange(container.firstKey...) }
        }
        if container.isArray { return .array(Array(values[container.firstValue...])) }
        return .object(JSONObject(parsedKeys: keys[container.firstKey...], values: values[container.firstValue...]))
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
        let negative = consume(UInt8(ascii: "-"))
        let integerStart = index
        if consume(UInt8(ascii: "0")) {
        } else if digits() == 0 { throw error("invalid number: expected a digit") }
        let integerDigits = index - integerStart
        var isInteger = true
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            if digits() == 0 { throw error("invalid number: expected a digit after '.'") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            isInteger = false
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            if digits() == 0 { throw error("invalid number: expected a digit in the exponent") }
        }
        // Most numbers are short integers: exact in an Int64, and converted with one rounding,
        // as the text would be.
        if isInteger, integerDigits <= 18 {
            var magnitude: Int64 = 0
            for i in integerStart..<index { magnitude = magnitude * 10 + Int64(bytes[i] &- UInt8(ascii: "0")) }
            return negative ? -Double(magnitude) : Double(magnitude)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
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

    /// A string without escapes becomes a `String` straight from its bytes (checked here, so an
    /// error names the offending byte); one with escapes is decoded into a byte buffer.
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var runStart = index
        var decoded: [UInt8]?  // only once an escape is met
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                index += 1
                guard decoded != nil else { return String(decoding: run, as: UTF8.self) }
                decoded!.append(contentsOf: run)
                return String(decoding: decoded!, as: UTF8.self)
            case UInt8(ascii: "\\"):
                if decoded == nil { decoded = []; decoded!.reserveCapacity(index - runStart + 16) }
                decoded!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index += 1
                decoded!.append(contentsOf: UTF8.encode(try parseEscape())!)
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
