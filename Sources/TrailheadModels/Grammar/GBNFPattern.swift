/// Translates a regular expression (a `pattern` keyword) into GBNF over the JSON text of the
/// string, i.e. with `"` and `\` and control characters in their escaped spelling.
///
/// Supported: literals, escapes `\d \w \s` and escaped punctuation, classes `[a-z_]` (negated
/// ones approximately), `.` (approximately), groups `(…)` and `(?:…)`, alternation, the
/// quantifiers `* + ? {n} {n,} {n,m}`, and `^`/`$` around the whole pattern. An unanchored side
/// gets any characters. Anything else (lookaround, back-references, lazy quantifiers, `\b`)
/// is refused with a reason, and the caller falls back to any string.
struct GBNFPattern {
    struct Refusal: Error { var message: String }

    struct Translation {
        var text: String
        var usesApproximation: Bool
        var approximationReason: String
        /// Groups the text refers to by name (`Translation.groupName(i)`) instead of spelling them
        /// out: a group that holds a quantifier and is itself repeated. llama.cpp copies a repeated
        /// expression once per repetition, and refused the well-formed-text pattern (a word of
        /// bounded parts, repeated up to 24 times) as "exceeds sane defaults"; a rule repeated is
        /// only its name, repeated.
        var groups: [String] = []

        /// The placeholder of group `index` in `text`, for the caller to replace with a rule's name.
        static func groupName(_ index: Int) -> String { "__group\(index)__" }
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var approximated: [String] = []
    private var char = "char"
    private var groups: [String] = []

    init(_ pattern: String) { scalars = Array(pattern.unicodeScalars) }

    func expression(char: String) throws(Refusal) -> Translation {
        var parser = self
        parser.char = char
        var anchoredStart = false
        var anchoredEnd = false
        var end = scalars.count
        if parser.scalars.first == "^" {
            anchoredStart = true
            parser.index = 1
        }
        if end > parser.index, scalars[end - 1] == "$", end < 2 || scalars[end - 2] != "\\" {
            anchoredEnd = true
            end -= 1
        }
        let body = try parser.alternation(until: end)
        guard parser.index == end else { throw Refusal(message: "unexpected '\(scalars[parser.index])'") }
        var parts: [String] = []
        if !anchoredStart { parts.append("\(char)*") }
        parts.append(body.isEmpty ? "\"\"" : "(\(body))")
        if !anchoredEnd { parts.append("\(char)*") }
        return Translation(
            text: parts.joined(separator: " "), usesApproximation: !parser.approximated.isEmpty,
            approximationReason: parser.approximated.joined(separator: "; "), groups: parser.groups)
    }

    private mutating func alternation(until end: Int) throws(Refusal) -> String {
        var branches = [try sequence(until: end)]
        while index < end, scalars[index] == "|" {
            index += 1
            branches.append(try sequence(until: end))
        }
        return branches.count == 1 ? branches[0] : branches.map { $0.isEmpty ? "\"\"" : $0 }.joined(separator: " | ")
    }

    private mutating func sequence(until end: Int) throws(Refusal) -> String {
        var items: [String] = []
        while index < end, scalars[index] != "|", scalars[index] != ")" {
            var atom = try self.atom(until: end)
            let quantifier = try self.quantifier(until: end)
            if atom.hasPrefix("("), quantifier.hasPrefix("{") || quantifier == "*" || quantifier == "+", atom.contains("{") {
                groups.append(atom)
                atom = Translation.groupName(groups.count - 1)
            }
            items.append(atom + quantifier)
        }
        return items.joined(separator: " ")
    }

    private mutating func quantifier(until end: Int) throws(Refusal) -> String {
        guard index < end else { return "" }
        var q: String
        switch scalars[index] {
        case "*", "+", "?":
            q = String(scalars[index])
            index += 1
        case "{":
            var close = index + 1
            while close < end, scalars[close] != "}" { close += 1 }
            guard close < end else { throw Refusal(message: "unclosed {") }
            let inside = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
            let bounds = inside.split(separator: ",", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), bounds.allSatisfy({ $0.isEmpty || Int($0) != nil }), Int(bounds[0]) != nil else {
                throw Refusal(message: "quantifier {\(inside)}")
            }
            q = "{\(inside)}"
            index = close + 1
        default: return ""
        }
        if index < end, scalars[index] == "?" || scalars[index] == "+" {
            throw Refusal(message: "lazy or possessive quantifiers")
        }
        return q
    }

