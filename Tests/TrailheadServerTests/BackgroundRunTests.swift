import Foundation
import TrailheadAgent
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// Background responses (`"background": true`) through `agent serve` processes sharing a real
/// PostgreSQL (a cluster the test starts), a scripted model, and the real calendar plugin: its
/// `calendarAddEvents` needs approval and writes a file, so the file shows how often it ran.
final class BackgroundRunTests: XCTestCase {
    /// Short leases, so that a takeover after a kill comes within seconds.
    static let environment: [String: String?] = ["TRAILHEAD_WORKER_LEASE_SECONDS": "1.5"]

    static let agents = """
        {"agents": [{"name": "free-days", "instructions": "You tell the user which days their calendar leaves free.",
                     "tools": ["calendarFreeDays"], "maxTurns": 4},
                    {"name": "scheduler", "instructions": "You add the user's plans to a calendar file.",
                     "tools": ["calendarAddEvents"], "maxTurns": 4}]}
        """

    /// A server on `postgres` with the agents above and a scripted model whose turns are `script`.
    static func serve(_ postgres: TestPostgres, script: [String], environment: [String: String?] = environment) throws -> ServeProcess {
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(agents, to: folder + "/agents.json")
        try ServeFixtures.write(script.joined(separator: "\n"), to: folder + "/script.jsonl")
        return try ServeProcess(["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url], environment: environment)
    }

    /// The scheduler's call: one all-day event written to `file`.
    static func addEvent(to file: String) -> String {
        let arguments: GeneratedContent = ["file": .string(file), "events": [["summary": "Hike to Gaflei", "start": "2026-12-06", "end": "2026-12-06", "allDay": true]]]
        return GeneratedContent.object(["text": .string(LanguageModelSession.stepText(calling: "calendarAddEvents", arguments: arguments))]).jsonString
    }

    func testABackgroundRunIsQueuedAtOnceCompletesAndReplaysItsEventsFromAnyPoint() async throws {
        let postgres = try TestPostgres()
        let serve = try Self.serve(postgres, script: [
            ServeFixtures.call("2026-12-01", "2026-12-07"), ServeFixtures.final("You are free on Sunday 6 December."), ServeFixtures.final("You are welcome."),
        ])

        let queued = try serve.post("/responses", ["model": "free-days", "input": "When am I free?", "background": true])
        XCTAssertEqual(queued.status, 200, "\(queued.body)")
        XCTAssertEqual(queued.body["status"]?.stringValue, "queued")
        XCTAssertEqual(queued.body["object"]?.stringValue, "response")
        let id = try XCTUnwrap(queued.body["id"]?.stringValue)
        XCTAssertTrue(id.hasPrefix("resp_bg"))

        let done = try await Self.waitForStatus(serve, id, ["completed"])
        XCTAssertEqual(done["output"]?.arrayValue?.last?["content"]?.arrayValue?.first?["text"]?.stringValue, "You are free on Sunday 6 December.", "\(done)")
        XCTAssertEqual(done["background"]?.boolValue, true)
        // The conversation goes on from the completed run like any response.
        let next = try XCTUnwrap(done["trailhead"]?["response_id"]?.stringValue)
        XCTAssertTrue(next.hasPrefix("resp_"), "\(done)")

        // The whole stream: numbered from 0 without a gap, the tool's call among the events, the end last.
        let all = try await Self.events(serve, id, after: nil)
        XCTAssertEqual(all.map { $0["sequence_number"]?.intValue }, Array(0..<all.count).map { $0 }, "\(all)")
        XCTAssertEqual(all.first?["type"]?.stringValue, "response.created")
        XCTAssertEqual(all.last?["type"]?.stringValue, "response.completed")
        let calls = all.filter { $0["type"]?.stringValue == "response.output_item.done" }
        XCTAssertEqual(calls.map { $0["item"]?["name"]?.stringValue }, ["calendarFreeDays"])
        // From any point: exactly the events after it, no gap, no duplicate.
        guard all.count >= 4 else { return XCTFail("too few events: \(all)") }
        for after in [0, 1, all.count - 2] {
            let tail = try await Self.events(serve, id, after: after)
            XCTAssertEqual(tail, Array(all[(after + 1)...]), "starting_after=\(after)")
        }
        // A client continues from the background response's own id, as from any response.
        let thanks = try serve.post("/responses", ["model": "free-days", "input": "Thanks", "previous_response_id": .string(id)])
        XCTAssertEqual(thanks.status, 200, "\(thanks.body)")
        XCTAssertEqual(thanks.body["trailhead"]?["answer"]?.stringValue, "You are welcome.")
        XCTAssertEqual(thanks.body["trailhead"]?["session"]?.stringValue, done["trailhead"]?["session"]?.stringValue, "the same conversation")

        // And the transcript reached the session store once.
        let session = try XCTUnwrap(done["trailhead"]?["session"]?.stringValue)
        XCTAssertEqual(try postgres.query("SELECT count(*) FROM trailhead_entries WHERE session = '\(session)'"), "\(thanks.body["trailhead"]?["entries"]?.intValue ?? -1)")
        XCTAssertEqual(try postgres.query("SELECT count(*) FROM trailhead_entries WHERE session = '\(session)' AND entry->>'kind' = 'response'"), "2", "each response's entries once")
    }

    func testCancellingAQueuedRunAndARunInProgress() async throws {
        let postgres = try TestPostgres()
        // The first turn takes the "model" 20 s: the run is in progress when it is cancelled.
        let serve = try Self.serve(postgres, script: [ServeFixtures.call("2026-12-01", "2026-12-07", delayMs: 20000), ServeFixtures.final("Free on Sunday.")])

        let slow = try XCTUnwrap(try serve.post("/responses", ["model": "free-days", "input": "When am I free?", "background": true]).body["id"]?.stringValue)
        _ = try await Self.waitForStatus(serve, slow, ["in_progress"])
        // The one worker is busy: a second run waits in the queue, and is cancelled there at once.
        let waiting = try XCTUnwrap(try serve.post("/responses", ["model": "free-days", "input": "And next week?", "background": true]).body["id"]?.stringValue)
        let cancelledQueued = try serve.post("/responses/\(waiting)/cancel", [:])
        XCTAssertEqual(cancelledQueued.status, 200, "\(cancelledQueued.body)")
        XCTAssertEqual(cancelledQueued.body["status"]?.stringValue, "cancelled")

        // The run in progress stops at its worker's next heartbeat.
        let cancelling = try serve.post("/responses/\(slow)/cancel", [:])
        XCTAssertEqual(cancelling.status, 200, "\(cancelling.body)")
        _ = try await Self.waitForStatus(serve, slow, ["cancelled"])
        let events = try await Self.events(serve, slow, after: nil)
        XCTAssertEqual(events.last?["type"]?.stringValue, "response.cancelled")
        XCTAssertFalse(events.contains { $0["type"]?.stringValue == "response.completed" })
        // A finished run cannot be cancelled again; an unknown one is 404.
        XCTAssertEqual(try serve.post("/responses/\(slow)/cancel", [:]).body["status"]?.stringValue, "cancelled")
        XCTAssertEqual(try serve.post("/responses/resp_bgnothing/cancel", [:]).status, 404)
        XCTAssertEqual(try serve.post("/responses/\(waiting)/approve", ["call_id": "call_x_0"]).status, 409)
    }

    func testCancellingARunWhileItsToolHangsEndsItBeforeTheToolsTimeout() async throws {
        let postgres = try TestPostgres()
        let folder = try Scratch.newFolder()
        // The fixture plugin's `hang` never returns; its manifest gives a call 10 s.
        let agent = try BuildProducts.path("agent")
        let plugins = folder + "/plugins", manifests = folder + "/manifests"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: manifests, withIntermediateDirectories: true)
        let library = URL(fileURLWithPath: agent).deletingLastPathComponent().appendingPathComponent("libFixtureTool.so").path
        try FileManager.default.copyItem(atPath: library, toPath: plugins + "/libFixtureTool.so")
        let registered = try ChildProcess.run(agent, ["tools", "register", plugins + "/libFixtureTool.so", "--plugins", plugins, "--manifests", manifests], timeLimit: 60)
        XCTAssertEqual(registered.status, 0, registered.stderr)
        try ServeFixtures.write("""
            {"agents": [{"name": "stuck", "instructions": "You wait.", "tools": ["hang"], "maxTurns": 3}]}
            """, to: folder + "/agents.json")
        let call = GeneratedContent.object(["text": .string(LanguageModelSession.stepText(calling: "hang", arguments: [:]))]).jsonString
        try ServeFixtures.write([call, ServeFixtures.final("Done.")].joined(separator: "\n"), to: folder + "/script.jsonl")
        let serve = try ServeProcess(
            ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url, "--plugins", plugins, "--manifests", manifests],
            environment: Self.environment)

        let id = try XCTUnwrap(try serve.post("/responses", ["model": "stuck", "input": "Wait for me", "background": true]).body["id"]?.stringValue)
        try await waitUntil("the call of hang started") {
            try postgres.query("SELECT count(*) FROM trailhead_run_steps WHERE run = '\(id)' AND key LIKE 'started:%'") == "1"
        }
        let asked = monotonicSeconds()
        XCTAssertEqual(try serve.post("/responses/\(id)/cancel", [:]).status, 200)
        let cancelled = try await Self.waitForStatus(serve, id, ["cancelled", "failed", "completed"], timeout: 30)
        XCTAssertEqual(cancelled["status"]?.stringValue, "cancelled", "\(cancelled)")
        XCTAssertLessThan(monotonicSeconds() - asked, 10, "the hanging call was stopped, not waited for until its timeout")
        let events = try await Self.events(serve, id, after: nil)
        XCTAssertEqual(events.last?["type"]?.stringValue, "response.cancelled")
        // The call's record says it was cancelled (a resumed run would not run it again as if new).
        let outcome = try postgres.query("SELECT outcome->>'error' FROM trailhead_run_steps WHERE run = '\(id)' AND key LIKE 'call_%'")
        XCTAssertEqual(outcome, "the call of tool 'hang' was cancelled")
    }

