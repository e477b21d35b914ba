/// The events of a calendar as RFC 5545 means them: of several versions of one event (same UID
/// and RECURRENCE-ID, as an edited series exported twice) only those with the highest SEQUENCE
/// count; overrides are grouped by the series they change.
struct EventVersions {
    /// Single events and recurring series.
    var masters: [EventSeries] = []
    /// Overrides (RECURRENCE-ID), by UID.
    var overrides: [String: [EventSeries]] = [:]

    init(_ all: [EventSeries]) {
        var best: [String: Int] = [:]
        for series in all where !series.uid.isEmpty {
            let key = Self.key(series)
            best[key] = max(best[key] ?? .min, series.sequence)
        }
        for series in all {
            // Equal SEQUENCEs are kept both: without a newer version, neither can be dropped.
            guard series.uid.isEmpty || series.sequence == best[Self.key(series)] else { continue }
            if series.recurrenceID == nil { masters.append(series) } else { overrides[series.uid, default: []].append(series) }
        }
    }

    private static func key(_ series: EventSeries) -> String {
        guard let id = series.recurrenceID else { return series.uid }
        return series.uid + "\u{0}" + id.ownDate.description + (id.isDate ? "" : "T\(id.wallClock.secondsSince1970AsUTC)") + id.zoneKey
    }
}

extension CalendarTime {
    fileprivate var zoneKey: String {
        if case .zoned(_, let zone) = self { return "@\(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(zone.pointer))))" }
        return ""
    }

    /// This value moved by `seconds` of wall-clock time, as the kind of value `kind` is.
    func shifted(by seconds: Int64, as kind: CalendarTime) -> CalendarTime {
        kind.sameKind(wall: WallClock(secondsSince1970AsUTC: wallClock.secondsSince1970AsUTC + seconds))
    }
}
