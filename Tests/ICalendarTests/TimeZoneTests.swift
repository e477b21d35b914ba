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

/// The reader's zone arithmetic at daylight-saving changes.
final class CalendarZoneTests: XCTestCase {
    private let losAngeles = CalendarZone(identifier: "America/Los_Angeles")!

    private func wall(_ text: String) -> WallClock {
        guard case .local(let wall) = try? EventDraft.time(text, field: "t") else { fatalError(text) }
        return wall
    }

    func testRoundTripsOrdinaryTimes() {
        for text in ["2026-12-07T09:30", "2027-07-04T23:59", "1969-12-31T16:00", "2026-03-08T03:00"] {
            let instant = losAngeles.instant(of: wall(text))
            XCTAssertEqual(losAngeles.wallClock(at: instant).description, text)
        }
        XCTAssertEqual(losAngeles.instant(of: wall("1970-01-01T00:00")), 8 * 3600)
    }

    func testSpringForwardGapResolvesAfterTheGap() {
        // 2026-03-08 02:30 does not exist in Los Angeles; 10:30 UTC is 03:30 PDT.
        XCTAssertEqual(losAngeles.wallClock(at: losAngeles.instant(of: wall("2026-03-08T02:30"))).description, "2026-03-08T03:30")
    }

    func testFallBackAmbiguityTakesTheFirstOccurrence() {
        // 2026-11-01 01:30 happens twice; the first is PDT (08:30 UTC).
        XCTAssertEqual(losAngeles.instant(of: wall("2026-11-01T01:30")) % 86_400, 8 * 3600 + 1800)
    }

    func testDayThatStartsInAGapStartsWhenTheGapEnds() throws {
        // Santiago moved clocks from 00:00 to 01:00 on 2022-09-11.
        let santiago = try XCTUnwrap(CalendarZone(identifier: "America/Santiago"))
        let start = santiago.instant(startOf: LocalDate(iso: "2022-09-11")!)
        XCTAssertEqual(santiago.wallClock(at: start).description, "2022-09-11T01:00")
    }
}