    func testAnApprovalWaitsAcrossARestartOfEveryProcessAndTheToolRunsOnce() async throws {
        let postgres = try TestPostgres()
        let folder = try Scratch.newFolder()
        let file = folder + "/trip.ics"
        try ServeFixtures.write(Self.agents, to: folder + "/agents.json")
        try ServeFixtures.write([Self.addEvent(to: file), ServeFixtures.final("Your hike is in trip.ics.")].joined(separator: "\n"), to: folder + "/script.jsonl")
        let arguments = ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url]

        var serve = try ServeProcess(arguments, environment: Self.environment)
        let id = try XCTUnwrap(try serve.post("/responses", ["model": "scheduler", "input": "Add my hike on Sunday", "background": true]).body["id"]?.stringValue)
        let waiting = try await Self.waitForStatus(serve, id, ["requires_action"])
        let request = try XCTUnwrap(waiting["output"]?.arrayValue?.first, "\(waiting)")
        XCTAssertEqual(request["type"]?.stringValue, "tool_approval_request")
        XCTAssertEqual(request["name"]?.stringValue, "calendarAddEvents")
        XCTAssertEqual(try GeneratedContent(json: request["arguments"]?.stringValue ?? "")["file"]?.stringValue, file)
        let call = try XCTUnwrap(request["call_id"]?.stringValue)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing written before the approval")

