import CICal

/// One occurrence of a series before it is placed in the reader's zone.
struct Occurrence {
    var start: CalendarTime
    var length: EventLength
}

/// Expands one series (DTSTART, RRULE, RDATE, minus EXDATE) into the occurrences that start
/// before the end of a window of instants and may reach into it. An unbounded RRULE stops at
/// the window's end; a pathological one (every second since 1970) stops after a fixed number
/// of steps, so a query always ends.
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

    /// Iterator steps allowed per RRULE per query.
    static let maximumStepsPerRule = 200_000

    func occurrences(of series: EventSeries) -> [Occurrence] {
        guard series.isRecurring else {
            guard Self.mayReach(series.start, series.length, firstDay, lastDay) else { return [] }
            return reaches(series.start, series.length) ? [Occurrence(start: series.start, length: series.length)] : []
        }
        let excludedInstants = Set(series.exceptions.filter { !$0.isDate }.map { $0.instant(in: zone) })
        let excludedDates = Set(series.exceptions.filter(\.isDate).map(\.ownDate))
        var seen = Set<Int64>()
        var found: [Occurrence] = []

        func add(_ start: CalendarTime, _ length: EventLength) {
            let instant = start.instant(in: zone)
            guard !excludedInstants.contains(instant), !excludedDates.contains(start.ownDate),
                reaches(start, length), seen.insert(instant).inserted
            else { return }
            found.append(Occurrence(start: start, length: length))
        }

        add(series.start, series.length)  // DTSTART is always the first instance (RFC 5545 §3.8.5.3)
        for extra in series.extraDates { add(extra.start, extra.length ?? series.length) }
        for rule in series.rules {
            forEachStart(of: rule, in: series) { add($0, series.length) }
        }
        return found
    }

    private func forEachStart(of ruleText: String, in series: EventSeries, _ body: (CalendarTime) -> Void) {
        guard RecurrenceRuleLimits.isExpandable(ruleText) else { return }
        let rule = icalrecurrencetype_from_string(ruleText)
        guard rule.freq != ICAL_NO_RECURRENCE,
            let iterator = icalrecur_iterator_new(rule, series.start.icalTime)
        else { return }
        defer { icalrecur_iterator_free(iterator) }
        skipAhead(iterator, rule: rule, series: series)
        var previous = Int64.min
        for _ in 0..<Self.maximumStepsPerRule {
            let next = icalrecur_iterator_next(iterator)
            if icaltime_is_null_time(next) != 0 { return }
            guard let start = series.start.sameKind(as: next) else { continue }
            if start.ownDate > lastDay { return }
            guard Self.mayReach(start, series.length, firstDay, lastDay) else { continue }
            let instant = start.instant(in: zone)
            // An iterator that stops advancing would otherwise spin until the step limit.
            if instant >= windowEnd || instant <= previous { return }
            previous = instant
            body(start)
        }
    }

    /// Rules repeating within a day could take millions of steps to reach the window from an
    /// old DTSTART: start those near the window instead (libical cannot do this with COUNT).
    private func skipAhead(_ iterator: OpaquePointer, rule: icalrecurrencetype, series: EventSeries) {
        let subDaily = [ICAL_SECONDLY_RECURRENCE, ICAL_MINUTELY_RECURRENCE, ICAL_HOURLY_RECURRENCE].contains(rule.freq)
        let from = windowStart - lengthInSeconds(series.length) - 86_400
        guard subDaily, rule.count == 0, !series.start.isDate, series.start.instant(in: zone) < from else { return }
        let start: icaltimetype
        switch series.start {
        case .zoned(_, let icalZone): start = icaltime_from_timet_with_zone(time_t(from), 0, icalZone.pointer)
        default: start = icaltimetype(zone.wallClock(at: from), zone: nil)
        }
        _ = icalrecur_iterator_set_start(iterator, start)
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
