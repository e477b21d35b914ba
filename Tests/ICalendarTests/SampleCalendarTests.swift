import TrailheadSchema
import XCTest

@testable import ICalendar

/// The demo user's calendar (Data/sample/calendar.ics), as the trip planner sees it.
final class SampleCalendarTests: XCTestCase {
    private func sample() throws -> (CalendarDocument, CalendarZone) {
        let calendar = try CalendarDocument(contentsOfFile: TestData.sampleCalendarPath)
        return (calendar, try calendar.zone())
    }

    func testReadsInTheCalendarsDeclaredZone() throws {
        let (calendar, zone) = try sample()
        XCTAssertEqual(calendar.declaredTimeZone, "America/Los_Angeles")
        XCTAssertEqual(zone.identifier, "America/Los_Angeles")
        XCTAssertEqual(calendar.unreadableLineCount, 0)
        XCTAssertEqual(calendar.skippedEventCount, 0)
    }

    func testHasAFreeStretchOverTheHolidays() throws {
        let (calendar, zone) = try sample()
        let range = try DateRange(start: "2026-12-14", end: "2027-01-08")
        let availability = DayAvailability(range: range, events: calendar.events(in: range, zone: zone))
        let free = availability.freeDays.map(\.description)
        // Winter break: Saturday Dec 19 to Sunday Jan 3 — the "office closed" event is
        // transparent and the cancelled party does not count.
        let stretch = (0..<16).map { LocalDate(iso: "2026-12-19")!.adding(days: $0).description }
        XCTAssertEqual(free, stretch)
        let busy = Dictionary(uniqueKeysWithValues: availability.busyDays.map { ($0.date.description, $0.events) })
        XCTAssertEqual(busy["2026-12-15"], ["Cloud Summit"])  // all-day, middle day, no standup on Tuesday
        XCTAssertEqual(busy["2026-12-18"], ["Release deploy window", "Team standup"], "23:00-01:00 reaches into Friday")
        XCTAssertEqual(busy["2027-01-04"], ["Quarterly planning", "Team standup"])
    }

    func testRecurringMeetingsWithExdateAndMovedOccurrence() throws {
        let (calendar, zone) = try sample()
        let week = calendar.events(in: try DateRange(start: "2026-12-07", end: "2026-12-13"), zone: zone)
        XCTAssertEqual(
            week.map { "\($0.start) \($0.summary)" },
            [
                "2026-12-07T09:30 Team standup",
                "2026-12-09T09:00 Call with the Berlin office",  // 18:00 in Berlin
                "2026-12-09T09:30 Team standup",
                "2026-12-11T09:30 Team standup",
                "2026-12-11T11:00 Team sync (moved)",  // RECURRENCE-ID: Thursday 14:00 moved here
            ])
        let breakWeek = calendar.events(in: try DateRange(start: "2026-12-21", end: "2026-12-27"), zone: zone)
        XCTAssertEqual(breakWeek.map(\.summary), ["Office closed (winter break)"], "EXDATEs remove the break's meetings")
    }

    func testRecurrencesRunIntoMid2027() throws {
        let (calendar, zone) = try sample()
        let june = calendar.events(in: try DateRange(start: "2027-06-01", end: "2027-06-30"), zone: zone)
        XCTAssertEqual(june.filter { $0.summary == "Team standup" }.count, 13)
        XCTAssertEqual(june.filter { $0.summary == "Team sync" }.count, 4)
        XCTAssertEqual(june.filter { $0.summary == "Book club" }.map(\.start), ["2027-06-01T19:00"])
        // After DST starts, the standup stays at 09:30 local.
        XCTAssertTrue(june.filter { $0.summary == "Team standup" }.allSatisfy { $0.start.hasSuffix("T09:30") })
    }

    func testEventsReportShape() throws {
        let (calendar, zone) = try sample()
        let range = try DateRange(start: "2026-12-14", end: "2026-12-14")
        let report = CalendarReport.events(calendar.events(in: range, zone: zone), zone: zone)
        XCTAssertEqual(
            try report.generatedContent().jsonString,
            #"{"timeZone":"America/Los_Angeles","events":[{"summary":"Cloud Summit","start":"2026-12-14","end":"2026-12-17","allDay":true,"location":"Moscone Center, San Francisco"},{"summary":"Team standup","start":"2026-12-14T09:30","end":"2026-12-14T09:45","allDay":false,"location":"Zoom"}]}"#
        )
    }

    func testFreeDaysReportSaysWhenAndWhereEachBusyDayIsTaken() throws {
        let (calendar, zone) = try sample()
        let range = try DateRange(start: "2026-12-15", end: "2026-12-18")
        let report = CalendarReport.freeDays(DayAvailability(range: range, events: calendar.events(in: range, zone: zone)), zone: zone)
        let busy = Dictionary(uniqueKeysWithValues: report.busyDays.map { ($0.date, $0.events) })
        XCTAssertEqual(busy["2026-12-15"], ["Cloud Summit, all day, Moscone Center, San Francisco"])
        XCTAssertEqual(busy["2026-12-17"]?.contains("Team sync, 14:00–15:00, Room 4B"), true, "\(busy["2026-12-17"] ?? [])")
        // The deploy window starts the evening before: its start keeps its date.
        XCTAssertEqual(busy["2026-12-18"]?.first?.hasPrefix("Release deploy window, 2026-12-17T23:00–01:00"), true, "\(busy["2026-12-18"] ?? [])")
    }

    func testReadingInAnotherZoneMovesTheEvents() throws {
        let (calendar, _) = try sample()
        let berlin = try XCTUnwrap(CalendarZone(identifier: "Europe/Berlin"))
        let day = calendar.events(in: try DateRange(start: "2026-12-09", end: "2026-12-09"), zone: berlin)
        XCTAssertEqual(day.map(\.start), ["2026-12-09T18:00", "2026-12-09T18:30"])
    }
}
