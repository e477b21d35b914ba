import XCTest

@testable import ICalendar

final class SampleCalendarTests: XCTestCase {
    private var sample: CalendarDocument {
        get throws { try CalendarDocument(contentsOfFile: TestData.repository + "/Data/sample/calendar.ics") }
    }

    func testDump() throws {
        let calendar = try sample
        print("declared", calendar.declaredTimeZone ?? "-", "events", calendar.eventCount, "errors", calendar.unreadableLineCount)
        for event in try calendar.events("2026-11-30", "2027-01-15", in: "America/Los_Angeles") {
            print(event.start, event.end, event.allDay, event.isBusy, event.summary, event.firstDay, event.lastDay)
        }
    }
}
