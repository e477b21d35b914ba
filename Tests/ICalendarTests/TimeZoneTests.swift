import XCTest

@testable import ICalendar

/// TZIDs as real files write them (Tests/Fixtures/ics/zones.ics), read in America/Los_Angeles.
final class TimeZoneTests: XCTestCase {
    /// Start and end of the events titled `title…` on a day in Los Angeles.
    private func starts(_ day: String, _ title: String) throws -> [String] {
        try TestData.fixture("zones.ics").events(day, day, in: "America/Los_Angeles")
            .filter { $0.summary.hasPrefix(title) }.map { "\($0.start) \($0.end)" }
    }

    func testLibicalPrefixedTzidUsesTheSystemZone() throws {
        XCTAssertEqual(try starts("2026-12-07", "Prefixed"), ["2026-12-07T09:00 2026-12-07T10:00"])  // 18:00 Berlin
    }

    func testMozillaPrefixedTzid() throws {
        // 09:00 in Tokyo on the 8th is 16:00 on the 7th in Los Angeles.
        let calendar = try TestData.fixture("zones.ics")
        let tokyo = try calendar.events("2026-12-06", "2026-12-08", in: "America/Los_Angeles").filter { $0.summary.hasPrefix("Mozilla") }
        XCTAssertEqual(tokyo.map(\.start), ["2026-12-07T16:00"])
    }

    func testPlainIanaTzidWithoutVtimezone() throws {
        XCTAssertEqual(try starts("2026-12-09", "Plain"), ["2026-12-09T09:00 2026-12-09T10:00"])
    }

    func testFloatingTimeStaysOnTheWallClock() throws {
        XCTAssertEqual(try starts("2026-12-10", "Floating"), ["2026-12-10T12:00 2026-12-10T13:00"])
        let calendar = try TestData.fixture("zones.ics")
        let inTokyo = try calendar.events("2026-12-10", "2026-12-10", in: "Asia/Tokyo").filter { $0.summary.hasPrefix("Floating") }
        XCTAssertEqual(inTokyo.map(\.start), ["2026-12-10T12:00"])
    }

    func testUtcTimeIsConverted() throws {
        XCTAssertEqual(try starts("2026-12-11", "UTC"), ["2026-12-11T09:00 2026-12-11T10:00"])
    }

    func testUnknownZoneReadsAsFloating() throws {
        XCTAssertEqual(try starts("2026-12-12", "Unknown"), ["2026-12-12T08:00 2026-12-12T09:00"])
    }

    func testUnknownReaderZoneIsAClearError() throws {
        let calendar = try TestData.fixture("zones.ics")
        XCTAssertThrowsError(try calendar.zone(preferring: "Europe/Atlantis")) { error in
            XCTAssertTrue("\(error)".contains("unknown time zone 'Europe/Atlantis'"))
        }
    }
}
