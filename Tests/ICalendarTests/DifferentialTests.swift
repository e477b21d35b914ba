import Foundation
import TrailheadSupport
import TrailheadTestSupport
import XCTest

@testable import ICalendar

/// Our busy days against python's icalendar + recurring-ical-events, on every .ics of their
/// sdists and of our fixtures, over 42-day windows (Scripts/differential-reference.py says how
/// the reference side reads them). Every disagreement must be listed, with its reason, in
/// docs/deliberate-differences.md; a new one fails the test and is printed.
final class DifferentialTests: XCTestCase {
    private let notACalendar = "(any file) not beginning with BEGIN:VCALENDAR"

    func testBusyDaysAgreeWithRecurringIcalEvents() throws {
        var files: [(name: String, path: String)] = []
        for sdist in ["icalendar", "recurring-ical-events"] {
            let folder = try TrailheadCache.testData(sdist)
            files += TestData.icsFiles(under: folder).map { ("\(sdist)\($0.dropFirst(folder.count))", $0) }
        }
        files += TestData.icsFiles(under: Checkout.root + "/Tests/Fixtures/ics").map {
            ("fixtures/\(URL(fileURLWithPath: $0).lastPathComponent)", $0)
        }
        let reference = try Reference.run("ics", files.map(\.path))
        let listed = try Reference.deliberateDifferences()
        var agreements = 0
        var deliberate = 0
        var refusedByReference = 0
        var refusedByUs = 0
        var undeclared: [String] = []
        for (name, path) in files {
            let theirs = try XCTUnwrap(reference[path], name)
            if theirs["error"] != nil {
                refusedByReference += 1
                continue
            }
            let document: CalendarDocument
            do {
                document = try CalendarDocument(contentsOfFile: path)
            } catch {
                refusedByUs += 1
                // Bare components (a VEVENT, a VTIMEZONE) are not calendar files: one entry covers them.
                let key = error.message.contains("does not begin with BEGIN:VCALENDAR") ? notACalendar : name
                if listed[key] == nil { undeclared.append("\(name): we refuse it (\(error.message)), the reference reads it") }
                continue
            }
            let zone = try XCTUnwrap(CalendarZone(identifier: theirs["zone"] as? String ?? "Europe/Berlin"))
            for window in theirs["windows"] as? [[String: Any]] ?? [] {
                let start = try XCTUnwrap(LocalDate(iso: window["start"] as? String ?? ""))
                let range = try DateRange(start: start, end: start.adding(days: 41))
                let ours = DayAvailability(range: range, events: document.events(in: range, zone: zone)).busyDays.map(\.date.description)
                let expected = window["busy"] as? [String] ?? []
                if ours == expected {
                    agreements += 1
                    continue
                }
                let key = "\(name) window \(start)"
                if listed[key] != nil || listed[name] != nil {
                    deliberate += 1
                } else {
                    let extra = Set(ours).subtracting(expected).sorted(), missing = Set(expected).subtracting(ours).sorted()
                    undeclared.append("\(key): we say busy \(extra), the reference \(missing)")
                }
            }
        }
        print("""
            calendar differential: \(files.count) files, \(agreements) windows agree, \(deliberate) deliberate differences, \
            \(refusedByReference) files refused by the reference, \(refusedByUs) refused by us, \(undeclared.count) undeclared
            """)
        for line in undeclared { print("  undeclared: \(line)") }
        XCTAssertEqual(undeclared, [], "add each to docs/deliberate-differences.md with its reason, or fix it")
        XCTAssertGreaterThan(agreements, 150)
    }
}

/// The python side (Scripts/differential-reference.py, in the cache's virtual environment) and
/// the written list of deliberate differences.
enum Reference {
    /// One JSON object per file, by path.
    static func run(_ kind: String, _ files: [String]) throws -> [String: [String: Any]] {
        let data = try ChildProcess.run(try TrailheadCache.python(), ["-W", "ignore", Checkout.root + "/Scripts/differential-reference.py", kind] + files)
            .standardOutput
        var results: [String: [String: Any]] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], let file = object["file"] as? String {
                results[file] = object
            }
        }
        return results
    }

    /// `- \`name\` [window YYYY-MM-DD]: reason` lines of docs/deliberate-differences.md, by key.
    static func deliberateDifferences() throws -> [String: String] {
        let text = try String(contentsOfFile: Checkout.root + "/docs/deliberate-differences.md", encoding: .utf8)
        var entries: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("- `") {
            let rest = line.dropFirst(3)
            guard let tick = rest.firstIndex(of: "`"), let colon = rest[tick...].firstIndex(of: ":") else { continue }
            var key = String(rest[..<tick])
            let middle = rest[rest.index(after: tick)..<colon].trimmingCharacters(in: .whitespaces)
            if !middle.isEmpty { key += " " + middle }
            entries[key] = String(rest[rest.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return entries
    }
}
