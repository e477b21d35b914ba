import Foundation
import XCTest

@testable import ICalendar

/// Where the sdists' test data lives: $TRAILHEAD_TEST_DATA, else ~/.cache/trailhead/testdata.
/// A missing folder fails the test with a message saying how to get it; it never skips.
enum TestData {
    static var root: String {
        if let explicit = ProcessInfo.processInfo.environment["TRAILHEAD_TEST_DATA"], !explicit.isEmpty {
            return explicit
        }
        return NSHomeDirectory() + "/.cache/trailhead/testdata"
    }

    /// recurring-ical-events' own calendars (recurring_ical_events/test/calendars).
    static var recurringCalendars: String { root + "/recurring-ical-events/recurring_ical_events/test/calendars" }

    static func folder(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = root + "/" + relative
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            XCTFail(
                "test data missing: \(path). Run Scripts/ setup (make testdata) or set TRAILHEAD_TEST_DATA.",
                file: file, line: line)
            throw CalendarError("missing \(path)")
        }
        return path
    }

    /// A calendar from recurring-ical-events' test suite, parsed.
    static func recurring(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> CalendarDocument {
        _ = try folder("recurring-ical-events", file: file, line: line)
        return try CalendarDocument(contentsOfFile: recurringCalendars + "/" + name + ".ics")
    }

    /// Every `.ics` file below a folder, sorted.
    static func icsFiles(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".ics") }.sorted()
            .map { folder + "/" + $0 }
    }

    /// The repository's root, found from this file (Tests/ICalendarTests/TestData.swift).
    static var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}

extension CalendarDocument {
    /// A small calendar written in a test: `body` (VEVENTs, one line per property) inside a
    /// VCALENDAR, with `header` lines before it and CRLF line ends.
    static func reduced(_ body: String, header: String = "", source: String = "reduced.ics") throws -> CalendarDocument {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Trailhead//Tests//EN\r\n\(header)"
            + body.split(separator: "\n").map { $0 + "\r\n" }.joined() + "END:VCALENDAR\r\n"
        return try CalendarDocument(text: text, source: source)
    }

    /// Events in an inclusive day range given as text, read in a named zone.
    func events(_ start: String, _ end: String, in zone: String) throws -> [CalendarEvent] {
        guard let calendarZone = CalendarZone(identifier: zone) else { throw CalendarError("zone \(zone)") }
        return events(in: try DateRange(start: start, end: end), zone: calendarZone)
    }

    /// The busy days (YYYY-MM-DD) of an inclusive day range, read in a named zone.
    func busyDays(_ start: String, _ end: String, in zone: String) throws -> [String] {
        let range = try DateRange(start: start, end: end)
        return DayAvailability(range: range, events: try events(start, end, in: zone)).busyDays.map(\.date.description)
    }
}

extension TestData {
    /// A calendar from Tests/Fixtures/ics.
    static func fixture(_ name: String) throws -> CalendarDocument {
        try CalendarDocument(contentsOfFile: fixturePath(name))
    }

    static func fixturePath(_ name: String) -> String { repository + "/Tests/Fixtures/ics/" + name }

    static var sampleCalendarPath: String { repository + "/Data/sample/calendar.ics" }

    /// A fresh temporary folder, removed when the test ends.
    static func temporaryFolder(for test: XCTestCase) throws -> String {
        let path = NSTemporaryDirectory() + "ical-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}
