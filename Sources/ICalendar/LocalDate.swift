/// A day of the proleptic Gregorian calendar, without a time zone ("2026-12-07").
///
/// Days are counted as a Julian day number so that adding days and measuring ranges is
/// plain integer arithmetic, independent of any time zone.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Returns nil for an impossible date (2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...LocalDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2,
            parts[2].count == 2, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Days since an arbitrary fixed origin (the Julian day number).
    public var dayNumber: Int { Self.dayNumber(year: year, month: month, day: day) }

    /// The Julian day number of 1970-01-01.
    static let epochDayNumber = 2_440_588

    /// The Julian day number of a date in the proleptic Gregorian calendar; any year (no 1…9999
    /// check), and a day past the month's end counts on into the next.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        return day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045
    }

    public init(dayNumber: Int) {
        let a = dayNumber + 32044
        let b = (4 * a + 3) / 146097
        let c = a - 146097 * b / 4
        let d = (4 * c + 3) / 1461
        let e = c - 1461 * d / 4
        let m = (5 * e + 2) / 153
        day = e - (153 * m + 2) / 5 + 1
        month = m + 3 - 12 * (m / 10)
        year = 100 * b + d - 4800 + m / 10
    }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    /// Days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDate) -> Int { other.dayNumber - dayNumber }

    public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

    /// RFC 5545's basic form, `YYYYMMDD`.
    public var basicForm: String { "\(pad(year, 4))\(pad(month, 2))\(pad(day, 2))" }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A wall-clock time on a day, in no particular zone ("2026-12-07T09:00").
public struct WallClock: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let date: LocalDate
    public let hour: Int
    public let minute: Int
    public let second: Int

    public init(date: LocalDate, hour: Int, minute: Int, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// ISO 8601 local time: `YYYY-MM-DDTHH:MM`, with `:SS` only when the seconds are not zero.
    public var description: String {
        let base = "\(date)T\(pad(hour, 2)):\(pad(minute, 2))"
        return second == 0 ? base : base + ":\(pad(second, 2))"
    }

    var secondsOfDay: Int { hour * 3600 + minute * 60 + second }

    /// `YYYY-MM-DDTHH:MM`, seconds left out.
    public var minuteText: String { "\(date)T\(pad(hour, 2)):\(pad(minute, 2))" }

    public static func < (lhs: WallClock, rhs: WallClock) -> Bool {
        (lhs.date, lhs.secondsOfDay) < (rhs.date, rhs.secondsOfDay)
    }
}

func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
