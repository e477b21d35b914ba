/// One occurrence of an event, placed in the calendar's zone.
public struct CalendarEvent: Sendable, Hashable {
    public var summary: String
    public var location: String?
    public var allDay: Bool
    /// `YYYY-MM-DD` for all-day events, else the local time `YYYY-MM-DDTHH:MM` in the zone.
    public var start: String
    /// Exclusive, as RFC 5545's DTEND: a one-day event on the 7th ends on the 8th.
    public var end: String
    /// Seconds since 1970 (all-day events: the start of their first and after their last day).
    public var startInstant: Int64
    public var endInstant: Int64
    /// The days in the zone that any part of the event occupies. An event ending exactly at
    /// midnight does not occupy the next day; an instant event occupies its own day.
    public var firstDay: LocalDate
    public var lastDay: LocalDate
    /// False for TRANSP:TRANSPARENT events: shown, but they leave the time free.
    public var isBusy: Bool
}

extension CalendarEvent {
    init(_ occurrence: Occurrence, of series: EventSeries, in zone: CalendarZone) {
        summary = series.summary
        location = series.location
        isBusy = !series.isTransparent
        if case .date(let day) = occurrence.start {
            let days: Int
            switch occurrence.length {
            case .days(let count): days = max(1, count)
            case .seconds(let seconds): days = max(1, Int((seconds + 86_399) / 86_400))
            }
            let after = day.adding(days: days)
            allDay = true
            start = day.description
            end = after.description
            startInstant = zone.instant(startOf: day)
            endInstant = zone.instant(startOf: after)
            firstDay = day
            lastDay = after.adding(days: -1)
        } else {
            startInstant = occurrence.start.instant(in: zone)
            endInstant = startInstant + lengthInSeconds(occurrence.length)
            let startClock = zone.wallClock(at: startInstant)
            let endClock = zone.wallClock(at: endInstant)
            allDay = false
            // The tools promise YYYY-MM-DDTHH:MM: seconds are dropped (an event at 17:00:25 starts at 17:00).
            start = startClock.minuteText
            end = endClock.minuteText
            firstDay = startClock.date
            let endsAtMidnight = endInstant > startInstant && endClock.secondsOfDay == 0
            lastDay = max(firstDay, endsAtMidnight ? endClock.date.adding(days: -1) : endClock.date)
        }
    }
}
