/// Which days of a range are free, and what makes the others busy.
public struct DayAvailability: Sendable, Hashable {
    public var freeDays: [LocalDate]
    /// Busy days in order, each with what occupies it.
    public var busyDays: [BusyDay]

    /// One busy day and the events that occupy it, in start order, one per summary (a meeting that
    /// recurs twice a day is listed once).
    public struct BusyDay: Sendable, Hashable {
        public var date: LocalDate
        public var occupiedBy: [CalendarEvent]

        /// The summaries, at most `maximumSummariesPerDay` of them and then how many more.
        public var events: [String] { DayAvailability.listed(occupiedBy.map(\.summary)) }
    }

    /// A day is free when no busy event, timed or all-day, occupies any part of it. Events are
    /// expected as `CalendarDocument.events(in:zone:)` returns them: cancelled ones are already
    /// gone; transparent ones (`isBusy == false`) leave their days free.
    public init(range: DateRange, events: [CalendarEvent]) {
        var busy: [LocalDate: [CalendarEvent]] = [:]
        var seen: [LocalDate: Set<String>] = [:]
        for event in events where event.isBusy {
            var day = max(event.firstDay, range.start)
            while day <= min(event.lastDay, range.end) {
                if seen[day, default: []].insert(event.summary).inserted { busy[day, default: []].append(event) }
                day = day.adding(days: 1)
            }
        }
        freeDays = range.days.filter { busy[$0] == nil }
        busyDays = range.days.compactMap { day in busy[day].map { BusyDay(date: day, occupiedBy: $0) } }
    }

    /// Events listed per busy day; a day with more says how many more, so a calendar with
    /// thousands of events a day still gives an answer a model can read.
    public static let maximumSummariesPerDay = 10

    static func listed(_ summaries: [String]) -> [String] {
        guard summaries.count > maximumSummariesPerDay else { return summaries }
        return Array(summaries.prefix(maximumSummariesPerDay))
            + ["… and \(summaries.count - maximumSummariesPerDay) more"]
    }
}
