import XCTest

@testable import ICalendar

/// Our expansion against the expectations of python-recurring-ical-events' own test suite, on
/// its own calendars (recurring_ical_events/test/calendars, read from the sdist at test time).
/// Each case names the Python test it mirrors. Python's `at(day)` with a naive day reads the
/// day in the events' zone, so these read in that zone too; Python's `between(a, b)` excludes
/// `b`, our ranges include their last day.
final class RecurringIcalEventsTests: XCTestCase {
    private func starts(_ name: String, _ first: String, _ last: String, in zone: String) throws -> [String] {
        try TestData.recurring(name).events(first, last, in: zone).map(\.start)
    }

    /// test_issue_20_exdate_ignored.py: test_rrule_dates_show_up, test_exdates_do_not_show_up,
    /// test_there_are_n_events — EXDATEs in UTC against a Europe/Berlin series, UNTIL one second
    /// before the next occurrence.
    func testExdatesInUTCRemoveBerlinOccurrences() throws {
        let expected = ["20191029", "20191112", "20191210", "20200107", "20200114", "20200121", "20200128"]
        let found = try starts("issue_20_exdate_ignored", "2019-01-01", "2019-12-31", in: "Europe/Berlin")
            + starts("issue_20_exdate_ignored", "2020-01-01", "2020-12-31", in: "Europe/Berlin")
        XCTAssertEqual(found.map { String($0.prefix(10)).replacingOccurrences(of: "-", with: "") }, expected)
        XCTAssertTrue(found.allSatisfy { $0.hasSuffix("T16:15") }, "\(found)")
    }

    /// test_issue_20_exdate_ignored.py: test_rdate_after_until_also_in_rrule — an RDATE on the
    /// day the RRULE's UNTIL just misses still counts.
    func testRdateAfterUntilIsIncluded() throws {
        let found = try starts("rdate_falls_on_rrule_until", "2020-02-04", "2020-02-04", in: "Europe/Berlin")
        XCTAssertEqual(found, ["2020-02-04T16:15"])
    }

    /// test_rdate.py: test_rdate_is_included, test_rdate_occurs_multiple_times — 12 RDATEs.
    func testRdatesAreOccurrences() throws {
        let days = [
            "20130803", "20130831", "20131005", "20131102", "20131130", "20140104",
            "20140201", "20140301", "20140405", "20140503", "20140531", "20140705",
        ]
        let found = try starts("rdate_hackerpublicradio", "2013-01-01", "2013-12-31", in: "UTC")
            + starts("rdate_hackerpublicradio", "2014-01-01", "2014-12-31", in: "UTC")
        XCTAssertEqual(found, days.map { "\($0.prefix(4))-\($0.dropFirst(4).prefix(2))-\($0.suffix(2))T19:00" })
    }

    /// test_rdate.py: test_rdate_does_not_double_rrule_entry, test_rdate_can_be_excluded_by_exdate,
    /// test_rdate_and_rrule_can_be_excluded_by_exdate.
    func testRdateAndRruleCollapseAndExdateWins() throws {
        XCTAssertEqual(try starts("rdate", "2014-07-05", "2014-07-05", in: "UTC"), ["2014-07-05T19:00"])
        XCTAssertEqual(try starts("rdate", "2025-07-05", "2025-07-05", in: "UTC"), [])
        XCTAssertEqual(try starts("rdate", "2015-07-05", "2015-07-05", in: "UTC"), [])
    }

    /// test_issue_62_moved_event.py: test_event_is_absent, test_event_has_moved,
    /// test_there_is_only_one_event_in_december — a RECURRENCE-ID moves Dec 31 to Dec 17.
    func testRecurrenceIdMovesAnOccurrence() throws {
        XCTAssertEqual(try starts("issue_62_moved_event", "2021-12-31", "2021-12-31", in: "Europe/Berlin"), [])
        XCTAssertEqual(
            try starts("issue_62_moved_event", "2021-12-01", "2021-12-31", in: "Europe/Berlin"), ["2021-12-17T21:30"])
    }

    /// test_issue_62_moved_event.py: test_event_is_present, test_event_is_absent_2,
    /// test_total_amount_of_events — moved timed and all-day occurrences in Australia/Sydney.
    func testMovedTimedAndAllDayOccurrences() throws {
        let events = try TestData.recurring("issue_62_moved_event_2").events("2023-08-01", "2023-08-31", in: "Australia/Sydney")
        XCTAssertEqual(events.count, 6)
        let byDay = Dictionary(grouping: events, by: { $0.firstDay.description }).mapValues { $0.map(\.summary) }
        for day in ["2023-08-10", "2023-08-16", "2023-08-24"] { XCTAssertEqual(byDay[day], ["All Day"], day) }
        for day in ["2023-08-08", "2023-08-14", "2023-08-22"] { XCTAssertEqual(byDay[day], ["Datetime"], day) }
        for day in ["2023-08-15", "2023-08-17"] { XCTAssertNil(byDay[day], day) }
    }

    /// test_daylight_saving_time.py: test_daylight_saving_events — 19:00 Berlin on both sides of
    /// the DST change (UTC+1 in March, UTC+2 in April).
    func testWallClockKeptAcrossDaylightSaving() throws {
        let calendar = try TestData.recurring("daylight_saving_time")
        for day in ["2019-03-20", "2019-04-24"] {
            let events = try calendar.events(day, day, in: "Europe/Berlin")
            XCTAssertEqual(events.first?.start, "\(day)T19:00", day)
        }
        let march = try XCTUnwrap(try calendar.events("2019-03-20", "2019-03-20", in: "Europe/Berlin").first)
        let april = try XCTUnwrap(try calendar.events("2019-04-24", "2019-04-24", in: "Europe/Berlin").first)
        XCTAssertEqual(march.startInstant % 86_400, 18 * 3600, "19:00 CET is 18:00 UTC")
        XCTAssertEqual(april.startInstant % 86_400, 17 * 3600, "19:00 CEST is 17:00 UTC")
    }

