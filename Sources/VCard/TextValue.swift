/// The text value rules of RFC 2426 §4 and RFC 6350 §3.4: `\n` `\N` `\,` `\;` `\\` escapes,
/// `;` between the components of a structured value, `,` between several values.
enum TextValue {
    /// `a\,b` → `a,b`, `line\nline` → two lines. An unknown escape (`\:`) keeps its character.
    static func unescape(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return String(text) }
        var result = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else { result.append(character); continue }
            switch iterator.next() {
            case "n", "N": result.append("\n")
            case let other?: result.append(other)
            case nil: result.append("\\")
            }
        }
        return result
    }

    /// Splits on `separator` where it is not escaped; the pieces keep their escapes.
    static func split(_ text: String, on separator: Unicode.Scalar) -> [Substring] {
        // Separators and backslash are ASCII, and UTF-8 never uses ASCII bytes inside a
        // multi-byte character, so walking bytes is safe (and much faster than Characters).
        let utf8 = text.utf8
        let separator = UInt8(ascii: separator)
        var pieces: [Substring] = []
        var start = utf8.startIndex
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\\") {
                index = utf8.index(after: index)
                if index < utf8.endIndex { index = utf8.index(after: index) }
                continue
            }
            if byte == separator {
                pieces.append(text[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        pieces.append(text[start...])
        return pieces
    }

    /// Several comma-separated values (`CATEGORIES:friends,hiking`), unescaped, trimmed, empty ones dropped.
    static func list(_ text: String) -> [String] {
        split(text, on: ",").map { unescape($0).trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// The components of a structured value (`N`, `ADR`, `ORG`); a component holding several
    /// values (`street1,street2`) is joined with `joiner`.
    static func components(_ text: String, joiner: String) -> [String] {
        split(text, on: ";").map { component in
            split(String(component), on: ",").map { unescape($0).trimmingSpaces }.filter { !$0.isEmpty }.joined(separator: joiner)
        }
    }
}
