import Foundation

/// RFC 6901 JSON pointers: the one way schema and instance locations are written.
public enum JSONPointer {
    /// Escapes one reference token (`~` → `~0`, `/` → `~1`).
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `pointer` with one more token appended.
    static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + escape(token)
    }

    static func appending(_ pointer: String, _ index: Int) -> String {
        pointer + "/" + String(index)
    }

    /// The unescaped tokens of a pointer, or nil when it is malformed (no leading `/`,
    /// or a `~` not followed by `0` or `1`).
    public static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        var result: [String] = []
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let c = iterator.next() {
                guard c == "~" else { token.append(c); continue }
                switch iterator.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: return nil
                }
            }
            result.append(token)
        }
        return result
    }

    /// The canonical pointer made from tokens.
    static func make(_ tokens: [String]) -> String {
        tokens.map { "/" + escape($0) }.joined()
    }

    /// The value at `pointer` inside `document`, if there is one.
    static func resolve(_ pointer: String, in document: GeneratedContent) -> GeneratedContent? {
        guard let tokens = tokens(pointer) else { return nil }
        var current = document
        for token in tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let elements):
                guard let i = Int(token), i >= 0, i < elements.count, String(i) == token else { return nil }
                current = elements[i]
            default:
                return nil
            }
        }
        return current
    }
}
