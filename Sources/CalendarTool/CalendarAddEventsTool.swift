import ICalendar
import TrailheadPluginKit
import TrailheadSchema

/// Writes planned events (a trip's days) to a separate .ics file the user can import.
/// It needs the user's approval and never touches the user's own calendar file.
struct CalendarAddEventsTool: PluginTool {
    let settings: CalendarSettings

    var name: String { "calendarAddEvents" }
    var description: String {
        "Adds events to a separate .ics file (created if missing, appended otherwise), never to the user's "
            + "own calendar. Times are YYYY-MM-DDTHH:MM in the calendar's time zone; all-day events take "
            + "YYYY-MM-DD dates with allDay true (end is the day after the last day, or equal to start for one day)."
    }
    var annotations: ToolAnnotations { ToolAnnotations(readOnly: false, destructive: false, idempotent: false) }
    var needsApproval: Bool { true }

    var arguments: GeneratedContent {
        let text: GeneratedContent = ["type": "string"]
        let event: GeneratedContent = [
            "type": "object",
            "properties": [
                "summary": ["type": "string", "minLength": 1],
                "start": ["type": "string", "description": "YYYY-MM-DDTHH:MM, or YYYY-MM-DD when allDay"],
                "end": ["type": "string", "description": "YYYY-MM-DDTHH:MM, or YYYY-MM-DD when allDay"],
                "allDay": ["type": "boolean"],
                "location": text,
                "description": text,
            ],
            "required": ["summary", "start", "end"],
            "additionalProperties": false,
        ]
        return [
            "type": "object",
            "properties": [
                "file": ["type": "string", "pattern": "\\.ics$", "description": "Path of the .ics file to write."],
                "events": ["type": "array", "items": event, "minItems": 1, "maxItems": 100],
            ],
            "required": ["file", "events"],
            "additionalProperties": false,
        ]
    }

    func call(_ arguments: GeneratedContent) throws -> GeneratedContent {
        guard let file = arguments["file"]?.stringValue, !file.isEmpty else {
            throw ToolFailure("'file' is required: the path of a separate .ics file")
        }
        let path = settings.resolve(file)
        let items = arguments["events"]?.arrayValue ?? []
        do {
            let drafts = try items.enumerated().map { (index, item) throws(CalendarError) in
                try EventDraft(content: item, index: index)
            }
            let zone = try settings.writingZone()
            let written = try EventWriter.append(drafts, to: path, zone: zone, protecting: [settings.calendarPath])
            return CalendarReport.added(written, file: path, zone: zone)
        } catch {
            throw ToolFailure(error.message)
        }
    }
}
