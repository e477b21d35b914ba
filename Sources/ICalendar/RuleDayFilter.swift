/// Which days a rule's BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY and BYDAY let through, in the
/// period being expanded. Days are Julian day numbers; weekday 0 is Monday (JDN 0 was a Monday).
struct RuleDayFilter {
    let rule: RecurrenceRule
    /// BYDAY without an ordinal.
    let plainWeekdays: Set<Int>
    /// BYDAY with an ordinal (`1MO`, `-1SU`); ignored (read as plain weekdays) for weekly and
    /// finer rules, as RFC 5545 forbids them there and python-dateutil reads them so.
    let numberedWeekdays: [RecurrenceRule.WeekdayNumber]

    init(rule: RecurrenceRule) {
        self.rule = rule
        var plain = Set<Int>()
        var numbered: [RecurrenceRule.WeekdayNumber] = []
        for entry in rule.byDay ?? [] {
            if entry.ordinal != nil, rule.frequency >= .monthly { numbered.append(entry) } else { plain.insert(entry.weekday) }
        }
        plainWeekdays = plain
        numberedWeekdays = numbered
    }

    static func weekday(_ day: Int) -> Int { ((day % 7) + 7) % 7 }

    /// The days matching the numbered weekdays within a yearly or monthly period: per month of
    /// BYMONTH (or the month) when there is one, else within the year.
    func numberedDays(year: Int, month: Int?) -> Set<Int> {
        guard !numberedWeekdays.isEmpty else { return [] }
        var ranges: [(Int, Int)] = []
        if let month {
            ranges = [Self.monthRange(year: year, month: month)]
        } else if let months = rule.byMonth {
            ranges = months.map { Self.monthRange(year: year, month: $0) }
        } else {
            ranges = [Self.yearRange(year)]
        }
        var days = Set<Int>()
        for (first, last) in ranges {
            for entry in numberedWeekdays {
                guard let ordinal = entry.ordinal else { continue }
                if ordinal > 0 {
                    let day = first + (entry.weekday - Self.weekday(first) + 7) % 7 + (ordinal - 1) * 7
                    if day <= last { days.insert(day) }
                } else {
                    let day = last - (Self.weekday(last) - entry.weekday + 7) % 7 + (ordinal + 1) * 7
                    if day >= first { days.insert(day) }
                }
            }
        }
        return days
    }

    /// Whether `day` passes every day-level filter; `numbered` from `numberedDays` for the period.
    func passes(_ day: Int, numbered: Set<Int>) -> Bool {
        let date = LocalDate(dayNumber: day)
        if let months = rule.byMonth, !months.contains(date.month) { return false }
        if rule.byDay != nil {
            let plain = plainWeekdays.contains(Self.weekday(day))
            if !plain && !numbered.contains(day) { return false }
        }
        if let monthDays = rule.byMonthDay {
            let length = LocalDate.daysIn(month: date.month, year: date.year)
            if !monthDays.contains(date.day) && !monthDays.contains(date.day - length - 1) { return false }
        }
        if let yearDays = rule.byYearDay {
            let (first, last) = Self.yearRange(date.year)
            let length = last - first + 1
            let ordinal = day - first + 1
            if !yearDays.contains(ordinal) && !yearDays.contains(ordinal - length - 1) { return false }
        }
        if let weeks = rule.byWeekNo {
            let (number, total) = weekNumber(day)
            if !weeks.contains(number) && !weeks.contains(number - total - 1) { return false }
        }
        return true
    }

    /// RFC 5545's week number (ISO 8601 with WKST): week 1 is the first with at least 4 days of
    /// the year. Returns the number and how many weeks its week-year has.
    func weekNumber(_ day: Int) -> (number: Int, weeks: Int) {
        var year = LocalDate(dayNumber: day).year
        if day < weekOneStart(year) { year -= 1 } else if day >= weekOneStart(year + 1) { year += 1 }
        let start = weekOneStart(year)
        return ((day - start) / 7 + 1, (weekOneStart(year + 1) - start) / 7)
    }

    private func weekOneStart(_ year: Int) -> Int {
        let january1 = Self.yearRange(year).0
        let offset = (Self.weekday(january1) - rule.weekStart + 7) % 7
        return 7 - offset >= 4 ? january1 - offset : january1 - offset + 7
    }

    static func monthRange(year: Int, month: Int) -> (Int, Int) {
        let first = firstDay(year: year, month: month)
        return (first, first + LocalDate.daysIn(month: month, year: year) - 1)
    }

    static func yearRange(_ year: Int) -> (Int, Int) {
        (firstDay(year: year, month: 1), firstDay(year: year + 1, month: 1) - 1)
    }

    /// The Julian day number of the first of a month; any year (no 1…9999 check).
    static func firstDay(year: Int, month: Int) -> Int { LocalDate.dayNumber(year: year, month: month, day: 1) }
}
