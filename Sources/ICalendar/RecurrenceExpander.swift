import CICal

/// One occurrence of a series before it is placed in the reader's zone.
struct Occurrence {
    var start: CalendarTime
    var length: EventLength
}

/// Expands one series (DTSTART, RRULE, RDATE, minus EXDATE) into the occurrences that start
/// before the end of a window of instants and may reach into it. Rules are expanded by
/// `RuleIterator`, never by libical's iterator: an unbounded rule stops at the window's end, and
/// a pathological one (every second since 1970 with a COUNT) stops when its work budget is
/// spent, with a note saying so, so a query always ends and never cuts silently.
struct RecurrenceExpander {
    let zone: CalendarZone
    /// Occurrences must start before `windowEnd` and end at or after `windowStart`.
    let windowStart: Int64
    let windowEnd: Int64

    /// The window's days, for a cheap test by date before any time zone arithmetic; two days
    /// of margin cover every zone offset.
    let firstDay: LocalDate
    let lastDay: LocalDate

    init(zone: CalendarZone, windowStart: Int64, windowEnd: Int64) {
        self.zone = zone
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        firstDay = zone.wallClock(at: windowStart).date.adding(days: -2)
        lastDay = zone.wallClock(at: windowEnd).date.adding(days: 2)
    }

    /// Units of work one RRULE may spend per query (see `RuleIterator`). The slowest of 2,016
    /// FREQ × BY part × DTSTART combinations answers in 0.24–0.36 s of CPU (two runs) in a release
    /// build over the tools' largest range (`trailhead-bench recurrence-limit`), about 0.8 µs a
    /// unit, and a few times that in a debug one.
    /// Each rule has its own budget: ten such rules in one calendar take ten times as long.
    static let workBudgetPerRule = 300_000
    /// Occurrences of one series listed per day; the rest are left out with a note (the day is
    /// busy either way, and an answer lists at most 500 events). Every quarter hour of a day fits.
    static let maximumOccurrencesPerDay = 100

    func occurrences(of series: EventSeries, notes: inout [String]) -> [Occurrence] {
        guard series.isRecurring else {
            guard Self.mayReach(series.start, series.length, firstDay, lastDay) else { return [] }
            return reaches(series.start, series.length) ? [Occurrence(start: series.start, length: series.length)] : []
        }
        let excludedInstants = Set(series.exceptions.filter { !$0.isDate }.map { $0.instant(in: zone) })
        let excludedDates = Set(series.exceptions.filter(\.isDate).map(\.ownDate))
        var seen = Set<Int64>()
        var perDay: [LocalDate: Int] = [:]
        var fullDays = Set<LocalDate>()
        var found: [Occurrence] = []

        /// Adds an occurrence; false once its day holds `maximumOccurrencesPerDay` of this series.
        @discardableResult
        func add(_ start: CalendarTime, _ length: EventLength) -> Bool {
            let instant = start.instant(in: zone)
            guard !excludedInstants.contains(instant), !excludedDates.contains(start.ownDate),
                reaches(start, length), seen.insert(instant).inserted
            else { return true }
            let count = perDay[start.ownDate, default: 0]
            guard count < Self.maximumOccurrencesPerDay else {
                fullDays.insert(start.ownDate)
                return false
            }
            perDay[start.ownDate] = count + 1
            found.append(Occurrence(start: start, length: length))
            return true
        }

        add(series.start, series.length)  // DTSTART is always the first instance (RFC 5545 §3.8.5.3)
        for extra in series.extraDates { add(extra.start, extra.length ?? series.length) }
        for rule in series.rules {
            if let note = forEachStart(of: rule, in: series, { add($0, series.length) }) {
                notes.append("'\(series.summary)': \(note)")
            }
        }
        if !fullDays.isEmpty {
            notes.append(
                "'\(series.summary)': more than \(Self.maximumOccurrencesPerDay) occurrences a day on \(fullDays.count) "
                    + "day\(fullDays.count == 1 ? "" : "s") (from \(fullDays.min()!)); the rest are not listed, the days are busy")
        }
        return found
    }

