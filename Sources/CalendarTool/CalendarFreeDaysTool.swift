import ICalendar
import TrailheadPluginKit
import TrailheadSchema

/// Which days the user has nothing on: the question a trip planner asks first.
struct CalendarFreeDaysTool: Tool {
    let settings: CalendarSettings

    var name: String { "calendarFreeDays" }
    var description: String {
        "Finds the days from start to end (inclusive) when the user's calendar has nothing, timed or all-day, "
            + "and lists what makes the other days busy. Use it to pick dates for a trip. Cancelled events "
            + "and events marked free (transparent) do not make a day busy."
    }
    func call(arguments: DayRangeArguments) throws -> CalendarReport.FreeDays {
        let range = try arguments.range
        let (document, zone) = try settings.calendar()
        let expansion = document.expand(in: range, zone: zone)
        let availability = DayAvailability(range: range, events: expansion.events)
        return CalendarReport.freeDays(availability, zone: zone, notes: expansion.notes)
    }
}
