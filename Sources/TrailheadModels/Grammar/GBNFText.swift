/// Spelling GBNF: literals, character classes, rule names.
enum GBNFText {
    /// A quoted GBNF literal matching exactly `text`.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}": out += hex(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// One scalar as it may appear inside `[...]`.
    static func classMember(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        // llama.cpp knows only these escapes inside a class (plus \x \u \U \t \r \n).
        case "]", "[", "\\", "-", "\"": return "\\" + String(scalar)
        case "^", "\u{00}"..."\u{1F}", "\u{7F}": return hex(scalar)
        default: return String(scalar)
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "\\x" + String(repeating: "0", count: max(0, 2 - digits.count)) + digits
    }

    /// A rule name (`[a-z0-9-]+`) derived from a hint such as a schema pointer.
    static func ruleName(_ hint: String) -> String {
        var out = ""
        for scalar in hint.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty, !out.hasSuffix("-") {
                out += "-"
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "r" : String(out.prefix(48))
    }

    /// Alternatives as one expression (`nil` when there are none: nothing matches).
    static func alternatives(_ options: [String]) -> String? {
        var unique: [String] = []
        for option in options where !unique.contains(option) { unique.append(option) }
        switch unique.count {
        case 0: return nil
        case 1: return unique[0]
        default: return "(" + unique.joined(separator: " | ") + ")"
        }
    }
}
