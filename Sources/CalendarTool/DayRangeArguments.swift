import ICalendar
import TrailheadPluginKit
import TrailheadSchema

/// `{"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"}`, shared by the two reading tools.
enum DayRangeArguments {
    static let schema: GeneratedContent = [
        "type": "object",
        "properties": [
            "start": ["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "description": "First day, YYYY-MM-DD."],
            "end": [
                "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                "description": "Last day, YYYY-MM-DD, included. At most 366 days after start.",
            ],
        ],
        "required": ["start", "end"],
        "additionalProperties": false,
    ]

    static func range(from arguments: GeneratedContent) throws -> DateRange {
        do {
            return try DateRange(start: arguments["start"]?.stringValue ?? "", end: arguments["end"]?.stringValue ?? "")
        } catch {
            throw ToolFailure(error.message)
        }
    }
}
