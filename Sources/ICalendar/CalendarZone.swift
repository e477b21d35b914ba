import Foundation

/// The time zone a calendar is read in: where floating times live, where days begin and end,
/// and the zone every result is written in.
public struct CalendarZone: Sendable {
    /// The IANA name ("America/Los_Angeles").
    public let identifier: String
    private let calendar: Calendar

    /// Returns nil for a name the system's zoneinfo does not know.
    public init?(identifier: String) {
        guard !identifier.isEmpty, let zone = TimeZone(identifier: identifier) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.identifier = identifier
        self.calendar = calendar
    }

    /// The machine's zone (what `TZ` or /etc/localtime say), UTC when it has no name.
    public static var machine: CalendarZone {
        CalendarZone(identifier: TimeZone.current.identifier) ?? CalendarZone(identifier: "UTC")!
    }

    /// Seconds since 1970 at which this wall clock shows in the zone. A wall clock inside a
    /// spring-forward gap resolves to the moment after the gap, as calendar programs do.
    public func instant(of wall: WallClock) -> Int64 {
        let components = DateComponents(
            year: wall.date.year, month: wall.date.month, day: wall.date.day,
            hour: wall.hour, minute: wall.minute, second: wall.second)
        guard let date = calendar.date(from: components) else { return 0 }
        return Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// The first instant of a day in the zone.
    public func instant(startOf date: LocalDate) -> Int64 {
        instant(of: WallClock(date: date, hour: 0, minute: 0))
    }

    /// What a clock in the zone shows at this instant.
    public func wallClock(at instant: Int64) -> WallClock {
        let components = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second],
            from: Date(timeIntervalSince1970: TimeInterval(instant)))
        let date =
            LocalDate(year: components.year ?? 1970, month: components.month ?? 1, day: components.day ?? 1)
            ?? LocalDate(year: 1970, month: 1, day: 1)!
        return WallClock(
            date: date, hour: components.hour ?? 0, minute: components.minute ?? 0,
            second: components.second ?? 0)
    }
}
