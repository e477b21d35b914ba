/// An RRULE read by us rather than by libical, so its expansion can be bounded (see
/// `RuleIterator`): libical steps sub-daily and never-matching rules one unit at a time inside a
/// call that cannot be interrupted (`FREQ=SECONDLY;BYSECOND=60` and `FREQ=MINUTELY;BYHOUR=1` on a
/// date never return; `FREQ=DAILY;BYMONTHDAY=-1` spins to 2038 and returns nothing).
///
/// Values outside their ranges are dropped (a list left empty matches nothing); `BYSECOND=60`
/// (a leap second, legal in RFC 5545) is one of them: wall clocks here have seconds 0–59.
struct RecurrenceRule: Sendable {
    enum Frequency: Int, Comparable, Sendable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly
        static func < (a: Frequency, b: Frequency) -> Bool { a.rawValue < b.rawValue }
    }

    /// UNTIL as written: a date, a local (floating or DTSTART-zoned) time, or a UTC time.
    enum Until: Sendable {
        case date(LocalDate)
        case local(WallClock)
        case utc(WallClock)
    }

    /// A BYDAY entry: weekday 0 = Monday … 6 = Sunday, with an optional ordinal (`-1SU`).
    struct WeekdayNumber: Hashable, Sendable {
        var weekday: Int
        var ordinal: Int?
    }

    var text: String
    var frequency: Frequency
    var interval = 1
    var count: Int?
    var until: Until?
    var bySecond: [Int]?
    var byMinute: [Int]?
    var byHour: [Int]?
    var byDay: [WeekdayNumber]?
    var byMonthDay: [Int]?
    var byYearDay: [Int]?
    var byWeekNo: [Int]?
    var byMonth: [Int]?
    var bySetPos: [Int]?
    var weekStart = 0

    init(parsing text: String) throws(CalendarError) {
        self.text = text
        var frequency: Frequency?
        for part in text.uppercased().split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            let (key, value) = (pair[0], pair[1])
            switch key {
            case "FREQ": frequency = Self.frequencies[value]
            case "INTERVAL": interval = max(1, min(Int(value) ?? 1, 1_000_000))
            case "COUNT": count = Int(value).map { max(0, $0) }
            case "UNTIL": until = Self.until(value)
            case "BYSECOND": bySecond = Self.numbers(value, in: 0...59)
            case "BYMINUTE": byMinute = Self.numbers(value, in: 0...59)
            case "BYHOUR": byHour = Self.numbers(value, in: 0...23)
            case "BYMONTHDAY": byMonthDay = Self.numbers(value, in: -31...31, nonZero: true)
            case "BYYEARDAY": byYearDay = Self.numbers(value, in: -366...366, nonZero: true)
            case "BYWEEKNO": byWeekNo = Self.numbers(value, in: -53...53, nonZero: true)
            case "BYMONTH": byMonth = Self.numbers(value, in: 1...12)
            case "BYSETPOS": bySetPos = Self.numbers(value, in: -366...366, nonZero: true)
            case "BYDAY": byDay = value.split(separator: ",").compactMap { Self.weekdayNumber(String($0)) }
            case "WKST": weekStart = Self.weekdays.firstIndex(of: value) ?? 0
            default: continue
            }
        }
        guard let frequency else {
            throw CalendarError("RRULE '\(text)' has no FREQ (or an unknown one); not expanded")
        }
        self.frequency = frequency
    }

    private static let frequencies: [String: Frequency] = [
        "SECONDLY": .secondly, "MINUTELY": .minutely, "HOURLY": .hourly, "DAILY": .daily,
        "WEEKLY": .weekly, "MONTHLY": .monthly, "YEARLY": .yearly,
    ]
    static let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    private static func numbers(_ text: String, in range: ClosedRange<Int>, nonZero: Bool = false) -> [Int] {
        let values = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return Array(Set(values.filter { range.contains($0) && (!nonZero || $0 != 0) })).sorted()
    }

    private static func weekdayNumber(_ text: String) -> WeekdayNumber? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, let weekday = weekdays.firstIndex(of: String(trimmed.suffix(2))) else { return nil }
        let number = trimmed.dropLast(2)
        if number.isEmpty { return WeekdayNumber(weekday: weekday, ordinal: nil) }
        guard let ordinal = Int(number), ordinal != 0, (-53...53).contains(ordinal) else { return nil }
        return WeekdayNumber(weekday: weekday, ordinal: ordinal)
    }

    private static func until(_ text: String) -> Until? {
        let digits = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count else { return nil }
            return Int(String(decoding: digits[range], as: UTF8.self))
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let date = LocalDate(year: year, month: month, day: day)
        else { return nil }
        guard digits.count >= 15, digits[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13),
            let second = number(13..<15), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return .date(date) }
        let wall = WallClock(date: date, hour: hour, minute: minute, second: min(second, 59))
        return text.hasSuffix("Z") ? .utc(wall) : .local(wall)
    }
}

import Foundation
