import Foundation
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// A worker cut off from PostgreSQL by a real network partition: the worker runs in a network
/// namespace the test makes, reaching the database over a veth link the test takes down in the
/// middle of a run (packets lost, connections left open, as when a switch or a VM's network dies).
final class NetworkPartitionTests: XCTestCase {
    func testAWorkerCutOffPastItsLeaseLosesTheRunAndBackOnlineWritesNothingForIt() async throws {
        let namespace = try NetworkNamespace()
        let postgres = try TestPostgres(alsoListeningOn: [namespace.hostAddress])
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        // The second model turn takes 3 s: the link goes down during it. One output more than a
        // run needs, for the second run below (a worker's script goes on where it stopped).
        try ServeFixtures.write([
            ServeFixtures.call("2026-12-01", "2026-12-07"), ServeFixtures.call("2026-12-08", "2026-12-14", delayMs: 3000),
            ServeFixtures.final("You are free on Sunday 6 December."), ServeFixtures.final("You are free on Sunday 6 December."),
        ].joined(separator: "\n"), to: folder + "/script.jsonl")
        let common = ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl"]
        var environment = BackgroundRunTests.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let serve = try ServeProcess(common + ["--store", postgres.url, "--no-worker"], environment: BackgroundRunTests.environment)

        let agent = try BuildProducts.path("agent")
        let inside = "postgresql://postgres@\(namespace.hostAddress):\(postgres.port)/postgres"
        let cutLog = folder + "/cut-off-worker.log"
        let cutOff = try namespace.start(agent, ["worker"] + common + ["--store", inside], environment: environment, log: cutLog)
        defer {
            _ = cutOff.signal(SIGKILL)
            _ = cutOff.wait()
        }
        func cutOffOutput() -> String { (try? String(contentsOfFile: cutLog, encoding: .utf8)) ?? "" }

        let id = try XCTUnwrap(try serve.post("/responses", ["model": "free-days", "input": "When am I free?", "background": true]).body["id"]?.stringValue)
        // The worker in the namespace runs it; once the first call's outcome is recorded (the model
        // then takes 3 s), the link goes down.
        try await waitUntil("the worker in the namespace has recorded the first call") {
            try postgres.query("SELECT count(*) FROM trailhead_run_steps WHERE run = '\(id)' AND key NOT LIKE 'model:%'") != "0"
        }
        XCTAssertEqual(try postgres.query("SELECT lease_owner FROM trailhead_runs WHERE id = '\(id)'").split(separator: ":").last.map(String.init),
                       "\(cutOff.pid)", cutOffOutput())
        try namespace.cut()

        // A worker on the host takes the run over once the lease lapsed, and completes it.
        let hostLog = folder + "/host-worker.log"
        let host = try ChildProcess(
            agent, ["worker"] + common + ["--store", postgres.url],
            options: .init(environment: ChildProcess.Options.environment(adding: environment), standardOutput: .file(hostLog), standardError: .file(hostLog)))
        let done = try await BackgroundRunTests.waitForStatus(serve, id, ["completed"], timeout: 60)
        XCTAssertEqual(done["trailhead"]?["answer"]?.stringValue, "You are free on Sunday 6 December.", "\(done)")
        XCTAssertEqual(try postgres.query("SELECT lease_token FROM trailhead_runs WHERE id = '\(id)'"), "2", "taken over once")
        func record() throws -> String {
            try postgres.query("""
                SELECT (SELECT count(*) FROM trailhead_run_events WHERE run = '\(id)') || ' events; steps '
                    || (SELECT string_agg(key, ',' ORDER BY key) FROM trailhead_run_steps WHERE run = '\(id)') || '; '
                    || (SELECT status || ' ' || md5(response::text) FROM trailhead_runs WHERE id = '\(id)')
                """)
        }
        let completed = try record()
        _ = host.signal(SIGTERM)
        _ = host.wait()

        // Back online, the cut-off worker finds its lease gone: what it had in flight for the run
        // is refused. It is healthy: it runs the next run queued (the only worker left: the host's
        // is stopped, the server runs none), and the first run is as the worker that completed it
        // left it.
        try namespace.mend()
        let next = try XCTUnwrap(try serve.post("/responses", ["model": "free-days", "input": "And next week?", "background": true]).body["id"]?.stringValue)
        let second = try await BackgroundRunTests.waitForStatus(serve, next, ["completed", "failed"], timeout: 90)
        XCTAssertEqual(second["status"]?.stringValue, "completed", "\(second)\n\(cutOffOutput())")
        XCTAssertEqual(try record(), completed, "the cut-off worker wrote nothing for the run it lost")
        let events = try await BackgroundRunTests.events(serve, id, after: nil)
        XCTAssertEqual(events.map { $0["sequence_number"]?.intValue }, Array(0..<events.count).map { $0 })
        XCTAssertEqual(events.filter { $0["type"]?.stringValue == "response.completed" }.count, 1)
    }
}
