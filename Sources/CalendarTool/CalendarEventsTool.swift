import ICalendar
import TrailheadPluginKit
import TrailheadSchema

/// What is on the user's calendar between two days, recurrences expanded.
struct CalendarEventsTool: PluginTool {
    let settings: CalendarSettings

    var name: String { "calendarEvents" }
    var description: String {
        "Lists the user's calendar events from start to end (inclusive days), recurring events expanded, "
            + "in the calendar's time zone. Timed events have local times YYYY-MM-DDTHH:MM; all-day events "
            + "have dates, with end the day after the last day."
    }
    var arguments: GeneratedContent { DayRangeArguments.schema }
    var output: GeneratedContent? {
        let event: GeneratedContent = [
            "type": "object",
            "properties": [
                "summary": ["type": "string"], "start": ["type": "string"], "end": ["type": "string"],
                "allDay": ["type": "boolean"], "location": ["type": "string"],
            ],
            "required": ["summary", "start", "end", "allDay"],
            "additionalProperties": false,
        ]
        return [
            "type": "object",
            "properties": [
                "timeZone": ["type": "string"], "events": ["type": "array", "items": event],
                "omitted": ["type": "integer", "description": "Events past the first 500, not listed."],
                "warnings": ["type": "array", "items": ["type": "string"], "description": "What could not be read exactly."],
            ],
            "required": ["timeZone", "events"],
            "additionalProperties": false,
        ]
    }

    func call(_ arguments: GeneratedContent) throws -> GeneratedContent {
        let range = try DayRangeArguments.range(from: arguments)
        let (document, zone) = try settings.calendar()
        let expansion = document.expand(in: range, zone: zone)
        return CalendarReport.events(expansion.events, zone: zone, notes: expansion.notes)
    }
}
