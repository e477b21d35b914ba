import XCTest

@testable import ICalendar

/// The hangs of issue 13, reproduced: each of these never returned (or ran for minutes) inside
/// libical. Now rules are expanded by `RuleIterator` with a work budget, and zone rules are
/// checked before libical expands them; every answer comes with what it could not do.
final class HangTests: XCTestCase {
    private func calendar(_ body: String) throws -> CalendarDocument {
        try CalendarDocument.reduced(body, source: "hang.ics")
    }

    private func event(_ start: String, _ rule: String) -> String {
        "BEGIN:VEVENT\nUID:\(rule)\nDTSTART\(start)\nRRULE:\(rule)\nSUMMARY:\(rule)\nEND:VEVENT"
    }

    private func expand(_ document: CalendarDocument, _ start: String, _ end: String) throws -> CalendarDocument.Expansion {
        document.expand(in: try DateRange(start: start, end: end), zone: try XCTUnwrap(CalendarZone(identifier: "UTC")))
    }

    /// A rule repeating within a day on an all-day start: each day holding a match is an
    /// occurrence (the hour 01:00–01:59 is on every day), once.
    func testSubDailyRulesOnADateStart() throws {
        for rule in ["FREQ=MINUTELY;BYHOUR=1", "FREQ=SECONDLY;BYMINUTE=59"] {
            let document = try calendar(event(";VALUE=DATE:20261207", rule))
            let expansion = try expand(document, "2026-12-05", "2026-12-11")
            XCTAssertEqual(expansion.events.map(\.start), (7...11).map { "2026-12-\($0 < 10 ? "0" : "")\($0)" }, rule)
            XCTAssertEqual(expansion.notes, [], rule)
        }
    }

    /// BYSECOND=60 (a leap second, legal) never occurs on these wall clocks: DTSTART only.
    func testLeapSecondRuleGivesOnlyItsStart() throws {
        let document = try calendar(event(":20261207T090000Z", "FREQ=SECONDLY;BYSECOND=60"))
        XCTAssertEqual(try expand(document, "2026-12-01", "2026-12-31").events.map(\.start), ["2026-12-07T09:00"])
    }

    /// COUNT=100000000 every minute of 03:00: counted from 2020, 60 a day, far from the count.
    func testHugeCountWithAnHourFilter() throws {
        let document = try calendar(event(":20200101T000000Z", "FREQ=MINUTELY;BYHOUR=3;COUNT=100000000"))
        let expansion = try expand(document, "2026-12-07", "2026-12-07")
        XCTAssertEqual(expansion.events.count, 60)
        XCTAssertEqual(expansion.events.first?.start, "2026-12-07T03:00")
        XCTAssertEqual(expansion.events.last?.start, "2026-12-07T03:59")
        XCTAssertEqual(expansion.notes, [])
    }

