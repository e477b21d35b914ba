import ICalendar
import TrailheadPluginKit
import TrailheadSchema

/// `{"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"}`, the arguments of the two reading tools.
struct DayRangeArguments: Generable {
    var start: String
    var end: String

    static let guides = GuideTable(CodingKeys.self, [
        .start: [.pattern(day), .description("First day, YYYY-MM-DD.")],
        .end: [.pattern(day), .description("Last day, YYYY-MM-DD, included. At most 366 days after start.")],
    ])

    private static let day = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"

    var range: DateRange {
        get throws {
            do { return try DateRange(start: start, end: end) } catch { throw ToolFailure(error.message) }
        }
    }
}
