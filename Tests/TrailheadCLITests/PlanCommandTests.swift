import Foundation
import TrailheadSchema
import XCTest

/// `agent plan` end to end with the real bundled plugins (installed into Plugins/ by `make`) and a
/// scripted model: the loop, the guard, the transcript and the output formats.
final class PlanCommandTests: XCTestCase {
    /// The checkout, where `make` installed the plugins and their manifests.
    static let home = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func script(_ outputs: [GeneratedText]) throws -> String {
        let lines = outputs.map { output -> String in
            let escaped = output.text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        }
        return try Fixtures.temporaryFile(lines.joined(separator: "\n") + "\n", name: "script.jsonl")
    }

    struct GeneratedText { var text: String }

    let freeDays = GeneratedText(text: #"{"tool":"calendarFreeDays","arguments":{"start":"2026-12-01","end":"2026-12-31"}}"#)
    let friends = GeneratedText(text: #"{"tool":"searchContacts","arguments":{"query":"Ana, Ben"}}"#)

    func final(_ dates: [String], companions: [String] = ["Ana Lima", "Ben Okafor"]) -> GeneratedText {
        let places = ["Hidden Valley Nature Trail", "Barker Dam Nature Trail", "Keys View"]
        let days = dates.enumerated().map { #"{"date":"\#($1)","activities":[{"time":"morning","place":"\#(places[$0 % places.count])","category":"hike","note":"Easy loop."}]}"# }
        let names = companions.map { "\"\($0)\"" }.joined(separator: ",")
        return GeneratedText(text: #"{"final":{"title":"Desert Days","destination":"Joshua Tree National Park","description":"Rocks and stars.","rationale":"Free weekend.","days":[\#(days.joined(separator: ","))],"companions":[\#(names)]}}"#)
    }

    func plan(_ script: String, extra: [String] = []) throws -> (AgentProcess.Result, transcript: String) {
        let transcript = try Fixtures.temporaryFile("", name: "run.jsonl")
        try FileManager.default.removeItem(atPath: transcript)
        let result = try AgentProcess.run(
            ["plan", "Joshua Tree National Park", "--days", "2", "--tools", "calendar,contacts", "--with", "Ana, Ben",
             "--from", "2026-12-01", "--to", "2026-12-31", "--model", "scripted:\(script)", "--transcript", transcript,
             "--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"] + extra,
            environment: ["TRAILHEAD_HOME": Self.home])
        return (result, transcript)
    }

    func kinds(_ transcript: String) throws -> [String] {
        try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n").map { line in
            try GeneratedContent(json: String(line))["kind"]?.stringValue ?? "?"
        }
    }

    func testAGroundedPlanPrintsOneJSONDocumentAndAFullTranscript() throws {
        let (result, transcript) = try plan(try script([freeDays, friends, final(["2026-12-19", "2026-12-20"])]), extra: ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let itinerary = try GeneratedContent(json: result.stdout)
        XCTAssertEqual(itinerary["days"]?.arrayValue?.compactMap { $0["date"]?.stringValue }, ["2026-12-19", "2026-12-20"])
        XCTAssertEqual(itinerary["companions"], ["Ana Lima", "Ben Okafor"])
        XCTAssertEqual(try kinds(transcript), ["instructions", "prompt", "modelTurn", "toolCall", "toolOutput",
                                               "modelTurn", "toolCall", "toolOutput", "modelTurn", "response"])
        XCTAssertTrue(result.stderr.contains("transcript: \(transcript)"), result.stderr)
    }

    func testAnInventedDateOrAnEarlyFinishIsSentBackToTheModel() throws {
        // Finishing before the calendar answered, then a busy day (2026-12-14, a conference), then a good plan.
        let outputs = [final(["2026-12-19", "2026-12-20"]), freeDays, friends, final(["2026-12-14", "2026-12-19"]), final(["2026-12-19", "2026-12-20"])]
        let (result, transcript) = try plan(try script(outputs), extra: ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let kinds = try kinds(transcript)
        XCTAssertEqual(kinds.filter { $0 == "repair" }.count, 2, "\(kinds)")
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        XCTAssertTrue(text.contains("Not yet: call calendarFreeDays"), text)
        XCTAssertTrue(text.contains("/days/0/date"), text)
    }

    func testAReplayWithTheSameToolsMatchesAndATamperedOneDiffers() throws {
        let (result, transcript) = try plan(try script([freeDays, friends, final(["2026-12-19", "2026-12-20"])]), extra: ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let folders = ["--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"]
        let same = try AgentProcess.run(["transcript", "replay", transcript] + folders, environment: ["TRAILHEAD_HOME": Self.home])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        XCTAssertTrue(same.stdout.contains("replayed 3 model turns and 2 tool calls"), same.stdout)
        XCTAssertTrue(same.stdout.contains("no differences"), same.stdout)
        // A recording whose calendar said something else than the calendar says now.
        let text = try String(contentsOfFile: transcript, encoding: .utf8).replacingOccurrences(of: "\"2026-12-19\",\"2026-12-20\",\"2026-12-21\"", with: "\"2026-12-19\",\"2026-12-21\"")
        let tampered = try Fixtures.temporaryFile(text, name: "tampered.jsonl")
        let differs = try AgentProcess.run(["transcript", "replay", tampered] + folders, environment: ["TRAILHEAD_HOME": Self.home])
        XCTAssertEqual(differs.status, 1, differs.stdout + differs.stderr)
        XCTAssertTrue(differs.stdout.contains("differs: step 3: recorded output calendarFreeDays"), differs.stdout)
        let shown = try AgentProcess.run(["transcript", "show", transcript])
        XCTAssertEqual(shown.status, 0)
        XCTAssertTrue(shown.stdout.contains("→ calendarFreeDays"), shown.stdout)
    }

    func testOtherFormats() throws {
        let outputs = [freeDays, friends, final(["2026-12-19", "2026-12-20"])]
        let (markdown, _) = try plan(try script(outputs), extra: ["--format", "markdown"])
        XCTAssertEqual(markdown.status, 0, markdown.stderr)
        XCTAssertTrue(markdown.stdout.hasPrefix("# Desert Days\n"), markdown.stdout)
        XCTAssertTrue(markdown.stdout.contains("## Saturday 19 December 2026"), markdown.stdout)
        let (ics, _) = try plan(try script(outputs), extra: ["--format", "ics"])
        XCTAssertTrue(ics.stdout.hasPrefix("BEGIN:VCALENDAR\r\n"), ics.stdout)
        XCTAssertTrue(ics.stdout.contains("DTSTART:20261219T090000\r\n"), ics.stdout)
        XCTAssertEqual(ics.stdout.components(separatedBy: "BEGIN:VEVENT").count - 1, 2)
        let (text, _) = try plan(try script(outputs), extra: ["--no-stream"])
        XCTAssertTrue(text.stdout.hasPrefix("Desert Days\n===========\n"), text.stdout)
        XCTAssertTrue(text.stdout.contains("With Ana Lima, Ben Okafor"), text.stdout)
    }

    func testAModelThatRunsOutIsAFailureWithTheTranscriptKept() throws {
        let (result, transcript) = try plan(try script([freeDays]))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("the plan failed"), result.stderr)
        XCTAssertEqual(try kinds(transcript).last, "error")
    }

    func testNoModelExitsThreeWithWhatToDo() throws {
        let result = try AgentProcess.run(
            ["plan", "Joshua Tree National Park", "--tools", "calendar", "--model", "http://127.0.0.1:9/v1#none",
             "--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"],
            environment: ["TRAILHEAD_HOME": Self.home])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("no model available"), result.stderr)
    }

    func testUsageMistakes() throws {
        for (arguments, message) in [
            (["--days", "0"], "--days must be an integer from 1 to 14"),
            (["--format", "pdf"], "--format must be one of"),
            (["--from", "2026-12-31", "--to", "2026-12-01"], "is after --to"),
            (["--tools", "weather"], "no tool plugin named 'weather'"),
        ] {
            let result = try AgentProcess.run(["plan", "Kyoto"] + arguments + ["--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"])
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
