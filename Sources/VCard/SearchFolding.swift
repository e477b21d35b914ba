import Foundation

/// Text as search compares it: lowercased, accents removed ("Zürich" → "zurich",
/// "José" → "jose"), a few letters that are not accented forms spelled out ("ß" → "ss").
enum SearchFolding {
    static func fold(_ text: String) -> String {
        // Most text in an address book is ASCII: lowercase it without Foundation.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        var result = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                continue
            default:
                if let spelled = spelledOut[scalar] {
                    result.append(contentsOf: spelled.unicodeScalars)
                } else {
                    result.append(scalar)
                }
            }
        }
        return String(result)
    }

    /// The words of `text`, folded: runs of letters and digits.
    static func words(_ text: String) -> [String] {
        let folded = fold(text)
        if folded.utf8.allSatisfy({ $0 < 0x80 }) {
            return folded.utf8.split { !isASCIIAlphanumeric($0) }.map { String(decoding: $0, as: UTF8.self) }
        }
        return folded.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
    }

    private static let spelledOut: [Unicode.Scalar: String] = [
        "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
    ]
}