        // Every process stops; a new one starts on the same database, and the approval comes to it.
        serve.stop()
        serve = try ServeProcess(arguments, environment: Self.environment)
        let approved = try serve.post("/responses/\(id)/approve", ["call_id": .string(call)])
        XCTAssertEqual(approved.status, 200, "\(approved.body)")
        let done = try await Self.waitForStatus(serve, id, ["completed"])
        XCTAssertEqual(done["trailhead"]?["answer"]?.stringValue, "Your hike is in trip.ics.", "\(done)")
        XCTAssertEqual(try Self.events(inFile: file), 1, "the approved call ran once")
        XCTAssertEqual(try serve.post("/responses/\(id)/approve", ["call_id": .string(call)]).status, 409, "approved once")
    }

    func testARunWhoseWorkerIsKilledRightAfterAToolCallCompletesOnAnotherWithoutRunningItAgain() async throws {
        let postgres = try TestPostgres()
        let folder = try Scratch.newFolder()
        let file = folder + "/trip.ics"
        try ServeFixtures.write(Self.agents, to: folder + "/agents.json")
        // After the call the "model" takes 5 s: the worker is killed in between.
        try ServeFixtures.write([Self.addEvent(to: file), ServeFixtures.final("Your hike is in trip.ics.", delayMs: 5000)].joined(separator: "\n"),
                                to: folder + "/script.jsonl")
        let arguments = ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url]

        let first = try ServeProcess(arguments, environment: Self.environment)
        let id = try XCTUnwrap(try first.post("/responses", ["model": "scheduler", "input": "Add my hike on Sunday", "background": true]).body["id"]?.stringValue)
        let waiting = try await Self.waitForStatus(first, id, ["requires_action"])
        let call = try XCTUnwrap(waiting["output"]?.arrayValue?.first?["call_id"]?.stringValue)
        // The approval comes from the command line, straight to the database.
        let agent = try BuildProducts.path("agent")
        let shown = try ChildProcess.run(agent, ["runs", "show", id, "--store", postgres.url], timeLimit: 60)
        XCTAssertEqual(try GeneratedContent(json: shown.stdout)["pending"]?["call_id"]?.stringValue, call, shown.stderr)
        let wrong = try ChildProcess.run(agent, ["runs", "approve", id, "call_other_0", "--store", postgres.url], timeLimit: 60)
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stderr.contains("it waits for \(call)"), wrong.stderr)
        let approved = try ChildProcess.run(agent, ["runs", "approve", id, call, "--store", postgres.url], timeLimit: 60)
        XCTAssertEqual(approved.status, 0, approved.stderr)
        try await waitUntil("the call's outcome is recorded") {
            try postgres.query("SELECT count(*) FROM trailhead_run_steps WHERE run = '\(id)' AND key = '\(call)'") == "1"
        }
        first.kill()
        XCTAssertEqual(try Self.events(inFile: file), 1)

        // Another process takes the run over once the lease lapsed and goes on from the recorded
        // steps: the model's first turn and the call's outcome are replayed, the final turn is asked
        // for (the script's second output, its 5 s included).
        let second = try ServeProcess(arguments, environment: Self.environment)
        let done = try await Self.waitForStatus(second, id, ["completed"], timeout: 60)
        XCTAssertEqual(done["trailhead"]?["answer"]?.stringValue, "Your hike is in trip.ics.", "\(done)")
        XCTAssertEqual(try Self.events(inFile: file), 1, "the tool did not run again")
        XCTAssertEqual(try postgres.query("SELECT count(*) FROM trailhead_run_steps WHERE run = '\(id)' AND key LIKE 'started:%'"), "1")
        let events = try await Self.events(second, id, after: nil)
        XCTAssertEqual(events.filter { $0["type"]?.stringValue == "response.output_item.done" }.count, 1, "the call is in the stream once")
    }

    func testARestartOfPostgreSQLMidRunDelaysTheRunAndRepeatsNoCall() async throws {
        let postgres = try TestPostgres()
        // The first turn takes 2.5 s: the restart lands inside it.
        let serve = try Self.serve(postgres, script: [ServeFixtures.call("2026-12-01", "2026-12-07", delayMs: 2500), ServeFixtures.final("You are free on Sunday 6 December.")])
        let id = try XCTUnwrap(try serve.post("/responses", ["model": "free-days", "input": "When am I free?", "background": true]).body["id"]?.stringValue)
        _ = try await Self.waitForStatus(serve, id, ["in_progress"])
        try postgres.stop()
        try await Task.sleep(nanoseconds: 1_000_000_000)
        try postgres.start()

        let done = try await Self.waitForStatus(serve, id, ["completed"], timeout: 60)
        XCTAssertEqual(done["trailhead"]?["answer"]?.stringValue, "You are free on Sunday 6 December.", "\(done)")
        XCTAssertEqual(try postgres.query("SELECT count(*) FROM trailhead_run_steps WHERE run = '\(id)' AND key LIKE 'started:%'"), "1", "the call ran once")
        let events = try await Self.events(serve, id, after: nil)
        XCTAssertEqual(events.map { $0["sequence_number"]?.intValue }, Array(0..<events.count).map { $0 })
        XCTAssertEqual(events.filter { $0["type"]?.stringValue == "response.output_item.done" }.count, 1)
    }

    func testAStreamWhoseStoreStaysUnreadableEndsWithAnErrorThatSaysWhereToGoOn() async throws {
        let postgres = try TestPostgres()
        // The first turn takes 6 s: the store goes away inside it.
        var environment = Self.environment
        environment["TRAILHEAD_STORE_TIMEOUT_SECONDS"] = "2"
        let serve = try Self.serve(postgres, script: [ServeFixtures.call("2026-12-01", "2026-12-07", delayMs: 6000), ServeFixtures.final("You are free on Sunday 6 December.")], environment: environment)
        let id = try XCTUnwrap(try serve.post("/responses", ["model": "free-days", "input": "When am I free?", "background": true]).body["id"]?.stringValue)
        _ = try await Self.waitForStatus(serve, id, ["in_progress"])

        let baseURL = serve.baseURL
        let reading = Task { [baseURL, id] in try await BackgroundRunTests.events(at: baseURL, id, after: nil) }
        try await Task.sleep(nanoseconds: 500_000_000)
        try postgres.stop()
        let started = monotonicSeconds()
        let cut = try await reading.value
        let waited = monotonicSeconds() - started
        // Before: an unreadable store read as "no events yet", and the stream went silent for good.
        let last = try XCTUnwrap(cut.last, "the stream ended with nothing")
        XCTAssertEqual(last["type"]?.stringValue, "error", "\(cut)")
        let message = last["message"]?.stringValue ?? ""
        XCTAssertTrue(message.contains("store has not been readable for 2 s"), message)
        let seen = cut.dropLast().last?["sequence_number"]?.intValue ?? -1
        XCTAssertTrue(message.contains("starting_after=\(seen)"), "it says where to go on from: \(message)")
        XCTAssertLessThan(waited, 20, "the stream ended after the store's timeout, not the client's")

        // The store back, the response completes and the stream goes on from where it was cut.
        try postgres.start()
        _ = try await Self.waitForStatus(serve, id, ["completed"], timeout: 60)
        let rest = try await Self.events(serve, id, after: seen)
        XCTAssertEqual(rest.first?["sequence_number"]?.intValue, seen + 1, "\(rest)")
        XCTAssertEqual(rest.last?["type"]?.stringValue, "response.completed")
    }

    func testABackgroundRunEndsWithTheClientsFunctionCallsAndTheClientContinuesWithTheirOutputs() async throws {
        let postgres = try TestPostgres()
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(Self.agents, to: folder + "/agents.json")
        let weather = ToolCallRequest(tool: "get_weather", arguments: ["city": "Paris"])
        try ServeFixtures.write([
            GeneratedContent.object(["text": .string(LanguageModelSession.stepText(calling: [weather]))]).jsonString,
            ServeFixtures.final("It is 18 degrees in Paris."),
        ].joined(separator: "\n"), to: folder + "/script.jsonl")
        let serve = try ServeProcess(
            ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url], environment: Self.environment)
        let function: GeneratedContent = [
            "type": "function", "name": "get_weather", "description": "The weather in a city.",
            "parameters": ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]],
        ]
        let queued = try serve.post("/responses", ["model": "local", "input": "Weather in Paris?", "tools": [function], "background": true])
        XCTAssertEqual(queued.status, 200, "\(queued.body)")
        let id = try XCTUnwrap(queued.body["id"]?.stringValue)

        // The run completes with the call for the client to run, as a response in the request does.
        let done = try await Self.waitForStatus(serve, id, ["completed", "failed"])
        let call = try XCTUnwrap(done["output"]?.arrayValue?.first { $0["type"]?.stringValue == "function_call" }, "\(done)")
        XCTAssertEqual(call["name"]?.stringValue, "get_weather")
        XCTAssertEqual(try GeneratedContent(json: call["arguments"]?.stringValue ?? ""), ["city": "Paris"])
        let callID = try XCTUnwrap(call["call_id"]?.stringValue)
        let events = try await Self.events(serve, id, after: nil)
        XCTAssertEqual(events.last?["type"]?.stringValue, "response.completed")
        XCTAssertEqual(events.last?["response"]?["output"], done["output"], "the stream ends with the response and its call")
        XCTAssertFalse(events.contains { $0["item"]?["name"]?.stringValue == "get_weather" }, "no event says the server ran it: \(events)")

        // The client runs it and continues from the background response's id with the output.
        let output: GeneratedContent = [["type": "function_call_output", "call_id": .string(callID), "output": "18 degrees"]]
        let answer = try serve.post("/responses", ["model": "local", "input": output, "tools": [function], "previous_response_id": .string(id)])
        XCTAssertEqual(answer.status, 200, "\(answer.body)")
        XCTAssertEqual(answer.body["trailhead"]?["answer"]?.stringValue, "It is 18 degrees in Paris.")
        // The continuation's prompt is the client's output, read as the loop feeds results back.
        let session = try XCTUnwrap(answer.body["trailhead"]?["session"]?.stringValue)
        XCTAssertEqual(try postgres.query(
            "SELECT count(*) FROM trailhead_entries WHERE session = '\(session)' AND entry->>'kind' = 'prompt' AND entry->>'text' LIKE '%get_weather%18 degrees%'"), "1")
    }

    func testAWorkerProcessRunsTheRunsOfAServerThatRunsNone() async throws {
        let postgres = try TestPostgres()
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(Self.agents, to: folder + "/agents.json")
        try ServeFixtures.write([ServeFixtures.call("2026-12-01", "2026-12-07"), ServeFixtures.final("You are free on Sunday 6 December.")]
            .joined(separator: "\n"), to: folder + "/script.jsonl")
        let arguments = ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url]
        let serve = try ServeProcess(arguments + ["--no-worker"], environment: Self.environment)
        let id = try XCTUnwrap(try serve.post("/responses", ["model": "free-days", "input": "When am I free?", "background": true]).body["id"]?.stringValue)
        let before = try await Self.get(serve.baseURL + "/responses/" + id)
        XCTAssertEqual(before.body["status"]?.stringValue, "queued", "no worker here")

        let log = folder + "/worker.log"
        let worker = try ChildProcess(
            try BuildProducts.path("agent"), ["worker", "--concurrency", "2"] + arguments,
            options: .init(environment: ChildProcess.Options.environment(adding: ["SWIFT_BACKTRACE": "enable=no"]), standardOutput: .file(log), standardError: .file(log)))
        defer {
            _ = worker.signal(SIGTERM)
            _ = worker.wait()
        }
        let done = try await Self.waitForStatus(serve, id, ["completed"])
        XCTAssertEqual(done["trailhead"]?["answer"]?.stringValue, "You are free on Sunday 6 December.", "\(done)\n\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")

        // A folder store has no background runs: a clear refusal, not a queued run nobody runs.
        let plain = try ServeProcess(["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"])
        let refused = try plain.post("/responses", ["model": "free-days", "input": "When am I free?", "background": true])
        XCTAssertEqual(refused.status, 400)
        XCTAssertEqual(refused.body["error"]?["code"]?.stringValue, "background_unavailable")
    }

    func testBadBackgroundRequestsGetClearErrors() async throws {
        let postgres = try TestPostgres()
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(Self.agents, to: folder + "/agents.json")
        try ServeFixtures.write(ServeFixtures.final("Hello."), to: folder + "/script.jsonl")
        let serve = try ServeProcess(
            ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url, "--no-worker"], environment: Self.environment)
        let function: GeneratedContent = ["type": "function", "name": "lookup", "parameters": ["type": "object", "properties": [:]]]
        let refusals: [(GeneratedContent, Int, String)] = [
            (["model": "nobody", "input": "hi", "background": true], 404, "no agent named 'nobody'"),
            (["model": "local", "input": "hi", "background": true, "tools": [function, function]], 400, "tools[1]"),
            (["model": "free-days", "input": "hi", "background": true, "stream": true], 400, "?stream=true"),
        ]
        for (body, status, words) in refusals {
            let answer = try serve.post("/responses", body)
            XCTAssertEqual(answer.status, status, "\(body)")
            XCTAssertTrue(answer.body["error"]?["message"]?.stringValue?.contains(words) == true, "\(answer.body)")
        }
        let id = try XCTUnwrap(try serve.post("/responses", ["model": "free-days", "input": "hi", "background": true]).body["id"]?.stringValue)
        XCTAssertEqual(try serve.post("/responses/\(id)/approve", [:]).status, 400, "no call_id")
        XCTAssertEqual(try serve.post("/responses/\(id)/approve", ["call_id": "call_x_0"]).status, 409, "it waits for no call")
        XCTAssertEqual(try serve.post("/responses/\(id)/pause", [:]).status, 404)
        for (path, status) in [
            ("/responses/\(id)?stream=true&starting_after=soon", 400), ("/responses/resp_bg0000?stream=true", 404),
            ("/responses/../../etc/passwd", 404), ("/responses/resp_abc_3", 404),  // a conversation's response id is no background run
        ] {
            let answer = try await Self.get(serve.baseURL + path)
            XCTAssertEqual(answer.status, status, "\(path): \(answer.body)")
        }
        let continued = try serve.post("/responses", ["model": "free-days", "input": "hi", "previous_response_id": .string(id)])
        XCTAssertEqual(continued.status, 400, "a queued response cannot be continued yet")
        XCTAssertEqual(continued.body["error"]?["param"]?.stringValue, "previous_response_id")
        // And the server goes on serving.
        let still = try await Self.get(serve.baseURL + "/responses/\(id)")
        XCTAssertEqual(still.body["status"]?.stringValue, "queued")
    }

    // MARK: - Helpers

    static func events(inFile path: String) throws -> Int {
        try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "BEGIN:VEVENT").count - 1
    }

    static func get(_ url: String) async throws -> (status: Int, body: GeneratedContent) {
        let answer = try await HTTPClient.fetch(.init(url: url, idleSeconds: 30, totalSeconds: 60))
        return (answer.status, (try? GeneratedContent(json: Data(answer.body))) ?? .string(String(decoding: answer.body, as: UTF8.self)))
    }

    /// Polls `GET /v1/responses/{id}` until its status is one of `statuses`.
    static func waitForStatus(_ serve: ServeProcess, _ id: String, _ statuses: Set<String>, timeout: Double = 30) async throws -> GeneratedContent {
        let deadline = monotonicSeconds() + timeout
        var last: GeneratedContent = .null
        while monotonicSeconds() < deadline {
            let answer = try await get(serve.baseURL + "/responses/" + id)
            last = answer.body
            if let status = answer.body["status"]?.stringValue, statuses.contains(status) { return answer.body }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        XCTFail("\(id) never reached \(statuses.sorted()): \(last)\n\(serve.output)")
        throw ServeProcess.Failure(description: "timed out")
    }

    /// The run's stream (`?stream=true`, from `starting_after` when given) until the server closes it.
    static func events(_ serve: ServeProcess, _ id: String, after: Int?) async throws -> [GeneratedContent] {
        try await events(at: serve.baseURL, id, after: after)
    }

    static func events(at baseURL: String, _ id: String, after: Int?) async throws -> [GeneratedContent] {
        let url = baseURL + "/responses/\(id)?stream=true" + (after.map { "&starting_after=\($0)" } ?? "")
        var parser = ServerSentEventParser()
        var events: [GeneratedContent] = []
        for try await event in HTTPClient.stream(.init(url: url, idleSeconds: 30, totalSeconds: 60)) {
            guard case .body(let piece) = event else { continue }
            events += try parser.feed(piece).map { try GeneratedContent(json: $0) }
        }
        return events
    }
}
