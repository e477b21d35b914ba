import ICalendar
import TrailheadPluginKit
import TrailheadSchema

/// What is on the user's calendar between two days, recurrences expanded.
struct CalendarEventsTool: Tool {
    let settings: CalendarSettings

    var name: String { "calendarEvents" }
    var description: String {
        "Lists the user's calendar events from start to end (inclusive days), recurring events expanded, "
            + "in the calendar's time zone. Timed events have local times YYYY-MM-DDTHH:MM; all-day events "
            + "have dates, with end the day after the last day."
    }
    func call(arguments: DayRangeArguments) throws -> CalendarReport.Events {
        let range = try arguments.range
        let (document, zone) = try settings.calendar()
        let expansion = document.expand(in: range, zone: zone)
        return CalendarReport.events(expansion.events, zone: zone, notes: expansion.notes)
    }
}