    /// test_time_zones_differ.py: test_include_events_if_the_time_zone_differs — midnight in
    /// Berlin is 06:00 in Ho Chi Minh City and the evening before in Panama.
    func testEventsConvertedToTheReadersZone() throws {
        let calendar = try TestData.recurring("three_events")
        XCTAssertEqual(try calendar.events("2019-03-04", "2019-03-04", in: "Europe/Berlin").map(\.start), ["2019-03-04T00:00"])
        XCTAssertEqual(try calendar.events("2019-03-04", "2019-03-04", in: "Asia/Ho_Chi_Minh").map(\.start), ["2019-03-04T06:00"])
        XCTAssertEqual(try calendar.events("2019-03-04", "2019-03-04", in: "America/Panama").map(\.start), [])
        XCTAssertEqual(try calendar.events("2019-03-03", "2019-03-03", in: "America/Panama").map(\.start), ["2019-03-03T18:00"])
        // test_simple_recurrent_events.py: test_all_events_in_time_span — COUNT=3.
        XCTAssertEqual(try calendar.events("2000-01-01", "2000-12-31", in: "Europe/Berlin").count, 0)
        XCTAssertEqual(try calendar.events("2019-01-01", "2019-12-31", in: "Europe/Berlin").count, 3)
    }

    /// test_issue_44_day_event_reported_twice.py: the all-day event is on its day only, and the
    /// daily all-day series gives one event per day.
    func testAllDayEventsStayOnTheirDay() throws {
        let single = try TestData.recurring("issue_44_double_event")
        XCTAssertEqual(try single.events("2020-08-14", "2020-08-14", in: "Europe/Berlin").map(\.summary), ["test2"])
        XCTAssertEqual(try single.events("2020-08-13", "2020-08-13", in: "Europe/Berlin").count, 0)
        XCTAssertEqual(try single.events("2020-08-15", "2020-08-15", in: "Europe/Berlin").count, 0)
        let daily = try TestData.recurring("one_day_event_repeat_every_day")
        for offset in 0..<4 {
            let day = LocalDate(year: 2019, month: 3, day: 4 + offset)!.description
            let events = try daily.events(day, day, in: "Europe/Berlin")
            XCTAssertEqual(events.map(\.start), [day])
            XCTAssertEqual(events.first?.end, LocalDate(iso: day)!.adding(days: 1).description)
        }
    }

    /// test_deleted_entries.py: test_one_deleted_event, test_one_deleted_event_2 — EXDATE in UTC
    /// (23:30Z) removes the Berlin 00:30 occurrence of the next day.
    func testWeeklySeriesWithDeletedOccurrences() throws {
        XCTAssertEqual(try TestData.recurring("each_week_but_one_deleted").events("2019-01-01", "2019-12-31", in: "Europe/Berlin").count, 7)
        XCTAssertEqual(try TestData.recurring("each_week_but_two_deleted").events("2019-01-01", "2019-12-31", in: "Europe/Berlin").count, 6)
    }

    /// test_issue_113_period_in_rdate.py: test_start_of_rdate, test_end_of_rdate,
    /// test_rdate_with_a_period_with_duration — an RDATE PERIOD brings its own length.
    func testRdatePeriodHasItsOwnLength() throws {
        let events = try TestData.recurring("issue_113_period_in_rdate").events("2023-12-13", "2023-12-13", in: "America/Vancouver")
        XCTAssertEqual(events.map(\.start), ["2023-12-13T12:00"])
        XCTAssertEqual(events.map(\.end), ["2023-12-13T15:00"])
        let withDuration = try TestData.recurring("issue_113_period_rdate_duration").events("2024-09-13", "2024-09-13", in: "America/Vancouver")
        XCTAssertEqual(withDuration.count, 1)
        XCTAssertEqual(withDuration.first.map { $0.endInstant - $0.startInstant }, 2 * 3600)
    }

    /// test_issue_28_timezone_with_z.py: test_expected_amount_of_events, test_modification_of_event —
    /// UNTIL in UTC on all-day series, overrides whose RECURRENCE-ID names a Windows zone.
    func testOutlookSeriesWithUtcUntilAndWindowsZone() throws {
        let calendar = try TestData.recurring("issue_28_rrule_with_UTC_endinginZ")
        XCTAssertEqual(try calendar.events("2020-05-25", "2020-09-04", in: "Europe/London").count, 15)
        XCTAssertEqual(try calendar.events("2020-09-03", "2020-09-04", in: "Europe/London").count, 1)
    }

    /// test_issue_48_dst.py: test_between — 3 events between 10:00 and 15:00 Chicago time on
    /// 2020-12-11 (series started before the DST change).
    func testChicagoSeriesAfterDaylightSavingEnds() throws {
        let calendar = try TestData.recurring("issue_48_dst")
        let zone = try XCTUnwrap(CalendarZone(identifier: "America/Chicago"))
        let from = zone.instant(of: WallClock(date: LocalDate(iso: "2020-12-11")!, hour: 10, minute: 0))
        let to = zone.instant(of: WallClock(date: LocalDate(iso: "2020-12-11")!, hour: 15, minute: 0))
        let events = try calendar.events("2020-12-11", "2020-12-11", in: "America/Chicago")
        XCTAssertEqual(events.filter { $0.startInstant < to && $0.endInstant > from }.count, 3, "\(events.map(\.start))")
    }
}
