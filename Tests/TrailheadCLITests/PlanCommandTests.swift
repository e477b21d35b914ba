import Foundation
import TrailheadSchema
import TrailheadTestSupport
import XCTest

/// `agent plan` end to end with the real bundled plugins (installed into Plugins/ by `make`) and a
/// scripted model: the loop, the guard, the transcript and the output formats.
final class PlanCommandTests: XCTestCase {
    /// The checkout, where `make` installed the plugins and their manifests.
    static let home = Checkout.root

    func script(_ outputs: [GeneratedText]) throws -> String {
        let lines = outputs.map { output -> String in
            let escaped = output.text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        }
        return try Scratch.file(lines.joined(separator: "\n") + "\n", name: "script.jsonl")
    }

    struct GeneratedText { var text: String }

    static let places = ["Hidden Valley Nature Trail", "Barker Dam Nature Trail", "Keys View", "Skull Rock Nature Trail"]

    /// The model's answer for `days` days: two activities a day at the places in turn, texts
    /// within their word bounds. (Dates, times, categories, companions and what is said of each
    /// place are the planner's and the tools'.)
    static func final(days: Int, places: [String] = PlanCommandTests.places) -> GeneratedText {
        var index = 0
        let plans = (0..<days).map { _ -> String in
            let activities = (0..<2).map { _ -> String in
                defer { index += 1 }
                return #"{"place":"\#(places[index % places.count])"}"#
            }
            return #"{"activities":[\#(activities.joined(separator: ","))]}"#
        }
        return GeneratedText(text: #"{"answer":{"title":"Desert Days","description":"Rocks, trees and stars in the desert.","rationale":"Both days are free for everyone.","days":[\#(plans.joined(separator: ","))]}}"#)
    }

    func plan(_ script: String, tools: String = "calendar,contacts", companions: String? = "Ana, Ben", extra: [String] = []) throws -> (AgentProcess.Result, transcript: String) {
        let transcript = try Scratch.file("", name: "run.jsonl")
        try FileManager.default.removeItem(atPath: transcript)
        let result = try AgentProcess.run(
            ["plan", "Joshua Tree National Park", "--days", "2", "--tools", tools] + (companions.map { ["--with", $0] } ?? [])
                + ["--from", "2026-12-01", "--to", "2026-12-31", "--model", "scripted:\(script)", "--transcript", transcript,
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
        // The calendar and the contacts are called before the first turn (the request fixes their
        // arguments): the model's only turn is the answer.
        let (result, transcript) = try plan(try script([Self.final(days: 2)]), extra: ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let itinerary = try GeneratedContent(json: result.stdout)
        // The first two consecutive free days of the sample calendar in December 2026.
        XCTAssertEqual(itinerary["days"]?.arrayValue?.compactMap { $0["date"]?.stringValue }, ["2026-12-12", "2026-12-13"])
        XCTAssertEqual(itinerary["days"]?.arrayValue?.first?["activities"]?.arrayValue?.first?["time"], "morning")
        XCTAssertEqual(itinerary["companions"], ["Ana Lima", "Ben Okafor"])
        XCTAssertEqual(try kinds(transcript), ["instructions", "prompt", "toolCall", "toolCall", "toolOutput", "toolOutput",
                                               "modelTurn", "response"])
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        XCTAssertTrue(text.contains(#""prefetched":true"#), text)
        XCTAssertTrue(result.stderr.contains("transcript: \(transcript)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("from the request: calendarFreeDays, searchContacts"), result.stderr)
    }

    func testAPlaceVisitedTwiceIsSentBackToTheModel() throws {
        let outputs = [Self.final(days: 2, places: ["Keys View", "Barker Dam Nature Trail", "Keys View"]), Self.final(days: 2)]
        let (result, transcript) = try plan(try script(outputs), extra: ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let kinds = try kinds(transcript)
        XCTAssertEqual(kinds.filter { $0 == "repair" }.count, 1, "\(kinds)")
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        XCTAssertTrue(text.contains("visit a different place in each activity (Keys View more than once)"), text)
    }

    func testASoloTripWithEveryPluginEnabledFinishes() throws {
        // No companions named: the contacts tool has nothing to contribute and is left out. The
        // places around the landmark are fetched with the request, and they are enough: the
        // model's only turn is the answer, and it names no companions.
        let places = try bestKnownPlaces(around: "Joshua Tree National Park")
        XCTAssertGreaterThanOrEqual(places.count, 6, "the index knows Joshua Tree's places")
        let (result, transcript) = try plan(
            try script([Self.final(days: 2, places: places)]), tools: "poi,calendar,contacts", companions: nil, extra: ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let itinerary = try GeneratedContent(json: result.stdout)
        XCTAssertNil(itinerary["companions"])
        let entries = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n").map { try GeneratedContent(json: String($0)) }
        let calls = entries.filter { $0["kind"]?.stringValue == "toolCall" }.compactMap { $0["tool"]?.stringValue }
        XCTAssertEqual(Set(calls), ["calendarFreeDays", "findPointsOfInterest"], "contacts is never called for a solo trip")
        XCTAssertEqual(entries.filter { $0["kind"]?.stringValue == "modelTurn" }.count, 1)
    }

    func testAnUnknownLandmarkEndsWithTheToolsWordsAndNoPlan() throws {
        // A model that would invent places ("Xqzzyville Qwrtp Beach") is never asked.
        let transcript = try Scratch.file("", name: "run.jsonl")
        let invented = Self.final(days: 2, places: ["Xqzzyville Qwrtp Beach", "Xqzzyville Qwrtp Museum", "Old Town", "Harbour"])
        let result = try AgentProcess.run(
            ["plan", "Xqzzyville Qwrtp", "--days", "2", "--tools", "poi", "--model", "scripted:\(try script([invented]))", "--transcript", transcript,
             "--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"],
            environment: ["TRAILHEAD_HOME": Self.home])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stdout, "", "no plan")
        XCTAssertTrue(result.stderr.contains("unknown landmark 'Xqzzyville Qwrtp'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("findPointsOfInterest"), result.stderr)
        XCTAssertFalse(try kinds(transcript).contains("modelTurn"), "no model turn")
        XCTAssertEqual(try kinds(transcript).last, "error")
    }

    func testAWindowWithTooFewFreeDaysIsAUsageError() throws {
        // The sample calendar's 7–11 December 2026 has two free days (the 8th and the 10th).
        let transcript = try Scratch.file("", name: "run.jsonl")
        let result = try AgentProcess.run(
            ["plan", "Joshua Tree National Park", "--days", "3", "--from", "2026-12-07", "--to", "2026-12-11", "--tools", "calendar",
             "--model", "scripted:\(try script([Self.final(days: 3)]))", "--transcript", transcript,
             "--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"],
            environment: ["TRAILHEAD_HOME": Self.home])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("a 3-day trip does not fit the free days of 2026-12-07…2026-12-11: the calendar leaves 2 free"), result.stderr)
        XCTAssertFalse(try kinds(transcript).contains("modelTurn"))
    }

    func testAroundAVillageTheParkIsNoActivityAndARepeatedPlaceIsRepairedNamingTheUnusedOnes() throws {
        // Grand Canyon National Park is 1.5 km from the village: the tool marks it a destination.
        // The repeat's repair keeps the other places where they were and offers the unused ones in
        // the repeat's place.
        let results = try bestKnownResults(around: "Grand Canyon Village")
        XCTAssertEqual(results.first { $0["name"] == "Grand Canyon National Park" }?["destination"], true)
        let places = try bestKnownPlaces(around: "Grand Canyon Village")
        XCTAssertGreaterThanOrEqual(places.count, 6, "\(places)")
        XCTAssertFalse(places.contains("Grand Canyon National Park"))
        let repeated = Self.final(days: 2, places: [places[0], places[1], places[0], places[2]])
        let transcript = try Scratch.file("", name: "run.jsonl")
        let result = try AgentProcess.run(
            ["plan", "Grand Canyon Village", "--days", "2", "--tools", "poi", "--from", "2026-12-01", "--to", "2026-12-31",
             "--model", "scripted:\(try script([repeated, Self.final(days: 2, places: [places[0], places[1], places[3], places[2]])]))",
             "--transcript", transcript, "--format", "json",
             "--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"],
            environment: ["TRAILHEAD_HOME": Self.home])
        XCTAssertEqual(result.status, 0, result.stderr)
        let entries = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n").map { try GeneratedContent(json: String($0)) }
        let repairs = entries.filter { $0["kind"] == "repair" }.compactMap { $0["message"]?.stringValue }
        XCTAssertEqual(repairs.count, 1, "\(repairs)")
        let message = try XCTUnwrap(repairs.first)
        XCTAssertTrue(message.contains("/days/1/activities/0/place: \"\(places[0])\" is already at /days/0/activities/0/place"), message)
        XCTAssertTrue(message.contains("not used yet: " + places[3...].map { "\"\($0)\"" }.joined(separator: ", ")), message)
        XCTAssertFalse(message.contains("Grand Canyon National Park"), message)
        let itinerary = try GeneratedContent(json: result.stdout)
        let visited = itinerary["days"]?.arrayValue?.flatMap { $0["activities"]?.arrayValue ?? [] }.compactMap { $0["place"]?.stringValue }
        XCTAssertEqual(visited.map(Set.init), Set(places.prefix(4)))
    }

    /// The things to do the points-of-interest tool returns around `landmark` when asked for no kind
    /// in particular (not lodging, campgrounds, towns, airports, the landmark itself or a place the
    /// tool marks as a destination in itself).
    func bestKnownPlaces(around landmark: String) throws -> [String] {
        try bestKnownResults(around: landmark).filter { result in
            !["lodging", "campground", "town", "airport"].contains(result["category"]?.stringValue ?? "") && result["name"]?.stringValue != landmark
                && result["destination"] != true
        }.compactMap { $0["name"]?.stringValue }
    }

    /// What the points-of-interest tool returns around `landmark` when asked for no kind in particular.
    func bestKnownResults(around landmark: String) throws -> [GeneratedContent] {
        let result = try AgentProcess.run(
            ["tools", "call", "findPointsOfInterest", "--args", GeneratedContent.object(["landmark": .string(landmark)]).jsonString,
             "--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"], environment: ["TRAILHEAD_HOME": Self.home])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try GeneratedContent(json: result.stdout)["results"]?.arrayValue ?? []
    }

    func testNothingWithinTheRadiusGivesTheNearestBeyondItSaidInTheNote() throws {
        // The nearest airports to Joshua Tree National Park are 20–45 km away.
        let arguments = #"{"landmark": "Joshua Tree National Park", "category": "airport", "radiusKm": 5, "query": "near the park"}"#
        let result = try AgentProcess.run(
            ["tools", "call", "findPointsOfInterest", "--args", arguments, "--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"],
            environment: ["TRAILHEAD_HOME": Self.home])
        XCTAssertEqual(result.status, 0, result.stderr)
        let output = try GeneratedContent(json: result.stdout)
        let results = output["results"]?.arrayValue ?? []
        XCTAssertFalse(results.isEmpty, result.stdout)
        for place in results {
            XCTAssertEqual(place["category"]?.stringValue, "airport", result.stdout)
            XCTAssertGreaterThan(place["distanceKm"]?.doubleValue ?? 0, 5, result.stdout)
        }
        let note = output["note"]?.stringValue ?? ""
        XCTAssertTrue(note.contains("nothing matched the query"), note)
        XCTAssertTrue(note.contains("nothing of category airport within 5 km; these are the nearest within "), note)
    }

    /// The names the points-of-interest tool returned in a transcript.
    func placesReturned(_ transcript: String) throws -> [String] {
        let entries = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n").map { try GeneratedContent(json: String($0)) }
        var names: [String] = []
        for entry in entries where entry["kind"]?.stringValue == "toolOutput" && entry["tool"]?.stringValue == "findPointsOfInterest" {
            for place in entry["result"]?["results"]?.arrayValue ?? [] { if let name = place["name"]?.stringValue { names.append(name) } }
        }
        return names
    }

    func testAReplayWithTheSameToolsMatchesAndATamperedOneDiffers() throws {
        let (result, transcript) = try plan(try script([Self.final(days: 2)]), extra: ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let folders = ["--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"]
        let same = try AgentProcess.run(["transcript", "replay", transcript] + folders, environment: ["TRAILHEAD_HOME": Self.home])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        XCTAssertTrue(same.stdout.contains("replayed 1 model turns and 2 tool calls"), same.stdout)
        XCTAssertTrue(same.stdout.contains("no differences"), same.stdout)
        // A recording whose calendar said something else than the calendar says now.
        let text = try String(contentsOfFile: transcript, encoding: .utf8).replacingOccurrences(of: "\"2026-12-19\",\"2026-12-20\",\"2026-12-21\"", with: "\"2026-12-19\",\"2026-12-21\"")
        let tampered = try Scratch.file(text, name: "tampered.jsonl")
        let differs = try AgentProcess.run(["transcript", "replay", tampered] + folders, environment: ["TRAILHEAD_HOME": Self.home])
        XCTAssertEqual(differs.status, 1, differs.stdout + differs.stderr)
        XCTAssertTrue(differs.stdout.contains("recorded output calendarFreeDays"), differs.stdout)
        let shown = try AgentProcess.run(["transcript", "show", transcript])
        XCTAssertEqual(shown.status, 0)
        XCTAssertTrue(shown.stdout.contains("→ calendarFreeDays"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("(from the request)"), shown.stdout)
    }

    func testOtherFormats() throws {
        let outputs = [Self.final(days: 2)]
        let (markdown, _) = try plan(try script(outputs), extra: ["--format", "markdown"])
        XCTAssertEqual(markdown.status, 0, markdown.stderr)
        XCTAssertTrue(markdown.stdout.hasPrefix("# Desert Days\n"), markdown.stdout)
        XCTAssertTrue(markdown.stdout.contains("## Saturday 12 December 2026"), markdown.stdout)
        let (ics, _) = try plan(try script(outputs), extra: ["--format", "ics"])
        XCTAssertTrue(ics.stdout.hasPrefix("BEGIN:VCALENDAR\r\n"), ics.stdout)
        XCTAssertTrue(ics.stdout.contains("DTSTART:20261212T090000\r\n"), ics.stdout)
        XCTAssertEqual(ics.stdout.components(separatedBy: "BEGIN:VEVENT").count - 1, 4)
        let (text, _) = try plan(try script(outputs), extra: ["--no-stream"])
        XCTAssertTrue(text.stdout.hasPrefix("Desert Days\n===========\n"), text.stdout)
        XCTAssertTrue(text.stdout.contains("With Ana Lima, Ben Okafor"), text.stdout)
    }

    func testAModelThatRunsOutIsAFailureWithTheTranscriptKept() throws {
        let (result, transcript) = try plan(try script([GeneratedText(text: #"{"answer":"#)]))
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
            (["--from", "2026-12-31", "--to", "2026-12-01"], "the window starts on 2026-12-31, after its end 2026-12-01"),
            (["--tools", "weather"], "no tool plugin or tool named 'weather'"),
            (["--days", "5", "--from", "2026-12-10", "--to", "2026-12-11"], "a 5-day trip does not fit the window 2026-12-10…2026-12-11, which has 2 days"),
        ] {
            let result = try AgentProcess.run(["plan", "Kyoto"] + arguments + ["--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"])
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        // Never a plan from nothing: an empty landmark is refused before any tool or model is asked.
        let empty = try AgentProcess.run(["plan", " ", "--model", "scripted:/nonexistent", "--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"])
        XCTAssertEqual(empty.status, 2, empty.stderr)
        XCTAssertTrue(empty.stderr.contains("the landmark is empty"), empty.stderr)
        XCTAssertEqual(empty.stdout, "")
    }
}
