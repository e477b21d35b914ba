import Foundation
import TrailheadSchema
import TrailheadTestSupport
import XCTest

@testable import ICalendar

/// Writing planned events to a separate .ics file, read back through the same parser.
final class EventWriterTests: XCTestCase {
    private let zone = CalendarZone(identifier: "America/Los_Angeles")!

    private func drafts(_ json: String) throws -> [EventDraft] {
        let items = try XCTUnwrap(try GeneratedContent(json: json).arrayValue)
        return try items.enumerated().map { try EventDraft(content: $1, index: $0) }
    }

    func testCreatesAValidCalendarAndAppendsToIt() throws {
        let path = try Scratch.newFolder("ical", removedAfter: self) + "/trip.ics"
        let first = try EventWriter.append(
            try drafts(
                #"[{"summary":"Hike Ryan Mountain","start":"2026-12-21T08:00","end":"2026-12-21T11:00","location":"Joshua Tree","description":"Bring water"},"#
                    + #"{"summary":"Joshua Tree trip","start":"2026-12-21","end":"2026-12-23","allDay":true}]"#),
            to: path, zone: zone, protecting: [TestData.sampleCalendarPath])
        XCTAssertEqual(first.count, 2)
        _ = try EventWriter.append(
            try drafts(#"[{"summary":"Flight home","start":"2026-12-23T18:00:00Z","end":"2026-12-23T19:30Z"}]"#),
            to: path, zone: zone, protecting: [TestData.sampleCalendarPath])

        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
        for line in ["VERSION:2.0", "PRODID:-//Trailhead//Calendar 1.0//EN", "TZID:America/Los_Angeles",
            "DTSTART;TZID=America/Los_Angeles:20261221T080000", "DTSTART;VALUE=DATE:20261221", "DTEND;VALUE=DATE:20261223",
            "DTSTART:20261223T180000Z", "LOCATION:Joshua Tree", "DESCRIPTION:Bring water"]
        {
            XCTAssertTrue(text.contains("\r\n\(line)\r\n"), "missing \(line) in\n\(text)")
        }
        XCTAssertEqual(text.components(separatedBy: "BEGIN:VEVENT").count - 1, 3)
        XCTAssertEqual(text.components(separatedBy: "BEGIN:VTIMEZONE").count - 1, 1, "the zone is written once")
        XCTAssertEqual(text.components(separatedBy: "\r\nUID:").count - 1, 3)
        XCTAssertEqual(text.components(separatedBy: "\r\nDTSTAMP:").count - 1, 3)

        let written = try CalendarDocument(contentsOfFile: path)
        XCTAssertEqual(written.unreadableLineCount, 0)
        let events = written.events(in: try DateRange(start: "2026-12-21", end: "2026-12-23"), zone: zone)
        XCTAssertEqual(
            events.map { "\($0.start) \($0.end) \($0.summary)" },
            [
                "2026-12-21 2026-12-23 Joshua Tree trip",
                "2026-12-21T08:00 2026-12-21T11:00 Hike Ryan Mountain",
                "2026-12-23T10:00 2026-12-23T11:30 Flight home",
            ])
    }

    func testRefusesTheUsersOwnCalendarEvenThroughASymlink() throws {
        let folder = try Scratch.newFolder("ical", removedAfter: self)
        let calendar = folder + "/mine.ics"
        try FileManager.default.copyItem(atPath: TestData.sampleCalendarPath, toPath: calendar)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.ics", withDestinationPath: calendar)
        let before = try Data(contentsOf: URL(fileURLWithPath: calendar))
        let event = try drafts(#"[{"summary":"x","start":"2026-12-21T08:00","end":"2026-12-21T09:00"}]"#)
        for target in [calendar, folder + "/link.ics", folder + "/../" + URL(fileURLWithPath: folder).lastPathComponent + "/mine.ics"] {
            XCTAssertThrowsError(try EventWriter.append(event, to: target, zone: zone, protecting: [calendar])) { error in
                XCTAssertTrue("\(error)".contains("is the user's own calendar, which is never changed"), "\(error)")
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: calendar)), before)
    }

    func testRefusesBadEventsWithTheirIndex() throws {
        let path = try Scratch.newFolder("ical", removedAfter: self) + "/trip.ics"
        XCTAssertThrowsError(try drafts(#"[{"summary":"ok","start":"2026-12-21T08:00","end":"2026-12-21T09:00"},{"summary":"bad","start":"noon","end":"2026-12-21T09:00"}]"#)) {
            XCTAssertEqual("\($0)", "events[1].start 'noon' is not YYYY-MM-DD or YYYY-MM-DDTHH:MM")
        }
        XCTAssertThrowsError(try drafts(#"[{"summary":"mixed","start":"2026-12-21","end":"2026-12-21T09:00"}]"#))
        let backwards = try drafts(#"[{"summary":"back","start":"2026-12-21T10:00","end":"2026-12-21T09:00"}]"#)
        XCTAssertThrowsError(try EventWriter.append(backwards, to: path, zone: zone, protecting: [])) {
            XCTAssertTrue("\($0)".contains("events[0] ends (2026-12-21T09:00) before it starts (2026-12-21T10:00)"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing written on error")
        let notIcs = try drafts(#"[{"summary":"x","start":"2026-12-21","end":"2026-12-21","allDay":true}]"#)
        XCTAssertThrowsError(try EventWriter.append(notIcs, to: path + ".txt", zone: zone, protecting: []))
    }

    func testLeavesAnExistingFileThatIsNotACalendarAlone() throws {
        let path = try Scratch.newFolder("ical", removedAfter: self) + "/notes.ics"
        try "my notes".write(toFile: path, atomically: true, encoding: .utf8)
        let event = try drafts(#"[{"summary":"x","start":"2026-12-21","end":"2026-12-21","allDay":true}]"#)
        XCTAssertThrowsError(try EventWriter.append(event, to: path, zone: zone, protecting: [])) {
            XCTAssertTrue("\($0)".contains("it was left unchanged"), "\($0)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "my notes")
    }

    func testOneDayAllDayEventMayRepeatItsStartAsEnd() throws {
        let draft = try XCTUnwrap(try drafts(#"[{"summary":"Day trip","start":"2026-12-26","end":"2026-12-26","allDay":true}]"#).first)
        XCTAssertEqual(draft.end, .date(LocalDate(iso: "2026-12-27")!))
    }
}
