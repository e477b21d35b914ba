import TrailheadSchema

extension GenerationSchema {
    /// The most bytes of compact JSON text (as our grammar writes it: no whitespace) that an
    /// answer under this schema can take, or nil when the schema lets it grow without bound.
    ///
    /// A token is at least one byte, so a token limit of this many never cuts a valid answer in
    /// half: a session sets it when a request leaves the limit open. (A limit picked by hand cut
    /// long plans after 1,024 tokens, after ~100 s of decoding, and the whole turn was lost.)
    public var longestAnswerBytes: Int? {
        var walker = LongestAnswer(root: json)
        return walker.bytes(json, depth: 0)
    }
}

/// The walk behind `longestAnswerBytes`. Every count is an upper bound; "unbounded" is nil.
struct LongestAnswer {
    let root: GeneratedContent
    static let maximumDepth = 32

    mutating func bytes(_ schema: GeneratedContent, depth: Int) -> Int? {
        guard depth < Self.maximumDepth else { return nil }
        switch schema {
        case .bool(true): return nil
        case .bool(false): return 0
        case .object: break
        default: return nil
        }
        if let constant = schema["const"] { return constant.jsonString.utf8.count }
        if let values = schema["enum"]?.arrayValue { return values.map { $0.jsonString.utf8.count }.max() ?? 0 }
        if let ref = schema["$ref"]?.stringValue {
            let target: GeneratedContent? = ref == "#" ? root : (ref.hasPrefix("#/$defs/") ? root["$defs"]?[String(ref.dropFirst(8))] : nil)
            guard let target else { return nil }
            return bytes(target, depth: depth + 1)
        }
        for keyword in ["anyOf", "oneOf"] {
            if let alternatives = schema[keyword]?.arrayValue {
                var longest = 0
                for alternative in alternatives {
                    guard let size = bytes(alternative, depth: depth + 1) else { return nil }
                    longest = max(longest, size)
                }
                return longest
            }
        }
        if let all = schema["allOf"]?.arrayValue {
            // Every branch holds: the tightest bound among them holds too.
            return all.compactMap { bytes($0, depth: depth + 1) }.min()
        }
        let types = schema["type"].map { $0.arrayValue?.compactMap(\.stringValue) ?? [$0.stringValue].compactMap { $0 } } ?? []
        guard !types.isEmpty else { return nil }
        var longest = 0
        for type in types {
            guard let size = bytes(type: type, schema, depth: depth) else { return nil }
            longest = max(longest, size)
        }
        return longest
    }

    private mutating func bytes(type: String, _ schema: GeneratedContent, depth: Int) -> Int? {
        switch type {
        case "null": return 4
        case "boolean": return 5
        case "integer":
            guard let low = schema["minimum"]?.doubleValue, let high = schema["maximum"]?.doubleValue else { return nil }
            return max(String(Int(low)).utf8.count, String(Int(high)).utf8.count)
        case "number": return nil
        case "string":
            if let pattern = schema["pattern"]?.stringValue {
                var parser = PatternLength(pattern)
                return parser.longest().map { $0 + 2 }
            }
            // A character may take 6 bytes escaped (\u001f) in JSON.
            return schema["maxLength"]?.intValue.map { $0 * 6 + 2 }
        case "array":
            let prefix = schema["prefixItems"]?.arrayValue ?? []
            guard let count = schema["maxItems"]?.intValue ?? (schema["items"] == .bool(false) ? prefix.count : nil) else { return nil }
            var total = 2 + max(0, count - 1)
            for index in 0..<count {
                let item = index < prefix.count ? prefix[index] : (schema["items"] ?? .bool(true))
                guard let size = bytes(item, depth: depth + 1) else { return nil }
                total += size
            }
            return total
        case "object":
            guard schema["additionalProperties"] == .bool(false), case .object(let properties)? = schema["properties"] else { return nil }
            var total = 2 + max(0, properties.count - 1)
            for (name, property) in properties {
                guard let size = bytes(property, depth: depth + 1) else { return nil }
                total += GeneratedContent.string(name).jsonString.utf8.count + 1 + size
            }
            return total
        default: return nil
        }
    }
}

