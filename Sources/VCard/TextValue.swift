/// The text value rules of RFC 2426 §4 and RFC 6350 §3.4: `\n` `\N` `\,` `\;` `\\` escapes,
/// `;` between the components of a structured value, `,` between several values.
enum TextValue {
    /// `a\,b` → `a,b`, `line\nline` → two lines. An unknown escape (`\:`) keeps its character.
    static func unescape(_ text: some StringProtocol) -> String {
        guard text.contains("\\") else { return String(text) }
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
    static func split(_ text: String, on separator: Character) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\\" {
                index = text.index(after: index)
                if index < text.endIndex { index = text.index(after: index) }
                continue
            }
            if character == separator {
                pieces.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
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
