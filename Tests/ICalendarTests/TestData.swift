import Foundation
import TrailheadTestSupport
import XCTest

@testable import ICalendar

/// The sdists' calendars (in the test data, see `TrailheadCache.testData`) and ours.
enum TestData {
    /// recurring-ical-events' own calendars (recurring_ical_events/test/calendars).
    static var recurringCalendars: String { TrailheadCache.testData + "/recurring-ical-events/recurring_ical_events/test/calendars" }

    /// A calendar from recurring-ical-events' test suite, parsed.
    static func recurring(_ name: String) throws -> CalendarDocument {
        _ = try TrailheadCache.testData("recurring-ical-events")
        return try CalendarDocument(contentsOfFile: recurringCalendars + "/" + name + ".ics")
    }

    /// Every `.ics` file below a folder, sorted.
    static func icsFiles(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".ics") }.sorted()
            .map { folder + "/" + $0 }
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

    static func fixturePath(_ name: String) -> String { Checkout.path("Tests/Fixtures/ics/" + name) }

    static var sampleCalendarPath: String { Checkout.path("Data/sample/calendar.ics") }
}
