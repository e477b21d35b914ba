/// Cheap checks on iCalendar text before libical sees it.
///
/// libical frees, counts and prints components recursively: a file of a million nested
/// `BEGIN:` lines (14 MB, well under the size limit) overflows the stack and kills the process.
/// Real calendars nest four deep (VCALENDAR > VEVENT > VALARM, VTIMEZONE > STANDARD).
enum CalendarTextCheck {
    static let maximumNesting = 32

    static func check(_ text: String, source: String) throws(CalendarError) {
        let head = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }.prefix(15).uppercased()
        guard head == "BEGIN:VCALENDAR" else {
            throw CalendarError("'\(source)' is not an iCalendar file: it does not begin with BEGIN:VCALENDAR")
        }
        var depth = 0
        var lineNumber = 0
        var atLineStart = true
        var prefix: [UInt8] = []
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") {
                atLineStart = true
                prefix.removeAll(keepingCapacity: true)
                continue
            }
            guard atLineStart else { continue }
            prefix.append(byte | 0x20)  // ASCII lower case; only letters and ':' matter here
            if prefix.count == 1 { lineNumber += 1 }
            if prefix == Self.begin {
                depth += 1
                atLineStart = false
                if depth > maximumNesting {
                    throw CalendarError(
                        "'\(source)' nests components more than \(maximumNesting) deep (line \(lineNumber)); refused")
                }
            } else if prefix == Self.end {
                depth -= 1
                atLineStart = false
            } else if prefix.count >= Self.begin.count {
                atLineStart = false
            }
        }
    }

    private static let begin = Array("begin:".utf8)
    private static let end = Array("end:".utf8)
}
