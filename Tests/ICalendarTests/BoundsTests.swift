import Foundation
import TrailheadTestSupport
import XCTest

@testable import ICalendar

/// Bad input is a clear error, never a crash, and never unbounded work or memory.
final class BoundsTests: XCTestCase {
    func testReversedRangeIsRefused() {
        XCTAssertThrowsError(try DateRange(start: "2026-12-10", end: "2026-12-01")) { error in
            XCTAssertEqual(
                "\(error)", "the range is reversed: start 2026-12-10 is after end 2026-12-01; give start <= end")
        }
    }

    func testRangeOver366DaysIsRefused() throws {
        XCTAssertThrowsError(try DateRange(start: "2026-01-01", end: "2027-02-04")) { error in
            XCTAssertTrue("\(error)".contains("covers 400 days; at most 366"), "\(error)")
        }
        XCTAssertEqual(try DateRange(start: "2028-01-01", end: "2028-12-31").dayCount, 366)
    }

    func testMalformedDatesAreRefused() {
        for (start, end) in [("2026-02-30", "2026-03-01"), ("tomorrow", "2026-03-01"), ("2026-03-01", "2026-3-2")] {
            XCTAssertThrowsError(try DateRange(start: start, end: end)) { error in
                XCTAssertTrue("\(error)".contains("is not a date of the form YYYY-MM-DD"), "\(error)")
            }
        }
    }

    func testTextThatIsNotACalendarIsRefused() {
        XCTAssertThrowsError(try TestData.fixture("not-a-calendar.ics")) { error in
            XCTAssertTrue("\(error)".contains("is not an iCalendar file: it does not begin with BEGIN:VCALENDAR"))
        }
        XCTAssertThrowsError(try CalendarDocument(text: "\u{0}\u{1}\u{2}binary", source: "bytes"))
    }

    func testTruncatedCalendarIsRefused() {
        XCTAssertThrowsError(try TestData.fixture("truncated.ics")) { error in
            XCTAssertTrue("\(error)".contains("truncated or malformed (no END:VCALENDAR)"), "\(error)")
        }
    }

    func testMissingFileIsAClearError() {
        XCTAssertThrowsError(try CalendarDocument(contentsOfFile: "/nonexistent/calendar.ics")) { error in
            XCTAssertEqual("\(error)", "cannot read calendar '/nonexistent/calendar.ics': No such file or directory")
        }
    }

    /// A 51 MB calendar (written at test time) is refused from its size alone, before reading.
    func testOversizedFileIsRefusedBeforeReading() throws {
        let path = try Scratch.newFolder("ical", removedAfter: self) + "/huge.ics"
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        var block = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        var index = 0
        while block.utf8.count < 1 << 20 {
            block += "BEGIN:VEVENT\r\nUID:e\(index)@big\r\nDTSTART:20261207T090000Z\r\nSUMMARY:Filler\r\nEND:VEVENT\r\n"
            index += 1
        }
        let data = Data(block.utf8)
        for _ in 0..<51 { handle.write(data) }
        try handle.close()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertGreaterThan(size, 50 * 1024 * 1024)
        XCTAssertThrowsError(try CalendarDocument(contentsOfFile: path)) { error in
            XCTAssertTrue("\(error)".contains("files over 50.0 MB are refused"), "\(error)")
        }
    }

    /// Unbounded rules (every minute since 1990, every day since 1900, COUNT of a hundred
    /// million seconds) expand only as far as the range needs, and exactly.
    func testUnboundedRulesAreBoundedByTheRange() throws {
        let calendar = try TestData.fixture("unbounded.ics")
        let zone = try XCTUnwrap(CalendarZone(identifier: "UTC"))
        let expansion = calendar.expand(in: try DateRange(start: "2026-12-07", end: "2026-12-07"), zone: zone)
        let events = expansion.events
        // Every minute of the day is busy; the first 100 are listed, and a note says so.
        XCTAssertEqual(events.filter { $0.summary == "Every minute since 1990" }.count, 100)
        XCTAssertEqual(events.filter { $0.summary == "Every day since 1900" }.map(\.start), ["2026-12-07"])
        // 10^8 seconds from 2000-01-01 end on 2003-03-03 (1,157.4 days): none in 2026, and the
        // count is reached by counting whole days, not cut by a step limit.
        XCTAssertEqual(events.filter { $0.summary == "A hundred million seconds" }.count, 0)
        let end = try calendar.events("2003-03-03", "2003-03-03", in: "UTC").filter { $0.summary == "A hundred million seconds" }
        // Its last day runs to 09:46:39: 35,200 occurrences, of which 100 are listed.
        XCTAssertEqual(end.count, 100)
        // Rules that never match (February 30th, April 31st) end at once.
        XCTAssertFalse(events.contains { $0.summary.hasPrefix("Every second of") || $0.summary.hasPrefix("Every hour of") })
        XCTAssertFalse(events.contains { $0.summary == "Every April 31st" })
        XCTAssertEqual(expansion.notes.count, 1)
        XCTAssertTrue(expansion.notes[0].hasPrefix("'Every minute since 1990': more than 100 occurrences a day"), "\(expansion.notes)")
    }
}

extension BoundsTests {
    /// A week with 700 events still gives a bounded answer: 500 listed, the rest counted.
    func testHugeAnswersAreCappedAndSaySo() throws {
        let calendar = try TestData.fixture("unbounded.ics")
        let zone = try XCTUnwrap(CalendarZone(identifier: "UTC"))
        let range = try DateRange(start: "2026-12-07", end: "2026-12-13")
        let events = calendar.events(in: range, zone: zone)
        let report = CalendarReport.events(events, zone: zone)
        XCTAssertEqual(report.events.count, CalendarReport.maximumEvents)
        XCTAssertEqual(report.omitted, events.count - CalendarReport.maximumEvents)
        let small = CalendarReport.events(Array(events.prefix(3)), zone: zone)
        XCTAssertNil(try small.generatedContent()["omitted"], "present only when something was left out")
    }
}

extension BoundsTests {
    /// A million nested components (14 MB) would overflow the stack inside libical's recursive
    /// free: refused before parsing.
    func testDeeplyNestedComponentsAreRefused() {
        let depth = 1_000_000
        let text = "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:VEVENT\r\n", count: depth)
            + String(repeating: "END:VEVENT\r\n", count: depth) + "END:VCALENDAR\r\n"
        XCTAssertThrowsError(try CalendarDocument(text: text, source: "nested.ics")) { error in
            XCTAssertEqual("\(error)", "'nested.ics' nests components more than 32 deep (line 33); refused")
        }
    }
}
