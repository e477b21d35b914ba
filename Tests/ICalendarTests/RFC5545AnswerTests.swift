import XCTest

@testable import ICalendar

/// The wrong answers of issue 13, each on a reduced calendar whose expected days are worked out
/// from RFC 5545 (the comment beside each says how), not copied from a library.
final class RFC5545AnswerTests: XCTestCase {
    /// §3.8.4.4: an override is the one instance its RECURRENCE-ID names. Weekly COUNT=3 from
    /// Monday 7 Dec gives 7, 14, 21 Dec; the 14th moves to the 15th. An RRULE copied into the
    /// override must not start a series of its own (it used to add 22 and 29 Dec).
    func testOverrideWithACopiedRuleIsOneInstance() throws {
        let document = try CalendarDocument.reduced("""
            BEGIN:VEVENT
            UID:copied
            DTSTART:20261207T090000
            DTEND:20261207T100000
            RRULE:FREQ=WEEKLY;COUNT=3
            SUMMARY:Class
            END:VEVENT
            BEGIN:VEVENT
            UID:copied
            RECURRENCE-ID:20261214T090000
            DTSTART:20261215T090000
            DTEND:20261215T100000
            RRULE:FREQ=WEEKLY;COUNT=3
            SUMMARY:Class moved
            END:VEVENT
            """)
        XCTAssertEqual(try document.busyDays("2026-12-01", "2027-01-31", in: "UTC"), ["2026-12-07", "2026-12-15", "2026-12-21"])
    }

    /// §3.8.4.4 RANGE=THISANDFUTURE: the override changes its instance and every later one. Weekly
    /// Mondays 7…28 Dec; from the 14th on they move one day later and take the new summary.
    func testThisAndFutureMovesEveryLaterOccurrence() throws {
        let document = try CalendarDocument.reduced("""
            BEGIN:VEVENT
            UID:future
            DTSTART;TZID=Europe/Berlin:20261207T090000
            DTEND;TZID=Europe/Berlin:20261207T100000
            RRULE:FREQ=WEEKLY;COUNT=4
            SUMMARY:Standup
            END:VEVENT
            BEGIN:VEVENT
            UID:future
            RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20261214T090000
            DTSTART;TZID=Europe/Berlin:20261215T093000
            DTEND;TZID=Europe/Berlin:20261215T100000
            SUMMARY:Standup on Tuesdays
            END:VEVENT
            """)
        let events = try document.events("2026-12-01", "2026-12-31", in: "Europe/Berlin")
        XCTAssertEqual(events.map(\.start), ["2026-12-07T09:00", "2026-12-15T09:30", "2026-12-22T09:30", "2026-12-29T09:30"])
        XCTAssertEqual(events.map(\.end), ["2026-12-07T10:00", "2026-12-15T10:00", "2026-12-22T10:00", "2026-12-29T10:00"])
        XCTAssertEqual(events.map(\.summary), ["Standup"] + Array(repeating: "Standup on Tuesdays", count: 3))
    }

    /// §3.8.7.4 SEQUENCE: of two versions of one series the higher SEQUENCE is the event. Daily
    /// all-day COUNT=5 from 7 Dec; version 1 deletes the 9th: 7, 8, 10, 11 busy, the 9th free.
    func testHigherSequenceReplacesTheOlderVersion() throws {
        let document = try CalendarDocument.reduced("""
            BEGIN:VEVENT
            UID:edited
            SEQUENCE:0
            DTSTART;VALUE=DATE:20261207
            RRULE:FREQ=DAILY;COUNT=5
            SUMMARY:Course
            END:VEVENT
            BEGIN:VEVENT
            UID:edited
            SEQUENCE:1
            DTSTART;VALUE=DATE:20261207
            RRULE:FREQ=DAILY;COUNT=5
            EXDATE;VALUE=DATE:20261209
            SUMMARY:Course
            END:VEVENT
            """)
        XCTAssertEqual(try document.busyDays("2026-12-01", "2026-12-31", in: "UTC"), ["2026-12-07", "2026-12-08", "2026-12-10", "2026-12-11"])
    }

