import XCTest

@testable import ICalendar

/// When a day is busy: fixtures in Tests/Fixtures/ics/days.ics (read in Europe/Berlin, its X-WR-TIMEZONE).
final class DayBoundaryTests: XCTestCase {
    private func availability(_ start: String, _ end: String) throws -> DayAvailability {
        let calendar = try TestData.fixture("days.ics")
        let range = try DateRange(start: start, end: end)
        return DayAvailability(range: range, events: calendar.events(in: range, zone: try calendar.zone()))
    }

    func testAnEventAcrossMidnightMakesBothDaysBusy() throws {
        let days = try availability("2027-01-05", "2027-01-07")
        XCTAssertEqual(days.busyDays.map(\.date.description), ["2027-01-05", "2027-01-06"])
        XCTAssertEqual(days.freeDays.map(\.description), ["2027-01-07"])
    }

    func testAnEventEndingAtMidnightLeavesTheNextDayFree() throws {
        let days = try availability("2027-01-08", "2027-01-09")
        XCTAssertEqual(days.busyDays.map(\.date.description), ["2027-01-08"])
        XCTAssertEqual(days.freeDays.map(\.description), ["2027-01-09"])
    }

    func testTransparentEventsAreListedButLeaveTheDayFree() throws {
        let calendar = try TestData.fixture("days.ics")
        XCTAssertEqual(try calendar.events("2027-01-11", "2027-01-11", in: "Europe/Berlin").map(\.summary), ["Optional webinar", "Weekly review"])
        let days = try availability("2027-01-11", "2027-01-11")
        XCTAssertEqual(days.busyDays.first?.events, ["Weekly review"])
    }

    func testCancelledEventsAndCancelledOccurrencesAreGone() throws {
        let calendar = try TestData.fixture("days.ics")
        XCTAssertEqual(try calendar.events("2027-01-12", "2027-01-12", in: "Europe/Berlin").count, 0)
        XCTAssertEqual(try calendar.events("2027-01-18", "2027-01-18", in: "Europe/Berlin").count, 0, "cancelled override")
        XCTAssertEqual(try calendar.events("2027-01-25", "2027-01-25", in: "Europe/Berlin").map(\.start), ["2027-01-25T15:00"])
    }
}