    /// Expands one RRULE; returns a note when it was refused or cut short.
    private func forEachStart(of ruleText: String, in series: EventSeries, _ body: (CalendarTime) -> Bool) -> String? {
        let rule: RecurrenceRule
        do { rule = try RecurrenceRule(parsing: ruleText) } catch { return error.message }
        let frame = Frame(start: series.start, readerZone: zone)
        let length = lengthInSeconds(series.length)
        let margin = length + 2 * 86_400
        let iterator = RuleIterator(rule: rule, start: frame.startWall, until: rule.until.map(frame.wallSeconds(of:)))
            .counting(before: frame.wallSeconds(at: windowStart) - margin)
        var previous = Int64.min
        let outcome = iterator.run(
            from: frame.wallSeconds(at: windowStart) - margin, through: frame.wallSeconds(at: windowEnd) + 2 * 86_400,
            budget: Self.workBudgetPerRule
        ) { (wall: WallClock) -> RuleIterator.Next in
            guard let start = frame.time(wall) else { return .more }
            let instant = start.instant(in: zone)
            if instant >= windowEnd { return .stop }
            // A DATE series repeating within a day gives its day once.
            if instant == previous { return start.isDate ? .nextDay : .more }
            previous = instant
            // Before the window, a whole day's later occurrences cannot reach it either: skip (or
            // count) them rather than step through every second of the margin days.
            if instant + 86_400 + length + 7_200 < windowStart { return .nextDay }
            if Self.mayReach(start, series.length, firstDay, lastDay), !body(start) { return .nextDay }
            return .more
        }
        guard case .truncated(let reached) = outcome else { return nil }
        return "RRULE \(ruleText) needs more work than one answer allows; expanded only up to \(reached), "
            + "later occurrences in the range are missing"
    }

    /// DTSTART's own frame (its zone, or the reader's for dates and floating times): where a rule
    /// is expanded, as RFC 5545 says, in local time.
    private struct Frame {
        let start: CalendarTime
        let readerZone: CalendarZone

        var startWall: WallClock { start.wallClock }

        /// The wall clock in this frame at an instant, as seconds.
        func wallSeconds(at instant: Int64) -> Int64 {
            if case .zoned(_, let zone) = start {
                let time = icaltime_from_timet_with_zone(time_t(instant), 0, zone.pointer)
                if let wall = time.wallClock { return wall.secondsSince1970AsUTC }
            }
            return readerZone.wallClock(at: instant).secondsSince1970AsUTC
        }

        /// UNTIL as the last wall-clock second an occurrence may start at.
        func wallSeconds(of until: RecurrenceRule.Until) -> Int64 {
            switch until {
            case .date(let date): WallClock(date: date.adding(days: 1), hour: 0, minute: 0).secondsSince1970AsUTC - 1
            case .local(let wall): wall.secondsSince1970AsUTC
            case .utc(let wall): wallSeconds(at: wall.secondsSince1970AsUTC)
            }
        }

        /// An occurrence as the same kind of value as DTSTART.
        func time(_ wall: WallClock) -> CalendarTime? {
            guard (1...9999).contains(wall.date.year) else { return nil }
            return start.sameKind(wall: wall)
        }
    }

    /// Whether an occurrence may touch the window's days, judged by dates alone (fast).
    static func mayReach(_ start: CalendarTime, _ length: EventLength, _ firstDay: LocalDate, _ lastDay: LocalDate) -> Bool {
        let day = start.ownDate
        return day <= lastDay && day.adding(days: Int(lengthInSeconds(length) / 86_400) + 1) >= firstDay
    }

    /// Whether an occurrence may touch the window (exact day boundaries are decided later).
    private func reaches(_ start: CalendarTime, _ length: EventLength) -> Bool {
        let instant = start.instant(in: zone)
        return instant < windowEnd && instant + lengthInSeconds(length) + 7_200 >= windowStart
    }
}

func lengthInSeconds(_ length: EventLength) -> Int64 {
    switch length {
    case .days(let days): Int64(days) * 86_400
    case .seconds(let seconds): seconds
    }
}