    /// §3.8.4.4: RECURRENCE-ID names the original instance; its value type and zone may differ
    /// from DTSTART's (Outlook: `TZID=…:T000000` for an all-day series). All-day weekly 7, 14,
    /// 21 Dec with the 14th moved to the 16th; and a Berlin series whose override names 10:00
    /// Berlin as 09:00Z.
    func testRecurrenceIdOfAnotherTypeOrZoneMatches() throws {
        let document = try CalendarDocument.reduced("""
            BEGIN:VEVENT
            UID:allday
            DTSTART;VALUE=DATE:20261207
            RRULE:FREQ=WEEKLY;COUNT=3
            SUMMARY:Day off
            END:VEVENT
            BEGIN:VEVENT
            UID:allday
            RECURRENCE-ID;TZID=W. Europe Standard Time:20261214T000000
            DTSTART;VALUE=DATE:20261216
            SUMMARY:Day off moved
            END:VEVENT
            BEGIN:VEVENT
            UID:zoned
            DTSTART;TZID=Europe/Berlin:20270104T100000
            DTEND;TZID=Europe/Berlin:20270104T110000
            RRULE:FREQ=WEEKLY;COUNT=3
            SUMMARY:Review
            END:VEVENT
            BEGIN:VEVENT
            UID:zoned
            RECURRENCE-ID:20270111T090000Z
            DTSTART;TZID=Europe/Berlin:20270112T100000
            DTEND;TZID=Europe/Berlin:20270112T110000
            SUMMARY:Review moved
            END:VEVENT
            """)
        XCTAssertEqual(try document.busyDays("2026-12-01", "2026-12-31", in: "Europe/Berlin"), ["2026-12-07", "2026-12-16", "2026-12-21"])
        XCTAssertEqual(try document.busyDays("2027-01-01", "2027-01-31", in: "Europe/Berlin"), ["2027-01-04", "2027-01-12", "2027-01-18"])
    }

    /// Apple's `X-WR-TIMEZONE;VALUE=TEXT:Asia/Tokyo` is the calendar's zone: 20:00Z on the 7th is
    /// 05:00 on the 8th in Tokyo (UTC+9), so the 8th is busy and the 7th free.
    func testAppleTextValuedCalendarZone() throws {
        let document = try CalendarDocument.reduced("""
            BEGIN:VEVENT
            UID:tokyo
            DTSTART:20261207T200000Z
            DTEND:20261207T210000Z
            SUMMARY:Call
            END:VEVENT
            """, header: "X-WR-TIMEZONE;VALUE=TEXT:Asia/Tokyo\r\n")
        let zone = try document.zone()
        XCTAssertEqual(zone.identifier, "Asia/Tokyo")
        XCTAssertEqual(try document.busyDays("2026-12-07", "2026-12-08", in: zone.identifier), ["2026-12-08"])
    }

    /// A Windows zone name without a VTIMEZONE is that zone (CLDR: Pacific Standard Time is
    /// America/Los_Angeles, UTC-8 in December): 09:00 there is 17:00Z, not 09:00 floating.
    func testWindowsZoneNameIsItsIanaZone() throws {
        let document = try CalendarDocument.reduced("""
            BEGIN:VEVENT
            UID:windows
            DTSTART;TZID=Pacific Standard Time:20261207T090000
            DTEND;TZID=Pacific Standard Time:20261207T100000
            SUMMARY:Sync
            END:VEVENT
            """)
        XCTAssertEqual(try document.events("2026-12-07", "2026-12-07", in: "UTC").map(\.start), ["2026-12-07T17:00"])
        XCTAssertEqual(CalendarZone(identifier: "W. Europe Standard Time")?.identifier, "Europe/Berlin")
    }

    /// §3.3.10 COUNT: FREQ=SECONDLY;COUNT=1000000 from 1 Dec 00:00Z lasts 1,000,000 s = 11 days
    /// 13:46:40, so every day from the 1st to the 12th is busy and the 13th is free — not 3 busy
    /// days and the rest free, as a step cap gave.
    func testLongCountIsNotCutSilently() throws {
        let document = try CalendarDocument.reduced("""
            BEGIN:VEVENT
            UID:count
            DTSTART:20261201T000000Z
            RRULE:FREQ=SECONDLY;COUNT=1000000
            SUMMARY:Sensor
            END:VEVENT
            """)
        let expected = (1...12).map { String(format: "2026-12-%02d", $0) }
        XCTAssertEqual(try document.busyDays("2026-12-01", "2026-12-20", in: "UTC"), expected)
        let zone = try XCTUnwrap(CalendarZone(identifier: "UTC"))
        let lastDay = document.expand(in: try DateRange(start: "2026-12-12", end: "2026-12-12"), zone: zone)
        XCTAssertEqual(lastDay.events.last?.start, "2026-12-12T00:01")  // 100 listed: 00:00:00 to 00:01:39
        XCTAssertEqual(lastDay.notes.count, 1)
        XCTAssertTrue(lastDay.notes[0].hasPrefix("'Sensor': more than 100 occurrences a day on "), lastDay.notes[0])
    }

    /// The tools promise YYYY-MM-DDTHH:MM: an event at 17:00:25 starts at 17:00.
    func testTimesHaveNoSeconds() throws {
        let document = try CalendarDocument.reduced("""
            BEGIN:VEVENT
            UID:seconds
            DTSTART:20190117T170025Z
            DTEND:20190117T180025Z
            SUMMARY:Odd seconds
            END:VEVENT
            """)
        let events = try document.events("2019-01-17", "2019-01-17", in: "UTC")
        XCTAssertEqual(events.map(\.start), ["2019-01-17T17:00"])
        XCTAssertEqual(events.map(\.end), ["2019-01-17T18:00"])
    }
}