    private mutating func atom(until end: Int) throws(Refusal) -> String {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "(":
            if index + 1 < end, scalars[index] == "?" {
                guard scalars[index + 1] == ":" else { throw Refusal(message: "lookaround and named groups") }
                index += 2
            }
            let inner = try alternation(until: end)
            guard index < end, scalars[index] == ")" else { throw Refusal(message: "unclosed (") }
            index += 1
            return "(\(inner.isEmpty ? "\"\"" : inner))"
        case "[": return try characterClass(until: end)
        case ".":
            approximated.append("'.' also matches escaped line breaks")
            return char
        case "\\": return try escape(until: end)
        case "^", "$": throw Refusal(message: "anchors inside the pattern")
        case "*", "+", "?", "{": throw Refusal(message: "a quantifier with nothing to repeat")
        default: return Self.jsonLiteral(scalar)
        }
    }

    private mutating func escape(until end: Int) throws(Refusal) -> String {
        guard index < end else { throw Refusal(message: "a trailing backslash") }
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "d": return "[0-9]"
        case "w": return "[a-zA-Z0-9_]"
        case "s":
            approximated.append("\\s is taken as ASCII whitespace")
            return #"(" " | "\\" [tnrf] | "\\u000b")"#
        case "n": return Self.jsonLiteral("\n")
        case "t": return Self.jsonLiteral("\t")
        case "r": return Self.jsonLiteral("\r")
        default:
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                throw Refusal(message: "the escape \\\(scalar)")
            }
            return Self.jsonLiteral(scalar)
        }
    }

    /// `[...]`: members that JSON writes unescaped go into a GBNF class, the others become
    /// their escaped literal.
    private mutating func characterClass(until end: Int) throws(Refusal) -> String {
        var negated = false
        if index < end, scalars[index] == "^" {
            negated = true
            index += 1
        }
        var ranges: [(Unicode.Scalar, Unicode.Scalar)] = []
        var classes: [String] = []
        var first = true
        while index < end, scalars[index] != "]" || first {
            first = false
            var low = scalars[index]
            index += 1
            if low == "\\" {
                guard index < end else { throw Refusal(message: "a trailing backslash") }
                let escaped = scalars[index]
                index += 1
                switch escaped {
                case "d": classes.append("0-9"); continue
                case "w": classes.append("a-zA-Z0-9_"); continue
                case "s": ranges += [(" ", " "), ("\t", "\t"), ("\n", "\n"), ("\r", "\r")]; continue
                case "n": low = "\n"
                case "t": low = "\t"
                case "r": low = "\r"
                default:
                    if escaped.properties.isAlphabetic { throw Refusal(message: "the escape \\\(escaped) in a class") }
                    low = escaped
                }
            }
            var high = low
            if index + 1 < end, scalars[index] == "-", scalars[index + 1] != "]" {
                high = scalars[index + 1]
                index += 2
                guard low <= high else { throw Refusal(message: "the range \(low)-\(high)") }
            }
            ranges.append((low, high))
        }
        guard index < end else { throw Refusal(message: "unclosed [") }
        index += 1
        func needsEscape(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || s == "\"" || s == "\\" }
        if negated {
            approximated.append("a negated class also matches escaped characters")
            let members = classes.joined() + ranges.map { GBNFText.classMember($0.0) + ($0.0 == $0.1 ? "" : "-" + GBNFText.classMember($0.1)) }.joined()
            return #"([^"# + members + #""\\\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4}))"#
        }
        var plain = classes.joined()
        var escapedOptions: [String] = []
        for (low, high) in ranges {
            if !needsEscape(low) && !needsEscape(high) && !(low.value < 0x22 && high.value > 0x22) && !(low.value < 0x5C && high.value > 0x5C) {
                plain += GBNFText.classMember(low) + (low == high ? "" : "-" + GBNFText.classMember(high))
            } else if high.value - low.value < 128 {
                for value in low.value...high.value {
                    let s = Unicode.Scalar(value)!
                    if needsEscape(s) { escapedOptions.append(Self.jsonLiteral(s)) } else { plain += GBNFText.classMember(s) }
                }
            } else {
                throw Refusal(message: "a wide range around quote or backslash")
            }
        }
        var options = escapedOptions
        if !plain.isEmpty { options.insert("[\(plain)]", at: 0) }
        guard !options.isEmpty else { throw Refusal(message: "an empty class") }
        return options.count == 1 ? options[0] : "(" + options.joined(separator: " | ") + ")"
    }

    /// A character as JSON writes it inside a string, as a GBNF literal.
    static func jsonLiteral(_ scalar: Unicode.Scalar) -> String {
        var json = GeneratedContent.string(String(scalar)).jsonString
        json.removeFirst()
        json.removeLast()
        return GBNFText.literal(json)
    }
}

import TrailheadSchema
