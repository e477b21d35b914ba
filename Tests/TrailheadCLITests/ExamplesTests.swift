import Foundation
import TrailheadSchema
import TrailheadTestSupport
import XCTest

/// The agents of `Examples/`, a package that depends on this checkout by path as any other
/// package would (`make test` builds it): they run with scripted models against the real plugins,
/// and the trip planner once with SmolLM2 on the managed llama-server.
final class ExamplesTests: XCTestCase {
    static let home = PlanCommandTests.home

    /// The example executable, or a failure saying how to build it.
    func built(_ name: String) throws -> String {
        let path = Self.home + "/Examples/.build/debug/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSetupError("\(path) is not built: run `make test` (or `swift build --package-path Examples`)")
        }
        return path
    }

    func script(_ outputs: [String]) throws -> String {
        try Scratch.file(outputs.map { GeneratedContent.string($0).jsonString }.joined(separator: "\n") + "\n", name: "script.jsonl")
    }

    let environment = ["TRAILHEAD_HOME": PlanCommandTests.home, "TRAILHEAD_TOOL_HOST": BuildProducts.folder + "/agent-tool-host"]

    func testTheReadmeAgentIsTheOneThatCompiles() throws {
        _ = try built("ReadmeAgent")
        let readme = try String(contentsOfFile: Self.home + "/README.md", encoding: .utf8)
        let source = try String(contentsOfFile: Self.home + "/Examples/ReadmeAgent/main.swift", encoding: .utf8)
        XCTAssertTrue(readme.contains("```swift\n" + source + "```"), "README.md's \"Use it from Swift\" shows Examples/ReadmeAgent/main.swift as it is")
        XCTAssertLessThanOrEqual(source.split(separator: "\n").count, 15)
    }

    func testTheSeedsTripPlannerCallsItsToolAndStreamsATypedItinerary() throws {
        let day = { (n: Int) in
            #"{"title":"Day \#(n) Of Rocks","subtitle":"Trails and a warm dinner","destination":"Joshua Tree National Park","activities":[{"type":"sightseeing","title":"Keys View","description":"Watch the valley at sunset."},{"type":"foodAndDining","title":"Pappy & Harriet's Pioneertown Palace","description":"Eat a hearty dinner here."},{"type":"hotelAndLodging","title":"Jumbo Rocks Campground","description":"Sleep under the stars tonight."}]}"#
        }
        let outputs = [
            Self.searches(["viewpoint", "restaurant", "campground"]),
            #"{"answer":{"title":"Desert Days","destinationName":"Joshua Tree National Park","description":"Rocks, trees and stars all week.","rationale":"Each day has an activity, a meal and a bed.","days":[\#(day(1)),\#(day(2)),\#(day(3))]}}"#,
        ]
        let result = try AgentProcess.run(
            ["Joshua Tree National Park", "--days", "3", "--model", "scripted:" + script(outputs)], environment: environment,
            executable: try built("TripPlannerExample"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("day 1: Day 1 Of Rocks"), "days stream as they complete: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("Desert Days — Joshua Tree National Park"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Day 3: Day 3 Of Rocks"), result.stdout)
        XCTAssertTrue(result.stdout.contains("hotelAndLodging: Jumbo Rocks Campground"), result.stdout)
    }

    /// One turn of the trip planner's model: a search for each kind, chained.
    static func searches(_ kinds: [String]) -> String {
        kinds.reversed().reduce("") { next, kind in
            #"{"name":"findPointsOfInterest","arguments":{"pointOfInterest":"\#(kind)","naturalLanguageQuery":"\#(kind)"}"#
                + (next.isEmpty ? "" : #","and":"# + next) + "}"
        }
    }

    func testTheSeedsTripPlannerNamesOnlyPlacesItsToolReturned() throws {
        // The session's grounding: a title no search returned ("Hotel A") is refused and repaired
        // with the places found; a model that keeps inventing gets no itinerary (exit 1).
        let plan = { (lodging: String) in
            #"{"answer":{"title":"Desert Days","destinationName":"Joshua Tree National Park","description":"Rocks and stars all week.","rationale":"Each day has an activity, a meal and a bed.","days":[{"title":"Rocks And Dinner","subtitle":"Trails and a warm dinner","destination":"Joshua Tree National Park","activities":[{"type":"sightseeing","title":"Keys View","description":"Watch the valley at sunset."},{"type":"foodAndDining","title":"Pappy & Harriet's Pioneertown Palace","description":"Eat a hearty dinner here."},{"type":"hotelAndLodging","title":"\#(lodging)","description":"Sleep well tonight."}]}]}}"#
        }
        let search = Self.searches(["viewpoint", "restaurant", "campground"])
        let repaired = try AgentProcess.run(
            ["Joshua Tree National Park", "--days", "1", "--model", "scripted:" + script([search, plan("Hotel A"), plan("White Tank Campground")])],
            environment: environment, executable: try built("TripPlannerExample"))
        XCTAssertEqual(repaired.status, 0, repaired.stdout + repaired.stderr)
        XCTAssertTrue(repaired.stdout.contains("hotelAndLodging: White Tank Campground"), repaired.stdout)
        XCTAssertFalse(repaired.stdout.contains("Hotel A"), repaired.stdout)
        let stubborn = try AgentProcess.run(
            ["Joshua Tree National Park", "--days", "1", "--model", "scripted:" + script([search] + Array(repeating: plan("Hotel A"), count: 5))],
            environment: environment, executable: try built("TripPlannerExample"))
        XCTAssertEqual(stubborn.status, 1, stubborn.stdout + stubborn.stderr)
        XCTAssertTrue(stubborn.stdout.contains("No itinerary:"), stubborn.stdout)
        XCTAssertFalse(stubborn.stdout.contains("Day 1:"), stubborn.stdout)
    }

    func testTheSeedsTripPlannerNeverShowsItsExampleAsAPlan() throws {
        // The Mount Fuji example's restaurant in a Joshua Tree plan is refused; told so, the model
        // plans with what the tool found. A model that only ever copies gets no itinerary (exit 1).
        let plan = { (restaurant: String) in
            #"{"answer":{"title":"Desert Days","destinationName":"Joshua Tree National Park","description":"Rocks and stars all week.","rationale":"Each day has an activity, a meal and a bed.","days":[{"title":"Rocks And Dinner","subtitle":"Trails and a warm dinner","destination":"Joshua Tree National Park","activities":[{"type":"sightseeing","title":"Keys View","description":"Watch the valley at sunset."},{"type":"foodAndDining","title":"\#(restaurant)","description":"Eat a hearty dinner here."},{"type":"hotelAndLodging","title":"Jumbo Rocks Campground","description":"Sleep under the stars tonight."}]}]}}"#
        }
        let search = Self.searches(["viewpoint", "restaurant", "campground"])
        let copied = plan("The Restaurant at Lake Kawaguchi")
        let repaired = try AgentProcess.run(
            ["Joshua Tree National Park", "--days", "1", "--model", "scripted:" + script([search, copied, plan("Pappy & Harriet's Pioneertown Palace")])],
            environment: environment, executable: try built("TripPlannerExample"))
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        XCTAssertTrue(repaired.stdout.contains("foodAndDining: Pappy & Harriet's Pioneertown Palace"), repaired.stdout)
        XCTAssertFalse(repaired.stdout.contains("Kawaguchi"), repaired.stdout)
        let stubborn = try AgentProcess.run(
            ["Joshua Tree National Park", "--days", "1", "--model", "scripted:" + script([search, copied, copied, copied, copied])],
            environment: environment, executable: try built("TripPlannerExample"))
        XCTAssertEqual(stubborn.status, 1, stubborn.stdout + stubborn.stderr)
        XCTAssertTrue(stubborn.stdout.contains("No itinerary:") && stubborn.stdout.contains("The Restaurant at Lake Kawaguchi"), stubborn.stdout)
        XCTAssertFalse(stubborn.stdout.contains("Day 1:"), stubborn.stdout)
    }

    func testTheTripPlannerRunsOnSmolLM2() throws {
        // A 135M model writes nonsense, and which nonsense changes with the CPU's arithmetic. What
        // the runtime guarantees is the same on every machine: under the grammar there is a whole,
        // typed itinerary that is not the instructions' example (exit 0), or no itinerary and a
        // sentence saying why (exit 1) — never a trap, a backtrace or the example shown as a plan.
        let result = try AgentProcess.run(
            ["Zion National Park", "--days", "1", "--model", "local:test"], environment: environment, executable: try built("TripPlannerExample"))
        let everything = result.stdout + result.stderr
        XCTAssertFalse(everything.contains("Fatal error") || everything.contains("Backtrace"), everything)
        XCTAssertFalse(result.stdout.contains("Lake Kawaguchi"), "the example is never shown as a plan: \(result.stdout)")
        if result.status == 0 {
            XCTAssertTrue(result.stdout.contains("Day 1:"), result.stdout)
        } else {
            XCTAssertEqual(result.status, 1, everything)
            XCTAssertTrue(result.stdout.contains("No itinerary:"), result.stdout)
            XCTAssertFalse(result.stdout.contains("Day 1:"), result.stdout)
        }
    }

    func testTheMeetingSchedulerUsesPluginsAndAsksBeforeWriting() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("meeting-\(UUID().uuidString).ics").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outputs = [
            #"{"name":"calendarAddEvents","arguments":{"events":[{"summary":"Trail maintenance planning","start":"2026-12-21T10:00","end":"2026-12-21T11:00"}]}}"#,
            #"{"answer":{"date":"2026-12-21","startTime":"10:00","attendees":["Ana Lima","Ben Okafor"],"subject":"Trail maintenance planning","message":"Ana and Ben, let us plan the trail work on Monday morning."}}"#,
        ]
        let result = try AgentProcess.run(
            ["Ana, Ben", "Trail maintenance planning", "--out", out, "--model", "scripted:" + script(outputs), "--yes"],
            environment: environment, executable: try built("MeetingScheduler"))
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("2026-12-21 at 10:00 with Ana Lima, Ben Okafor"), result.stdout)
        XCTAssertTrue(result.stdout.contains("added to \(out)"), result.stdout)
        let calendar = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(calendar.contains("SUMMARY:Trail maintenance planning"), calendar)
    }

    func testTheMeetingSchedulerWritesNothingWithoutApproval() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("meeting-\(UUID().uuidString).ics").path
        let outputs = [
            #"{"name":"calendarAddEvents","arguments":{"events":[{"summary":"Planning","start":"2026-12-21T10:00","end":"2026-12-21T11:00"}]}}"#,
            #"{"answer":{"date":"2026-12-21","startTime":"10:00","attendees":["Ana Lima"],"subject":"Trail planning","message":"Ana, could we plan the trail work on Monday?"}}"#,
        ]
        let result = try AgentProcess.run(
            ["Ana", "Planning", "--out", out, "--model", "scripted:" + script(outputs)], input: "n\n", environment: environment,
            executable: try built("MeetingScheduler"))
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("not added to a calendar file"), result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testTheFoundationModels27ProgramRunsEveryNameAgainstItsModels() throws {
        let result = try AgentProcess.run([], environment: environment, executable: try built("FoundationModels27"))
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        for line in [
            "echo guided generation: false, reasoning: true",
            "unsupportedCapability: guided generation",
            "You said: hello — input 12 (8 cached), output 4 (1 reasoning), total 16, echo-2026-06-08",
            "rateLimited until 4133980799: quota spent",
            "timeout: no answer in 60 s, metadata 0",
            "refusal: I would rather not.",
            "streamed: last snapshot 39 tokens, response 39, session 39",
            "revertTranscript: 0 entries after a failure",
            "preserveTranscript: 3 entries after a failure",
            "resumed: Yes, it was.",
            "transcriptMutationWhileResponding: 0 entries now",
        ] {
            XCTAssertTrue(result.stdout.contains(line + "\n"), "\(line)\n— not in —\n\(result.stdout)")
        }
        XCTAssertTrue(result.stdout.contains("contextSizeExceeded: ") && result.stdout.contains(" tokens, context 64"), result.stdout)
    }
}
