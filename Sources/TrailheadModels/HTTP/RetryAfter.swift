import Foundation

/// A server's `Retry-After` header (RFC 9110 §10.2.3): when a rate-limited or overloaded server
/// expects to serve again. Either a number of seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026
/// 07:28:00 GMT`, and the two obsolete forms RFC 9110 says recipients must still read). Anything
/// else — a negative or fractional number, words, a date in another format — says nothing, and
/// is ignored rather than guessed at.
enum RetryAfter {
    /// The date `header` names, read at `now`; `nil` when it is not a `Retry-After` value.
    static func date(_ header: String, now: Date = Date()) -> Date? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Digits only, so the number is finite and not negative; a year is more than any server means.
            guard let seconds = Double(value) else { return nil }
            return now.addingTimeInterval(min(seconds, 366 * 24 * 3600))
        }
        return httpDate(value)
    }

    /// The seconds from `now` until the date `header` names (0 when it has passed); `nil` as `date`.
    static func seconds(_ header: String, now: Date = Date()) -> Double? {
        date(header, now: now).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// IMF-fixdate, then RFC 850's and asctime's forms, all in GMT.
    private static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            formatter.isLenient = false
            if let date = formatter.date(from: text.replacingOccurrences(of: "  ", with: " ")) { return date }
        }
        return nil
    }
}
