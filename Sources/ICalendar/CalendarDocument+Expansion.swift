extension CalendarDocument {
    /// Every occurrence occupying any day of `range` in `zone`, sorted by start. Recurrences are
    /// expanded (RRULE, RDATE, EXDATE); an occurrence with an override (RECURRENCE-ID) is replaced
    /// by it, and one after a `RANGE=THISANDFUTURE` override is changed by it; of several versions
    /// of an event the highest SEQUENCE counts; cancelled events and occurrences are left out.
    public func events(in range: DateRange, zone: CalendarZone) -> [CalendarEvent] {
        expand(in: range, zone: zone).events
    }

    /// What a query found, and notes on what it could not do exactly (a rule cut short by its
    /// work budget, occurrences not listed, rules or zones ignored): the tools put these in
    /// their answers, so nothing is dropped silently.
    public struct Expansion: Sendable {
        public var events: [CalendarEvent]
        public var notes: [String]
    }

    /// Like `events(in:zone:)`, with the notes.
    public func expand(in range: DateRange, zone: CalendarZone) -> Expansion {
        let windowStart = zone.instant(startOf: range.start) - 86_400
        let windowEnd = zone.instant(startOf: range.end.adding(days: 1)) + 86_400
        var events: [CalendarEvent] = []
        var notes = readingNotes
        func keep(_ occurrence: Occurrence, of series: EventSeries) {
            let event = CalendarEvent(occurrence, of: series, in: zone)
            if event.lastDay >= range.start && event.firstDay <= range.end { events.append(event) }
        }
        (try? Libical.locked { () throws(CalendarError) in
            for master in versions.masters where !master.isCancelled {
                let overrides = OverrideMatcher(master: master, overrides: versions.overrides[master.uid] ?? [], zone: zone)
                let shift = overrides.largestShift
                let expander = RecurrenceExpander(zone: zone, windowStart: windowStart - shift, windowEnd: windowEnd + shift)
                for occurrence in expander.occurrences(of: master, notes: &notes) where !overrides.replaces(occurrence) {
                    if let (changed, by) = overrides.changedByFutureOverride(occurrence) {
                        if !by.isCancelled { keep(changed, of: master.changed(by: by)) }
                    } else {
                        keep(occurrence, of: master)
                    }
                }
            }
            let expander = RecurrenceExpander(zone: zone, windowStart: windowStart, windowEnd: windowEnd)
            let masters = Dictionary(versions.masters.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
            for override in versions.overrides.values.joined() where !override.isCancelled {
                // A newer version of the series that deletes this instance (EXDATE) deletes its override too.
                if let master = masters[override.uid],
                    OverrideMatcher(master: master, overrides: [], zone: zone).excludes(override.recurrenceID!)
                {
                    continue
                }
                for occurrence in expander.occurrences(of: override, notes: &notes) { keep(occurrence, of: override) }
            }
        })
        events.sort { a, b in
            if a.startInstant != b.startInstant { return a.startInstant < b.startInstant }
            if a.endInstant != b.endInstant { return a.endInstant < b.endInstant }
            return a.summary < b.summary
        }
        return Expansion(events: events, notes: notes)
    }
}

/// Which occurrences of a series its overrides replace (RFC 5545 §3.8.4.4), and how the
/// `RANGE=THISANDFUTURE` ones change the occurrences after them.
///
/// A RECURRENCE-ID is matched by day when either side is a DATE (Outlook writes
/// `RECURRENCE-ID;TZID=…:20200101T000000` for all-day series), else by instant, so a zone
/// other than DTSTART's still matches.
struct OverrideMatcher {
    let master: EventSeries
    let overrides: [EventSeries]
    let zone: CalendarZone
    /// THISANDFUTURE overrides, latest RECURRENCE-ID first.
    private let futures: [EventSeries]

    init(master: EventSeries, overrides: [EventSeries], zone: CalendarZone) {
        self.master = master
        self.overrides = overrides
        self.zone = zone
        futures = overrides.filter(\.isThisAndFuture).sorted {
            $0.recurrenceID!.instant(in: zone) > $1.recurrenceID!.instant(in: zone)
        }
    }

    /// How far a THISANDFUTURE override moves occurrences, in seconds (the window widens by it).
    var largestShift: Int64 {
        futures.map { abs(Self.shift(of: $0)) }.max() ?? 0
    }

    /// Whether the master's EXDATEs delete the instance `id` names.
    func excludes(_ id: CalendarTime) -> Bool {
        master.exceptions.contains { compare(id, $0) == 0 }
    }

    func replaces(_ occurrence: Occurrence) -> Bool {
        overrides.contains { compare($0.recurrenceID!, occurrence.start) == 0 }
    }

    /// The occurrence as the latest THISANDFUTURE override before it changes it.
    func changedByFutureOverride(_ occurrence: Occurrence) -> (Occurrence, EventSeries)? {
        guard let future = futures.first(where: { compare($0.recurrenceID!, occurrence.start) < 0 }) else { return nil }
        let start = occurrence.start.shifted(by: Self.shift(of: future), as: future.start)
        return (Occurrence(start: start, length: future.length), future)
    }

    private static func shift(of future: EventSeries) -> Int64 {
        future.start.wallClock.secondsSince1970AsUTC - future.recurrenceID!.wallClock.secondsSince1970AsUTC
    }

    /// -1, 0 or 1 as the RECURRENCE-ID is before, at or after the occurrence's start.
    private func compare(_ id: CalendarTime, _ start: CalendarTime) -> Int {
        if master.start.isDate || id.isDate || start.isDate {
            return id.ownDate == start.ownDate ? 0 : id.ownDate < start.ownDate ? -1 : 1
        }
        let (a, b) = (id.instant(in: zone), start.instant(in: zone))
        return a == b ? 0 : a < b ? -1 : 1
    }
}

extension EventSeries {
    /// The series as a THISANDFUTURE override describes its later occurrences.
    func changed(by future: EventSeries) -> EventSeries {
        var copy = self
        copy.summary = future.summary
        copy.location = future.location
        copy.isTransparent = future.isTransparent
        return copy
    }
}
