import Foundation

/// Text as search compares it: lowercased, accents removed ("Zürich" → "zurich",
/// "José" → "jose"), a few letters that are not accented forms spelled out ("ß" → "ss").
enum SearchFolding {
    static func fold(_ text: String) -> String {
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
        fold(text).split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    private static let spelledOut: [Unicode.Scalar: String] = [
        "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
    ]
}
