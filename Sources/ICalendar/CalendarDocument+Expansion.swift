extension CalendarDocument {
    /// Every occurrence occupying any day of `range` in `zone`, sorted by start. Recurrences are
    /// expanded (RRULE, RDATE, EXDATE); an occurrence with an override (RECURRENCE-ID) is replaced
    /// by it, and one after a `RANGE=THISANDFUTURE` override is changed by it; of several versions
    /// of an event the highest SEQUENCE counts, and an override older than its series that names
    /// an instance the series no longer has is left out (`OverrideMatcher.current`), as are
    /// cancelled events and occurrences.
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
            let masters = Dictionary(grouping: versions.masters, by: \.uid)
            let current = Dictionary(uniqueKeysWithValues: versions.overrides.map { uid, overrides in
                (uid, OverrideMatcher.current(overrides, masters: masters[uid] ?? [], zone: zone))
            })
            for master in versions.masters where !master.isCancelled {
                let overrides = OverrideMatcher(master: master, overrides: current[master.uid] ?? [], zone: zone)
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
            for override in current.values.joined() where !override.isCancelled {
                // A newer version of the series that deletes this instance (EXDATE) deletes its override too.
                if let master = masters[override.uid]?.first,
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
