import CICal

/// A DTSTART, DTEND, RDATE, EXDATE or RECURRENCE-ID value, with its zone resolved.
enum CalendarTime: Hashable {
    /// A DATE value: a whole day wherever the reader is.
    case date(LocalDate)
    /// A DATE-TIME without a zone: the same wall clock wherever the reader is (RFC 5545 §3.3.5).
    case floating(WallClock)
    /// A DATE-TIME in a known zone (UTC for values ending in 'Z').
    case zoned(WallClock, ICalZone)

    var isDate: Bool { if case .date = self { true } else { false } }

    /// The day the value falls on in its own zone.
    var ownDate: LocalDate {
        switch self {
        case .date(let date): date
        case .floating(let wall), .zoned(let wall, _): wall.date
        }
    }

    /// Seconds since 1970; dates and floating times are read in `zone`.
    func instant(in zone: CalendarZone) -> Int64 {
        switch self {
        case .date(let date): return zone.instant(startOf: date)
        case .floating(let wall): return zone.instant(of: wall)
        case .zoned(let wall, let icalZone):
            let time = icaltimetype(wall, zone: icalZone)
            return Int64(icaltime_as_timet_with_zone(time, icalZone.pointer))
        }
    }

    /// The value as libical's time, in its own zone (what a recurrence iterator starts from).
    var icalTime: icaltimetype {
        switch self {
        case .date(let date):
            // Not icaltime_null_date(): its time fields are -1, and a recurrence iterator
            // started from it never advances.
            var time = icaltime_null_time()
            time.is_date = 1
            time.year = Int32(date.year)
            time.month = Int32(date.month)
            time.day = Int32(date.day)
            return time
        case .floating(let wall): return icaltimetype(wall, zone: nil)
        case .zoned(let wall, let zone): return icaltimetype(wall, zone: zone)
        }
    }

    /// The wall clock of the value in its own zone (midnight for a date).
    var wallClock: WallClock {
        switch self {
        case .date(let date): WallClock(date: date, hour: 0, minute: 0)
        case .floating(let wall), .zoned(let wall, _): wall
        }
    }

    /// The same kind of value (date, floating, or in this value's zone) at a wall clock.
    func sameKind(wall: WallClock) -> CalendarTime {
        switch self {
        case .date: .date(wall.date)
        case .floating: .floating(wall)
        case .zoned(_, let zone): .zoned(wall, zone)
        }
    }

    /// The same kind of value (date, floating, or in this value's zone) for a time libical produced.
    func sameKind(as time: icaltimetype) -> CalendarTime? {
        switch self {
        case .date: return time.localDate.map { .date($0) }
        case .floating: return time.wallClock.map { .floating($0) }
        case .zoned(_, let zone): return time.wallClock.map { .zoned($0, zone) }
        }
    }
}

extension icaltimetype {
    init(_ wall: WallClock, zone: ICalZone?) {
        self = icaltime_null_time()
        year = Int32(wall.date.year)
        month = Int32(wall.date.month)
        day = Int32(wall.date.day)
        hour = Int32(wall.hour)
        minute = Int32(wall.minute)
        second = Int32(wall.second)
        is_date = 0
        self.zone = zone?.pointer
    }
}
