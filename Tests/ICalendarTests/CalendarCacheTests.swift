import Foundation
import TrailheadTestSupport
import XCTest

@testable import ICalendar

final class CalendarCacheTests: XCTestCase {
    func testSameFileIsParsedOnceAndReloadedWhenItChanges() throws {
        let path = try Scratch.newFolder("ical", removedAfter: self) + "/calendar.ics"
        let original = try String(contentsOfFile: TestData.fixturePath("days.ics"), encoding: .utf8)
        try original.write(toFile: path, atomically: true, encoding: .utf8)
        let cache = CalendarCache()
        let first = try cache.document(at: path)
        XCTAssertTrue(first === (try cache.document(at: path)), "unchanged file: same parsed calendar")

        let changed = original.replacingOccurrences(of: "SUMMARY:Late party", with: "SUMMARY:Later party")
        try changed.write(toFile: path, atomically: true, encoding: .utf8)
        let second = try cache.document(at: path)
        XCTAssertFalse(first === second, "changed file: parsed again")
        XCTAssertEqual(try second.events("2027-01-05", "2027-01-05", in: "Europe/Berlin").map(\.summary), ["Later party"])
    }
}