/// The longest JSON text (in bytes, escaped) a string matching an anchored pattern can take, for
/// the pattern subset our grammar supports; nil when a quantifier is unbounded, and for what the
/// grammar lets run free (`GBNFPattern`): an unanchored side, a lookaround or a word boundary.
struct PatternLength {
    private let scalars: [Unicode.Scalar]
    private let bounded: Bool
    private var index = 0

    init(_ pattern: String) {
        var scalars = Array(pattern.unicodeScalars)
        let anchoredStart = scalars.first == "^"
        if anchoredStart { scalars.removeFirst() }
        let anchoredEnd = scalars.last == "$" && scalars.dropLast().last != "\\"
        if anchoredEnd { scalars.removeLast() }
        self.scalars = scalars
        bounded = anchoredStart && anchoredEnd && !pattern.contains("(?") && !pattern.contains("\\b") && !pattern.contains("\\B")
    }

    mutating func longest() -> Int? {
        guard bounded else { return nil }
        let result = alternation()
        return index == scalars.count ? result : nil
    }

    private mutating func alternation() -> Int? {
        var longest: Int? = sequence()
        while index < scalars.count, scalars[index] == "|" {
            index += 1
            let next = sequence()
            longest = longest.flatMap { a in next.map { max(a, $0) } }
        }
        return longest
    }

    private mutating func sequence() -> Int? {
        var total: Int? = 0
        while index < scalars.count, scalars[index] != "|", scalars[index] != ")" {
            let item = atom()
            let times = quantifier()
            total = total.flatMap { t in item.flatMap { i in times.map { t + i * $0 } } }
        }
        return total
    }

    /// The most repetitions a quantifier allows (1 without one), nil when unbounded.
    private mutating func quantifier() -> Int? {
        guard index < scalars.count else { return 1 }
        switch scalars[index] {
        case "*", "+":
            index += 1
            return nil
        case "?":
            index += 1
            return 1
        case "{":
            var close = index + 1
            while close < scalars.count, scalars[close] != "}" { close += 1 }
            let inside = String(String.UnicodeScalarView(scalars[(index + 1)..<min(close, scalars.count)]))
            index = close + 1
            let bounds = inside.split(separator: ",", omittingEmptySubsequences: false)
            if bounds.count == 1 { return Int(bounds[0]) }
            return bounds.count == 2 ? Int(bounds[1]) : nil
        default:
            return 1
        }
    }

    private mutating func atom() -> Int? {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "(":
            if index + 1 < scalars.count, scalars[index] == "?", scalars[index + 1] == ":" { index += 2 }
            let inner = alternation()
            if index < scalars.count, scalars[index] == ")" { index += 1 }
            return inner
        case "[":
            var negated = false
            if index < scalars.count, scalars[index] == "^" {
                negated = true
                index += 1
            }
            var widest = 1
            var first = true
            while index < scalars.count, scalars[index] != "]" || first {
                first = false
                var member = scalars[index]
                index += 1
                if member == "\\", index < scalars.count {
                    member = scalars[index]
                    index += 1
                }
                widest = max(widest, Self.escapedBytes(member))
            }
            index += 1
            return negated ? 6 : widest
        case ".": return 6
        case "\\":
            guard index < scalars.count else { return nil }
            let escaped = scalars[index]
            index += 1
            return escaped == "s" ? 6 : Self.escapedBytes(escaped)
        default:
            return Self.escapedBytes(scalar)
        }
    }

    /// Bytes of one character in JSON text: escaped, or its UTF-8.
    static func escapedBytes(_ scalar: Unicode.Scalar) -> Int {
        if scalar == "\"" || scalar == "\\" { return 2 }
        if scalar.value < 0x20 { return 6 }
        return String(scalar).utf8.count
    }
}
