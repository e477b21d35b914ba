/// Which days of a range are free, and what makes the others busy.
public struct DayAvailability: Sendable, Hashable {
    public var freeDays: [LocalDate]
    /// Busy days in order, each with the summaries of what occupies it (in start order, once each).
    public var busyDays: [(date: LocalDate, events: [String])]

    /// A day is free when no busy event, timed or all-day, occupies any part of it. Events are
    /// expected as `CalendarDocument.events(in:zone:)` returns them: cancelled ones are already
    /// gone; transparent ones (`isBusy == false`) leave their days free.
    public init(range: DateRange, events: [CalendarEvent]) {
        var busy: [LocalDate: [String]] = [:]
        var seen: [LocalDate: Set<String>] = [:]
        for event in events where event.isBusy {
            var day = max(event.firstDay, range.start)
            while day <= min(event.lastDay, range.end) {
                if seen[day, default: []].insert(event.summary).inserted { busy[day, default: []].append(event.summary) }
                day = day.adding(days: 1)
            }
        }
        freeDays = range.days.filter { busy[$0] == nil }
        busyDays = range.days.compactMap { day in busy[day].map { (day, Self.listed($0)) } }
    }

    /// Summaries listed per busy day; a day with more says how many more, so a calendar with
    /// thousands of events a day still gives an answer a model can read.
    public static let maximumSummariesPerDay = 10

    private static func listed(_ summaries: [String]) -> [String] {
        guard summaries.count > maximumSummariesPerDay else { return summaries }
        return Array(summaries.prefix(maximumSummariesPerDay))
            + ["… and \(summaries.count - maximumSummariesPerDay) more"]
    }

    public static func == (lhs: DayAvailability, rhs: DayAvailability) -> Bool {
        lhs.freeDays == rhs.freeDays && lhs.busyDays.elementsEqual(rhs.busyDays) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(freeDays)
        for day in busyDays {
            hasher.combine(day.date)
            hasher.combine(day.events)
        }
    }
}
