import TrailheadTestSupport
import XCTest

@testable import ICalendar

/// Every .ics file shipped in the icalendar and recurring-ical-events sdists — including their
/// fuzzed and deliberately broken ones — is parsed and expanded without crashing: either it
/// parses, or it is refused with a message.
final class CorpusTests: XCTestCase {
    func testEveryShippedCalendarParsesOrIsRefusedCleanly() throws {
        var parsed = 0
        var refused: [String] = []
        var occurrences = 0
        var files: [String] = []
        for folder in ["icalendar", "recurring-ical-events"] {
            files += TestData.icsFiles(under: try TrailheadCache.testData(folder))
        }
        XCTAssertGreaterThan(files.count, 200, "the two sdists ship about 260 .ics files")
        let zone = try XCTUnwrap(CalendarZone(identifier: "Europe/Berlin"))
        for file in files {
            do {
                let calendar = try CalendarDocument(contentsOfFile: file)
                parsed += 1
                // Expand around each event's own start, so every series is exercised once.
                for start in Set(calendar.series.map(\.start.ownDate)).sorted().prefix(20) {
                    let range = try DateRange(start: start, end: start.adding(days: 365))
                    occurrences += calendar.events(in: range, zone: zone).count
                }
            } catch {
                XCTAssertFalse(error.message.isEmpty)
                refused.append("\(URL(fileURLWithPath: file).lastPathComponent): \(error.message)")
            }
        }
        print("corpus: \(files.count) files, \(parsed) parsed, \(refused.count) refused, \(occurrences) occurrences")
        for line in refused { print("  refused \(line)") }
        XCTAssertEqual(parsed + refused.count, files.count)
        // 204 of 260 on icalendar 6.x / recurring-ical-events 3.x: the refused ones are bare
        // VEVENT/VALARM snippets (no VCALENDAR) and files cut off before END:VCALENDAR.
        XCTAssertGreaterThanOrEqual(parsed, 200)
    }
}
