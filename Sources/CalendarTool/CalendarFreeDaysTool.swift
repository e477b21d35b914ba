import ICalendar
import TrailheadPluginKit
import TrailheadSchema

/// Which days the user has nothing on: the question a trip planner asks first.
struct CalendarFreeDaysTool: PluginTool {
    let settings: CalendarSettings

    var name: String { "calendarFreeDays" }
    var description: String {
        "Finds the days from start to end (inclusive) when the user's calendar has nothing, timed or all-day, "
            + "and lists what makes the other days busy. Use it to pick dates for a trip. Cancelled events "
            + "and events marked free (transparent) do not make a day busy."
    }
    var arguments: GeneratedContent { DayRangeArguments.schema }
    var output: GeneratedContent? {
        let busyDay: GeneratedContent = [
            "type": "object",
            "properties": ["date": ["type": "string"], "events": ["type": "array", "items": ["type": "string"]]],
            "required": ["date", "events"],
            "additionalProperties": false,
        ]
        return [
            "type": "object",
            "properties": [
                "timeZone": ["type": "string"],
                "freeDays": ["type": "array", "items": ["type": "string"]],
                "busyDays": ["type": "array", "items": busyDay],
                "warnings": ["type": "array", "items": ["type": "string"], "description": "What could not be read exactly."],
            ],
            "required": ["timeZone", "freeDays", "busyDays"],
            "additionalProperties": false,
        ]
    }

    func call(_ arguments: GeneratedContent) throws -> GeneratedContent {
        let range = try DayRangeArguments.range(from: arguments)
        let (document, zone) = try settings.calendar()
        let expansion = document.expand(in: range, zone: zone)
        let availability = DayAvailability(range: range, events: expansion.events)
        return CalendarReport.freeDays(availability, zone: zone, notes: expansion.notes)
    }
}
