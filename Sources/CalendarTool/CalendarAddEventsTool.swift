import ICalendar
import TrailheadPluginKit
import TrailheadSchema

/// Writes planned events (a trip's days) to a separate .ics file the user can import.
/// It needs the user's approval and never touches the user's own calendar file.
struct CalendarAddEventsTool: Tool {
    let settings: CalendarSettings

    var name: String { "calendarAddEvents" }
    var description: String {
        "Adds events to a separate .ics file (created if missing, appended otherwise), never to the user's "
            + "own calendar. Times are YYYY-MM-DDTHH:MM in the calendar's time zone; all-day events take "
            + "YYYY-MM-DD dates with allDay true (end is the day after the last day, or equal to start for one day)."
    }
    var annotations: ToolAnnotations { ToolAnnotations(readOnly: false, destructive: false, idempotent: false) }
    var needsApproval: Bool { true }

    struct Arguments: Generable {
        var file: String
        var events: [NewEvent]
        static let guides = GuideTable(CodingKeys.self, [
            .file: [.pattern("\\.ics$"), .description("Path of the .ics file to write.")],
            .events: [.count(1...100)],
        ])
    }

    struct NewEvent: Generable {
        var summary: String
        var start: String
        var end: String
        var allDay: Bool?
        var location: String?
        var description: String?
        static let guides = GuideTable(CodingKeys.self, [
            .summary: [.minimumLength(1)],
            .start: [.description("YYYY-MM-DDTHH:MM, or YYYY-MM-DD when allDay")],
            .end: [.description("YYYY-MM-DDTHH:MM, or YYYY-MM-DD when allDay")],
        ])
    }

    func call(arguments: Arguments) throws -> CalendarReport.Added {
        guard !arguments.file.isEmpty else {
            throw ToolFailure("'file' is required: the path of a separate .ics file")
        }
        let path = settings.resolve(arguments.file)
        do {
            let drafts = try arguments.events.enumerated().map { (index, event) throws(CalendarError) in
                try EventDraft(
                    summary: event.summary, start: event.start, end: event.end, allDay: event.allDay, location: event.location,
                    notes: event.description, index: index)
            }
            let zone = try settings.writingZone()
            let written = try EventWriter.append(drafts, to: path, zone: zone, protecting: [settings.calendarPath])
            return CalendarReport.added(written, file: path, zone: zone)
        } catch {
            throw ToolFailure(error.message)
        }
    }
}
