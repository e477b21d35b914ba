import Foundation

/// The time zone a calendar is read in: where floating times live, where days begin and end,
/// and the zone every result is written in.
///
/// Conversions use the zone's UTC offset and integer day arithmetic rather than
/// `Calendar.dateComponents`, which was most of the cost of a large query.
public struct CalendarZone: Sendable {
    /// The IANA name ("America/Los_Angeles").
    public let identifier: String
    private let zone: TimeZone

    /// Returns nil for a name the system's zoneinfo does not know; a Windows zone name
    /// ("W. Europe Standard Time") is read as its IANA zone (CLDR's windowsZones table).
    public init?(identifier: String) {
        let name = WindowsZones.iana[identifier.trimmingCharacters(in: .whitespaces)] ?? identifier
        guard !name.isEmpty, let zone = TimeZone(identifier: name) else { return nil }
        self.identifier = name
        self.zone = zone
    }

    /// The machine's zone (what `TZ` or /etc/localtime say), UTC when it has no name.
    public static var machine: CalendarZone {
        CalendarZone(identifier: TimeZone.current.identifier) ?? CalendarZone(identifier: "UTC")!
    }

    /// Seconds since 1970 at which this wall clock shows in the zone. An ambiguous wall clock
    /// (clocks going back) is its first occurrence; one inside a spring-forward gap resolves to
    /// the moment after the gap, so a day that starts in a gap starts when the gap ends.
    public func instant(of wall: WallClock) -> Int64 {
        let local = wall.secondsSince1970AsUTC
        let first = local - offset(at: local)
        let second = local - offset(at: first)
        if second == first || wallClock(at: second) == wall { return second }
        return max(first, second)  // in a gap: neither reading shows this wall clock
    }

    /// The first instant of a day in the zone.
    public func instant(startOf date: LocalDate) -> Int64 {
        instant(of: WallClock(date: date, hour: 0, minute: 0))
    }

    /// What a clock in the zone shows at this instant.
    public func wallClock(at instant: Int64) -> WallClock {
        WallClock(secondsSince1970AsUTC: instant + offset(at: instant))
    }

    private func offset(at instant: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
    }
}

extension WallClock {
    /// Seconds since 1970 if this wall clock were read in UTC.
    var secondsSince1970AsUTC: Int64 {
        Int64(date.dayNumber - LocalDate.epochDayNumber) * 86_400 + Int64(secondsOfDay)
    }

    init(secondsSince1970AsUTC seconds: Int64) {
        let days = floorDivide(seconds, 86_400)
        let rest = Int(seconds - days * 86_400)
        self.init(
            date: LocalDate(dayNumber: Int(days) + LocalDate.epochDayNumber),
            hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
    }
}