    /// Every second of every day of a period: a year of them is 31.6 M occurrences, which were
    /// built as one list (minutes, gigabytes) before the work budget was looked at. BYSETPOS=-1
    /// picks the last of each year, 31 Dec 23:59:59; without it each day is full (100 listed, a
    /// note); a COUNT of three days and ten seconds from 1 Dec leaves the 4th busy, the 5th free.
    func testEverySecondOfAPeriodIsNotBuiltAsAList() throws {
        func list(_ values: ClosedRange<Int>) -> String { values.map(String.init).joined(separator: ",") }
        let everySecond = "BYHOUR=\(list(0...23));BYMINUTE=\(list(0...59));BYSECOND=\(list(0...59))"
        let everyDay = "BYYEARDAY=\(list(1...366))"
        let lastOfYear = try calendar(event(":20200101T000000Z", "FREQ=YEARLY;\(everyDay);\(everySecond);BYSETPOS=-1"))
        let years = try expand(lastOfYear, "2026-06-01", "2027-05-31")
        XCTAssertEqual(years.events.map(\.start), ["2026-12-31T23:59"])
        XCTAssertEqual(years.notes, [])

        let everySecondOfTheYear = try calendar(event(":20200101T000000Z", "FREQ=YEARLY;\(everyDay);\(everySecond)"))
        let full = try expand(everySecondOfTheYear, "2026-12-07", "2026-12-08")
        XCTAssertEqual(full.events.count, 200)
        XCTAssertEqual(full.notes.count, 1)
        XCTAssertTrue(full.notes.first?.contains("more than 100 occurrences a day") == true, "\(full.notes)")

        let counted = try calendar(event(":20261201T000000Z", "FREQ=DAILY;\(everySecond);COUNT=\(3 * 86_400 + 10)"))
        XCTAssertEqual(
            try counted.busyDays("2026-11-30", "2026-12-06", in: "UTC"), ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04"])
        XCTAssertEqual(try expand(counted, "2026-12-04", "2026-12-06").events.count, 10)
    }

    /// A sub-daily and a never-matching rule inside a VTIMEZONE, with a DTEND read in that zone
    /// while the file opens: the rules are ignored with a note and the zone's offset (+01:00) used.
    func testRulesInsideATimeZoneAreCheckedFirst() throws {
        for rule in ["FREQ=SECONDLY", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MINUTELY;BYHOUR=1"] {
            let document = try calendar("""
                BEGIN:VTIMEZONE
                TZID:Odd
                BEGIN:STANDARD
                DTSTART:19700101T000000
                TZOFFSETFROM:+0100
                TZOFFSETTO:+0100
                RRULE:\(rule)
                END:STANDARD
                END:VTIMEZONE
                BEGIN:VEVENT
                UID:in-odd-zone
                DTSTART;TZID=Odd:20261207T090000
                DTEND;TZID=Odd:20261207T100000
                SUMMARY:Meeting
                END:VEVENT
                """)
            let expansion = try expand(document, "2026-12-07", "2026-12-07")
            XCTAssertEqual(expansion.events.map(\.start), ["2026-12-07T08:00"], rule)
            XCTAssertEqual(expansion.notes.count, 1, rule)
            let note = expansion.notes.first ?? ""
            XCTAssertTrue(note.hasPrefix("time zone 'Odd': its rule FREQ=") && note.contains("was ignored"), note)
        }
    }

    /// Every FREQ with every kind of BY part (values that match often, rarely, never, or are
    /// out of range), on a DATE from 1900 and a zoned time in 2026 (floating and UTC starts take
    /// the same path as zoned ones), with and without COUNT: each answers, and a cut-short
    /// answer says so.
    func testEveryFrequencyAndFilterOnEveryStartAnswers() throws {
        let frequencies = ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"]
        let parts = [
            "", "BYSECOND=60", "BYSECOND=0,30", "BYMINUTE=59", "BYHOUR=1", "BYHOUR=23;BYMINUTE=59;BYSECOND=59",
            "BYDAY=MO", "BYDAY=1MO", "BYDAY=-1SU", "BYMONTHDAY=31", "BYMONTHDAY=-1", "BYMONTH=2;BYMONTHDAY=30",
            "BYYEARDAY=366", "BYYEARDAY=-366", "BYWEEKNO=53", "BYWEEKNO=-1;BYDAY=MO", "BYSETPOS=-1;BYDAY=MO,TU",
            "BYMONTH=2;BYDAY=5MO", "BYSETPOS=366;BYMONTHDAY=1", "INTERVAL=7;BYHOUR=3", "WKST=SU;BYDAY=SU,MO",
        ]
        let starts = [";VALUE=DATE:19000101", ";TZID=Europe/Berlin:20261201T090000"]
        var answered = 0
        var noted = 0
        var slowest = (0.0, "")
        for frequency in frequencies {
            for part in parts {
                for count in ["", ";COUNT=100000000"] {
                    let rule = "FREQ=\(frequency)" + (part.isEmpty ? "" : ";" + part) + count
                    let document = try calendar(starts.enumerated().map { event($1, rule).replacingOccurrences(of: "UID:", with: "UID:\($0)-") }.joined(separator: "\n"))
                    let started = Date()
                    let expansion = try expand(document, "2026-12-01", "2027-01-11")
                    let elapsed = Date().timeIntervalSince(started)
                    if elapsed > slowest.0 { slowest = (elapsed, rule) }
                    answered += 1
                    noted += expansion.notes.isEmpty ? 0 : 1
                    for note in expansion.notes { XCTAssertTrue(note.contains(frequency), note) }
                }
            }
        }
        XCTAssertEqual(answered, frequencies.count * parts.count * 2)
        print("rule combinations: \(answered) answered, \(noted) with a note; slowest \(slowest)")
    }
}
