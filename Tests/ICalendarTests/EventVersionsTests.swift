import XCTest

@testable import ICalendar

/// Which version of an event counts when a file holds several with one UID (RFC 5545 §3.8.7.4
/// SEQUENCE, §3.8.4.4 RECURRENCE-ID), each on a reduced calendar whose expected days are worked
/// out from the RFC (the comment beside each says how), not copied from a library.
final class EventVersionsTests: XCTestCase {
    /// A series revised to SEQUENCE 2: all-day, every Monday from 7 Dec, `UNTIL=20261220`, so its
    /// recurrence set is 7 and 14 Dec (§3.8.5.3: no instance after UNTIL).
    private let revisedSeries = """
        BEGIN:VEVENT
        UID:course
        SEQUENCE:2
        DTSTART;VALUE=DATE:20261207
        RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20261220
        SUMMARY:Course
        END:VEVENT
        """

    private func override(sequence: Int, of instance: String, movedTo day: String) -> String {
        """
        BEGIN:VEVENT
        UID:course
        SEQUENCE:\(sequence)
        RECURRENCE-ID;VALUE=DATE:\(instance)
        DTSTART;VALUE=DATE:\(day)
        RRULE:FREQ=WEEKLY;BYDAY=MO
        SUMMARY:Course moved
        END:VEVENT
        """
    }

    /// recurring-ical-events issue 253, reduced: an override of SEQUENCE 1 moved the 21 Dec
    /// instance of the series' version 1 to the 22nd. Version 2 ends on the 20th and has no 21 Dec
    /// instance: the override modifies an instance of a recurrence set that is gone (§3.8.4.4),
    /// and it is older than the series (§3.8.7.4), so it is not an event: 7 and 14 Dec are busy,
    /// the 22nd is free.
    func testOlderOverrideOfAnInstanceTheRevisedSeriesNoLongerHasIsGone() throws {
        let stale = override(sequence: 1, of: "20261221", movedTo: "20261222")
        let document = try CalendarDocument.reduced(revisedSeries + "\n" + stale)
        XCTAssertEqual(try document.busyDays("2026-12-01", "2026-12-31", in: "Europe/Berlin"), ["2026-12-07", "2026-12-14"])
    }

    /// The override of SEQUENCE 1 names 14 Dec, an instance version 2 still has: the series was
    /// revised after the 14th was moved, and the move stands (7 and 15 Dec busy, the 14th free).
    /// An override as new as its series (SEQUENCE 2) is kept even where no rule instance falls:
    /// the 21st, moved to the 23rd, is busy.
    func testOverridesOfInstancesThatExistOrAsNewAsTheSeriesStand() throws {
        let document = try CalendarDocument.reduced(
            [revisedSeries, override(sequence: 1, of: "20261214", movedTo: "20261215"),
                override(sequence: 2, of: "20261221", movedTo: "20261223")].joined(separator: "\n"))
        XCTAssertEqual(
            try document.busyDays("2026-12-01", "2026-12-31", in: "Europe/Berlin"),
            ["2026-12-07", "2026-12-15", "2026-12-23"])
    }

    /// A series whose rule cannot be expanded as far as an older override's RECURRENCE-ID within
    /// one answer's work (every 30 s from 1900 with a COUNT, stepped through) cannot tell whether
    /// the instance still exists: the override stands, so its day is busy rather than wrongly
    /// free, and the answer says the rule was cut short. 1,000 such overrides cost one expansion.
    func testOlderOverridesStandWhenTheSeriesCannotBeExpandedThatFar() throws {
        let series = """
            BEGIN:VEVENT
            UID:sensor
            SEQUENCE:2
            DTSTART:19000101T000000Z
            RRULE:FREQ=SECONDLY;BYSECOND=0,30;COUNT=100000000
            SUMMARY:Sensor
            END:VEVENT
            """
        let overrides = (0..<1_000).map { index in
            let day = LocalDate(year: 2026, month: 12, day: 7)!.adding(days: -index).basicForm
            return "BEGIN:VEVENT\nUID:sensor\nSEQUENCE:1\nRECURRENCE-ID:\(day)T000000Z\nDTSTART:\(day)T090000Z\n"
                + "SUMMARY:Sensor moved\nEND:VEVENT"
        }
        let document = try CalendarDocument.reduced(([series] + overrides).joined(separator: "\n"))
        let zone = try XCTUnwrap(CalendarZone(identifier: "UTC"))
        let expansion = document.expand(in: try DateRange(start: "2026-12-07", end: "2026-12-07"), zone: zone)
        XCTAssertEqual(expansion.events.map(\.start), ["2026-12-07T09:00"])
        XCTAssertEqual(expansion.notes.count, 1)
        let cutShort = expansion.notes.first?.contains("needs more work than one answer allows") == true
        XCTAssertTrue(cutShort, "\(expansion.notes)")
    }

    /// icalendar's tutorial example, reduced: two events share a UID, neither a RECURRENCE-ID, with
    /// the same SEQUENCE (0) and DTSTAMP. §3.8.7.4 makes the higher SEQUENCE the newer version
    /// (RFC 5546 §2.1.5 then the later DTSTAMP); here nothing makes either one newer, so both
    /// stand: the 21st and the 28th are busy, whichever comes first in the file.
    func testEventsSharingAUidWithNoNewerVersionAreAllBusy() throws {
        let pickUp = "BEGIN:VEVENT\nUID:same\nDTSTAMP:20250517T080612Z\nDTSTART:20260321T063000Z\nDTEND:20260321T073000Z\n"
            + "SUMMARY:Pick up bicycle\nEND:VEVENT"
        let ride = "BEGIN:VEVENT\nUID:same\nDTSTAMP:20250517T080612Z\nDTSTART:20260328T070000Z\nDTEND:20260328T133000Z\n"
            + "SUMMARY:Morning ride\nEND:VEVENT"
        for body in [pickUp + "\n" + ride, ride + "\n" + pickUp] {
            let document = try CalendarDocument.reduced(body)
            XCTAssertEqual(try document.busyDays("2026-03-16", "2026-03-31", in: "UTC"), ["2026-03-21", "2026-03-28"])
        }
    }
}
