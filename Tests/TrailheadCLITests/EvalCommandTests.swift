import Foundation
import TrailheadModels
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// `agent eval`: plans requests with a model and checks each plan; judges recorded plans the same way.
final class EvalCommandTests: XCTestCase {
    let home = PlanCommandTests.home
    var folders: [String] { ["--plugins", home + "/Plugins", "--manifests", home + "/Manifests"] }

    func testAGoodPlanPassesEveryCheck() throws {
        let requests = try Scratch.file(
            #"{"landmark":"Joshua Tree National Park","days":2,"tools":"calendar,contacts","companions":"Ana, Ben","from":"2026-12-01","to":"2026-12-31"}"# + "\n",
            name: "requests.jsonl")
        let plan = PlanCommandTests.final(days: 2)
        let script = try Scratch.file(GeneratedContent.string(plan.text).jsonString + "\n", name: "script.jsonl")
        let result = try AgentProcess.run(["eval", requests, "--model", "scripted:" + script, "--json"] + folders, environment: ["TRAILHEAD_HOME": home])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let report = try GeneratedContent(json: result.stdout)
        let run = try XCTUnwrap(report["runs"]?.arrayValue?.first)
        XCTAssertEqual(run["passed"], true, "\(run.jsonString)")
        XCTAssertEqual(run["turns"], 1)
        let names = run["checks"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        XCTAssertEqual(names, ["days", "dates in window", "free days", "consecutive days", "companions from the request", "activities a day",
                               "no place repeated", "notes within bound", "words well formed", "texts end a sentence", "no note repeated",
                               "activities are things to do", "statements agree with the tools"])
    }

    func testARecordedPlanIsJudgedAndItsFailuresNamed() throws {
        let requests = try Scratch.file(#"{"landmark":"Kyoto","days":2,"tools":"poi,calendar","from":"2026-12-01","to":"2026-12-10"}"# + "\n", name: "requests.jsonl")
        let itinerary: GeneratedContent = [
            "title": "Kyoto", "destination": "Kyoto", "description": "Temples.", "rationale": "Ryoan-ji is a quiet museum.",
            "days": [
                ["date": "2023-04-01", "activities": [["time": "morning", "place": "Kinkaku-ji", "category": "landmark", "note": "Gold."]]],
                ["date": "2026-12-04", "activities": [["time": "morning", "place": "Kinkaku-ji", "category": "landmark", "note": "Again."],
                                                      ["time": "evening", "place": "Invented Garden", "category": "landmark", "note": "Nice."]]],
            ],
            "companions": ["Ana Lima"],
        ]
        let record: GeneratedContent = [
            "request": ["landmark": "Kyoto", "days": 2, "tools": "poi,calendar", "from": "2026-12-01", "to": "2026-12-10"],
            "itinerary": itinerary, "wallSeconds": 30,
            "toolOutputs": [["tool": "calendarFreeDays", "result": ["freeDays": ["2026-12-02", "2026-12-03", "2026-12-04"]]],
                            ["tool": "findPointsOfInterest", "result": ["results": [
                                ["name": "Kinkaku-ji"], ["name": "Ryoan-ji", "category": "landmark", "description": "Zen temple with a rock garden."],
                            ]]]],
        ]
        let recorded = try Scratch.file(record.jsonString + "\n", name: "peer.jsonl")
        let result = try AgentProcess.run(["eval", requests, "--recorded", recorded, "--label", "peer"])
        XCTAssertEqual(result.status, 1, "failed checks exit 1: \(result.stdout)")
        for expected in ["2023-04-01 is outside 2026-12-01…2026-12-10", "2023-04-01 is not a free day the calendar reported", "Invented Garden was not returned by the tool",
                         "Ana Lima was not named in the request", "day 1 has 1", "no place repeated: Kinkaku-ji",
                         "statements agree with the tools: Ryoan-ji is called a museum, but the tool gives it as a landmark", "0 passed every check"] {
            XCTAssertTrue(result.stdout.contains(expected), "\(expected) in \(result.stdout)")
        }
    }

    func testARequestFileWithoutALandmarkIsAUsageError() throws {
        let requests = try Scratch.file(#"{"days":2}"# + "\n", name: "requests.jsonl")
        let result = try AgentProcess.run(["eval", requests, "--model", "scripted:/dev/null"] + folders)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains(":1: a request needs a \"landmark\""), result.stderr)
    }

    func testARequestFileMeetsThePlansDayBound() throws {
        let requests = try Scratch.file(#"{"landmark":"Kyoto","days":2}"# + "\n" + #"{"landmark":"Kyoto","days":20}"# + "\n", name: "requests.jsonl")
        let result = try AgentProcess.run(["eval", requests, "--model", "scripted:/dev/null"] + folders)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains(":2: a trip has from 1 to 14 days, not 20"), result.stderr)
    }

    /// `--bfcl --results FILE`: each case's results are kept as it finishes, a run given the file
    /// again runs only the cases it lacks, and a file of another run is refused. A scripted model
    /// gives each case's one turn, so a case run twice would take the next case's turn.
    func testABFCLRunKeepsItsResultsAndGoesOnWhereItStopped() throws {
        let folder = try Scratch.newFolder()
        let results = folder + "/results.jsonl"
        // One script file (the model's name is part of the run), its turns rewritten for each run.
        let script = folder + "/turns.jsonl"
        func turns(_ texts: String...) throws -> String {
            try texts.map { GeneratedContent.string($0).jsonString + "\n" }.joined().write(toFile: script, atomically: true, encoding: .utf8)
            return "scripted:" + script
        }
        let first = try AgentProcess.run(
            ["eval", "--bfcl", "simple_python:1", "--model", try turns(#"{"name":"calculate_triangle_area","arguments":{"base":10,"height":5}}"#), "--results", results, "--json"], environment: ["TRAILHEAD_HOME": home])
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        let lines = try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "the run, then the case")
        XCTAssertEqual(try GeneratedContent(json: String(lines[1]))["case"], "simple_python_0")

        // Again with one case more: only irrelevance_0 asks the model, for the one turn it has.
        let second = try AgentProcess.run(
            ["eval", "--bfcl", "simple_python:1,irrelevance:1", "--model", try turns(#"{"answer":"No function here does that."}"#), "--results", results, "--json"],
            environment: ["TRAILHEAD_HOME": home])
        XCTAssertEqual(second.status, 0, second.stdout + second.stderr)
        let report = try XCTUnwrap(try GeneratedContent(json: second.stdout)["results"]?.arrayValue)
        XCTAssertEqual(report.compactMap { $0["id"]?.stringValue }, ["simple_python_0", "irrelevance_0"])
        XCTAssertEqual(report.map { $0["valid"] }, [true, true], "\(report.map(\.jsonString))")
        XCTAssertEqual(try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").count, 3)

        // A last line cut short (killed while writing) is dropped: its case is not done.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: results))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"case":"irrelevance_1","res"#.utf8))
        try handle.close()
        let third = try AgentProcess.run(
            ["eval", "--bfcl", "simple_python:1,irrelevance:1", "--model", try turns(#"{"answer":"Nothing does that."}"#), "--results", results, "--json"],
            environment: ["TRAILHEAD_HOME": home])
        XCTAssertEqual(third.status, 0, third.stdout + third.stderr)
        XCTAssertEqual(try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").count, 3, "the cut line is gone")

        // Other options: another run.
        let other = try AgentProcess.run(
            ["eval", "--bfcl", "simple_python:1", "--model", try turns(), "--results", results, "--instructions", "none"],
            environment: ["TRAILHEAD_HOME": home])
        XCTAssertEqual(other.status, 1, other.stdout + other.stderr)
        XCTAssertTrue(other.stderr.contains(#"holds the results of another run (instructions: "bfcl" in the file, "none" now)"#), other.stderr)

        // Another BFCL worker (its peers, its checks): another run, though the options are the same.
        let otherHome = folder + "/home"
        try FileManager.default.createDirectory(atPath: otherHome + "/Scripts/bfcl", withIntermediateDirectories: true)
        let worker = try String(contentsOfFile: home + "/Scripts/bfcl/bfcl_worker.py", encoding: .utf8)
        try (worker + "\n# another version\n").write(toFile: otherHome + "/Scripts/bfcl/bfcl_worker.py", atomically: true, encoding: .utf8)
        let edited = try AgentProcess.run(
            ["eval", "--bfcl", "simple_python:1", "--model", try turns(), "--results", results], environment: ["TRAILHEAD_HOME": otherHome])
        XCTAssertEqual(edited.status, 1, edited.stdout + edited.stderr)
        XCTAssertTrue(edited.stderr.contains("holds the results of another run (worker: "), edited.stderr)
    }

    /// Ctrl-C during a case: the case's turns were cancelled, not wrong. The case is neither kept
    /// nor counted (the table run kept one as "no call (CancellationError())" and its resumption
    /// skipped it), the cases done are reported, and the command ends as an interrupted one (130).
    func testACaseCtrlCCutShortIsNotKeptAndARunGivenTheFileDoesItAgain() throws {
        let folder = try Scratch.newFolder()
        let results = folder + "/results.jsonl", script = folder + "/turns.jsonl"
        // The first case answers at once; the second waits a minute before it writes a word.
        try [#"{"text":"{\"name\":\"calculate_triangle_area\",\"arguments\":{\"base\":10,\"height\":5}}"}"#,
             #"{"text":"{\"answer\":\"No function here does that.\"}","delayMs":60000}"#]
            .joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let agent = try AgentProcess.start(
            ["eval", "--bfcl", "simple_python:1,irrelevance:1", "--model", "scripted:" + script, "--results", results, "--json"],
            environment: ["TRAILHEAD_HOME": home], folder: folder)
        try waitUntil("the first case is done and the second has begun", timeout: 120) { agent.stderr.contains("[1/2] simple_python_0") }
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(agent.interrupt())
        let ended = try agent.ended(within: 30)
        XCTAssertEqual(ended, .exited(status: 130), agent.stderr)
        XCTAssertTrue(agent.stderr.contains("[2/2] irrelevance_0: interrupted; not counted nor kept"), agent.stderr)
        let report = try XCTUnwrap(try GeneratedContent(json: agent.stdout)["results"]?.arrayValue)
        XCTAssertEqual(report.compactMap { $0["id"]?.stringValue }, ["simple_python_0"], "only the case done is reported")
        let lines = try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "the run, then the one case done: \(lines)")

        // Given the file again, the run does the cut case (the script's turns, written again, start over).
        try (GeneratedContent.string(#"{"answer":"No function here does that."}"#).jsonString + "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let again = try AgentProcess.run(
            ["eval", "--bfcl", "simple_python:1,irrelevance:1", "--model", "scripted:" + script, "--results", results, "--json"],
            environment: ["TRAILHEAD_HOME": home])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        let second = try XCTUnwrap(try GeneratedContent(json: again.stdout)["results"]?.arrayValue)
        XCTAssertEqual(second.compactMap { $0["id"]?.stringValue }, ["simple_python_0", "irrelevance_0"])
        XCTAssertEqual(second.map { $0["valid"] }, [true, true], "\(second.map(\.jsonString))")
    }

    /// `--serve` with the peers on the managed local model: `agent serve` and the peers each get a
    /// llama-server of their own (no agent finds another's prompt in a cache; the peers with a
    /// context their whole prompts fit in), which answers their requests and is stopped when the
    /// run ends.
    func testTheSessionTheEndpointAndThePeersHaveALlamaServerEachOfTheirOwn() throws {
        let run = ModelAssets().runDirectory, name = "local-model.\(ModelAssets.testModel.name)"
        for folder in ["bfcl-session", "bfcl-serve", "bfcl-peers"] { try? FileManager.default.removeItem(atPath: "\(run)/\(folder)/\(name).log") }
        let result = try AgentProcess.run(
            ["eval", "--bfcl", "simple_python:1", "--model", "local:test", "--serve", "--json"], environment: ["TRAILHEAD_HOME": home])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let results = try XCTUnwrap(try GeneratedContent(json: result.stdout)["results"]?.arrayValue)
        XCTAssertEqual(
            results.compactMap { $0["agent"]?.stringValue }, ["trailhead", "agent serve, openai client", "peer (a) native tools", "peer (b) calls from text"])
        // llama-server logs its slots, their context (the test model caps 16,384 at its 8,192, saying
        // so) and each request a slot takes ("… | task 0 | processing task").
        let own = [("bfcl-session", ["n_slots = 4, n_ctx_slot = 4096"]), ("bfcl-serve", ["n_slots = 4, n_ctx_slot = 4096"]), ("bfcl-peers", ["n_slots = 1", "(16384)"])]
        for (folder, slots) in own {
            let log = try String(contentsOfFile: "\(run)/\(folder)/\(name).log", encoding: .utf8)
            XCTAssertTrue(log.contains("processing task"), "\(folder): its own server answered: \(log.suffix(2000))")
            for words in slots { XCTAssertTrue(log.contains(words), "\(folder): \(words)") }
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(run)/\(folder)/\(name).json"), "\(folder): stopped when the run ended")
        }
    }

    func testAServerAnInterruptedRunLeftIsStoppedNotReused() async throws {
        // An eval killed mid-run leaves its servers running, their caches full of its prompts; the
        // next run in the same folder found the endpoint's and reused it, warm against a cold session.
        guard let local = try ModelSpecifier.model("local:test") as? LocalModel else { return XCTFail("local:test is a local model") }
        var configuration = local.configuration
        configuration.runDirectory += "/bfcl-session"
        configuration.idleShutdownSeconds = nil
        try? FileManager.default.removeItem(atPath: configuration.logPath)
        let leftover = LocalModel(configuration: configuration)
        let pid = try await leftover.start().pid
        let result = try AgentProcess.run(
            ["eval", "--bfcl", "simple_python:1", "--model", "local:test", "--no-peers", "--json"], environment: ["TRAILHEAD_HOME": home])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        // The folder's log says each start ("== <date> starting llama-server …"): the leftover's, then the run's own.
        let log = try String(contentsOfFile: configuration.logPath, encoding: .utf8)
        XCTAssertEqual(log.components(separatedBy: "\n== ").filter { $0.contains(" starting ") }.count, 2, log.suffix(3000).description)
        // Gone, or a zombie of this process's that nobody reaped.
        let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        XCTAssertTrue(stat == nil || stat!.contains(") Z "), "the leftover server was stopped: \(stat ?? "")")
        await leftover.stop()
    }

    func testTypedOptionsAreCheckedBeforeAnythingRuns() throws {
        let result = try AgentProcess.run(["eval", "/nonexistent.jsonl", "--runs", "0"] + folders)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("agent: --runs must be an integer ≥ 1, not '0'\nusage: agent eval"), result.stderr)
    }
}
