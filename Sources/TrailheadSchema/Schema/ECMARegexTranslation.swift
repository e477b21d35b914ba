/// JSON Schema's `pattern` is an ECMA-262 regex; NSRegularExpression speaks ICU. The two agree
/// on most syntax; this rewrites the differences that change what matches:
/// - `\d`, `\w` (and `\D`, `\W`) are ASCII-only in ECMA-262, Unicode-aware in ICU;
/// - `$` is the very end of the input in ECMA-262, but also "before a final newline" in ICU;
/// - `[` inside a character class is a literal in ECMA-262, a nested set in ICU.
enum ECMARegexTranslation {
    static func icuPattern(for source: String) -> String {
        var out = ""
        var inClass = false
        var iterator = source.makeIterator()
        while let c = iterator.next() {
            switch c {
            case "\\":
                guard let escaped = iterator.next() else { out.append("\\"); break }
                switch (escaped, inClass) {
                case ("d", false): out += "[0-9]"
                case ("d", true): out += "0-9"
                case ("D", false): out += "[^0-9]"
                case ("w", false): out += "[A-Za-z0-9_]"
                case ("w", true): out += "A-Za-z0-9_"
                case ("W", false): out += "[^A-Za-z0-9_]"
                default: out.append("\\"); out.append(escaped)
                }
            case "[" where inClass: out += "\\["
            case "[":
                inClass = true
                out.append(c)
            case "]" where inClass:
                inClass = false
                out.append(c)
            case "$" where !inClass: out += "\\z"
            default: out.append(c)
            }
        }
        return out
    }
}
