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
    /// The overrides' RECURRENCE-IDs as `compare` matches them, so `replaces` (once per
    /// occurrence) is a lookup: every ID's day, the days of the DATE ones, the instants of the others.
    private let idDays: Set<LocalDate>
    private let dateIDDays: Set<LocalDate>
    private let idInstants: Set<Int64>

    init(master: EventSeries, overrides: [EventSeries], zone: CalendarZone) {
        self.master = master
        self.overrides = overrides
        self.zone = zone
        futures = overrides.filter(\.isThisAndFuture).sorted {
            $0.recurrenceID!.instant(in: zone) > $1.recurrenceID!.instant(in: zone)
        }
        let ids = overrides.map { $0.recurrenceID! }
        idDays = Set(ids.map(\.ownDate))
        dateIDDays = Set(ids.filter(\.isDate).map(\.ownDate))
        idInstants = Set(ids.filter { !$0.isDate }.map { $0.instant(in: zone) })
    }

    /// How far a THISANDFUTURE override moves occurrences, in seconds (the window widens by it).
    var largestShift: Int64 {
        futures.map { abs(Self.shift(of: $0)) }.max() ?? 0
    }

    /// Whether the master's EXDATEs delete the instance `id` names.
    func excludes(_ id: CalendarTime) -> Bool {
        master.exceptions.contains { compare(id, $0) == 0 }
    }

    /// Whether an override's RECURRENCE-ID names the occurrence (`compare(id, start) == 0` for one of them).
    func replaces(_ occurrence: Occurrence) -> Bool {
        let start = occurrence.start
        if master.start.isDate || start.isDate { return idDays.contains(start.ownDate) }
        return dateIDDays.contains(start.ownDate) || idInstants.contains(start.instant(in: zone))
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

extension OverrideMatcher {
    /// The overrides that still belong to their series. One older than the series (a lower
    /// SEQUENCE: the series was revised after it, RFC 5545 §3.8.7.4) whose RECURRENCE-ID names no
    /// instance the series still has (§3.8.4.4: it modifies an instance of the recurrence set)
    /// was written for a version that is gone — a series cut short by a new UNTIL leaves its
    /// older override of a later week behind — and is left out. An override at least as new as
    /// its series is kept wherever it points (Lotus Notes writes a series as RDATE overrides), and
    /// so is every one when the series cannot be expanded far enough to tell.
    ///
    /// `masters` are the series' versions of the highest SEQUENCE (see `EventVersions`); each is
    /// expanded once, over the span of the older RECURRENCE-IDs, so a file with thousands of
    /// overrides costs one rule budget per series, not one per override.
    static func current(_ overrides: [EventSeries], masters: [EventSeries], zone: CalendarZone) -> [EventSeries] {
        // Masters of one UID share the highest SEQUENCE; the lowest is the safe side if not.
        guard let sequence = masters.map(\.sequence).min() else { return overrides }
        let older = overrides.compactMap { $0.sequence < sequence ? $0.recurrenceID : nil }
        guard !older.isEmpty else { return overrides }
        let missing = masters.map { OverrideMatcher(master: $0, overrides: [], zone: zone).missingInstances(older) }
        let gone = missing.dropFirst().reduce(missing[0]) { $0.intersection($1) }
        return overrides.filter { $0.sequence >= sequence || !gone.contains($0.recurrenceID!) }
    }

    /// The RECURRENCE-IDs among `ids` that name no instance of the series (DTSTART, RRULE or
    /// RDATE, less EXDATE); none when the series cannot be expanded over their span within one
    /// rule budget, or has more occurrences on a day than are listed.
    private func missingInstances(_ ids: [CalendarTime]) -> Set<CalendarTime> {
        let instants = ids.map { $0.instant(in: zone) }
        // Two days either side cover any zone offset between a RECURRENCE-ID and the reader.
        let expander = RecurrenceExpander(
            zone: zone, windowStart: instants.min()! - 2 * 86_400, windowEnd: instants.max()! + 2 * 86_400)
        var notes: [String] = []
        let starts = expander.occurrences(of: master, notes: &notes).map(\.start)
        guard notes.isEmpty else { return [] }
        // `compare` in sets: by day when a DATE is involved, else by instant.
        let days = Set(starts.map(\.ownDate))
        let dateDays = Set(starts.filter(\.isDate).map(\.ownDate))
        let timed = Set(starts.filter { !$0.isDate }.map { $0.instant(in: zone) })
        return Set(ids.indices.compactMap { index in
            let id = ids[index]
            let found = master.start.isDate || id.isDate
                ? days.contains(id.ownDate) : dateDays.contains(id.ownDate) || timed.contains(instants[index])
            return found ? nil : id
        })
    }
}
