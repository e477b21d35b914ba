import Foundation
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// Two `agent serve` replicas sharing a real PostgreSQL behind a real HAProxy (Debian's), as
/// SCALING.md says they run: requests spread over both, server-sent events pass through as they
/// are written, and a client whose replica dies resumes its stream through the balancer.
final class BalancerTests: XCTestCase {
    /// A run of three model turns (two calls, then the answer), each taking the "model" a while:
    /// long enough to kill a replica in the middle of it.
    static func script(turnMs: Int) -> String {
        [
            ServeFixtures.call("2026-12-01", "2026-12-07", delayMs: turnMs), ServeFixtures.call("2026-12-08", "2026-12-14", delayMs: turnMs),
            ServeFixtures.final("You are free on Sunday 6 December.", delayMs: turnMs),
        ].joined(separator: "\n")
    }

    func testRequestsSpreadOverBothReplicasAndEventsPassThroughAsTheyAreWritten() async throws {
        let postgres = try TestPostgres()
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        try ServeFixtures.write(Self.script(turnMs: 1500), to: folder + "/script.jsonl")
        let arguments = ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url]
        let replicas = [try ServeProcess(arguments), try ServeProcess(arguments)]
        let balancer = try HAProxy(replicas: replicas)

        var served: [String] = []
        for _ in 0..<4 {
            let answer = try await balancer.servedBy("/v1/models")
            XCTAssertEqual(answer.status, 200)
            served.append(answer.replica ?? "none")
        }
        XCTAssertEqual(Set(served), ["r1", "r2"], "round robin over both replicas: \(served)")

        // A streamed response through the balancer: its first event arrives while the "model" is
        // still on its first 1.5 s turn, not when the whole answer is done.
        let started = monotonicSeconds()
        var arrivals: [(type: String, seconds: Double)] = []
        var parser = ServerSentEventParser()
        let body: GeneratedContent = ["model": "free-days", "input": "When am I free?", "stream": true]
        let request = HTTPClient.Request(
            url: balancer.baseURL + "/responses", method: "POST", headers: ["Content-Type": "application/json"], body: Array(body.jsonString.utf8),
            idleSeconds: 30, totalSeconds: 60)
        for try await event in HTTPClient.stream(request) {
            guard case .body(let piece) = event else { continue }
            for data in try parser.feed(piece) {
                arrivals.append(((try GeneratedContent(json: data))["type"]?.stringValue ?? "?", monotonicSeconds() - started))
            }
        }
        let created = try XCTUnwrap(arrivals.first { $0.type == "response.created" }, "\(arrivals)")
        let completed = try XCTUnwrap(arrivals.first { $0.type == "response.completed" }, "\(arrivals)")
        XCTAssertLessThan(created.seconds, 1.4, "the first event was held back: \(arrivals)")
        XCTAssertGreaterThan(completed.seconds - created.seconds, 3, "the events came as the run went: \(arrivals)")
    }

    func testAClientWhoseReplicaIsKilledMidStreamResumesThroughTheBalancerAndMissesNoEvent() async throws {
        let postgres = try TestPostgres()
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        try ServeFixtures.write(Self.script(turnMs: 2000), to: folder + "/script.jsonl")
        let arguments = ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url]
        let replicas = [try ServeProcess(arguments, environment: BackgroundRunTests.environment), try ServeProcess(arguments, environment: BackgroundRunTests.environment)]
        let balancer = try HAProxy(replicas: replicas)

        let queued = try ServeProcess.post(balancer.baseURL + "/responses", ["model": "free-days", "input": "When am I free?", "background": true])
        XCTAssertEqual(queued.status, 200, "\(queued.body)")
        let id = try XCTUnwrap(queued.body["id"]?.stringValue)

        // Follow the run through the balancer; after its first two events, kill the replica that
        // streams them (a crash: no goodbye to the client).
        var seen: [GeneratedContent] = []
        var streamer: String?
        var parser = ServerSentEventParser()
        do {
            for try await event in HTTPClient.stream(.init(url: balancer.baseURL + "/responses/\(id)?stream=true", idleSeconds: 30, totalSeconds: 60)) {
                switch event {
                case .head(_, let headers): streamer = headers["x-served-by"]
                case .body(let piece): seen += try parser.feed(piece).map { try GeneratedContent(json: $0) }
                }
                if seen.count >= 2 { break }
            }
        }
        let victim = try XCTUnwrap(streamer.flatMap { Int($0.dropFirst()) }, "HAProxy names the replica")
        XCTAssertNotEqual(seen.last?["type"]?.stringValue, "response.completed", "the run was still going when its replica died")
        let owner = try postgres.query("SELECT lease_owner FROM trailhead_runs WHERE id = '\(id)'")
        let killedItsWorker = owner.hasSuffix(":\(replicas[victim - 1].process.pid)")
        print("BalancerTests: killed r\(victim), which streamed the run and \(killedItsWorker ? "ran it" : "did not run it")")
        replicas[victim - 1].kill()
        let survivor = "r\(3 - victim)"

        // Resume from the last event seen, through the balancer: the other replica answers (the
        // refused connection is retried there, and the health check takes the dead one out), and
        // the run itself goes on there too if the dead replica's worker was running it.
        let last = try XCTUnwrap(seen.last?["sequence_number"]?.intValue)
        var rest: [GeneratedContent] = []
        var resumedBy: String?
        parser = ServerSentEventParser()
        for try await event in HTTPClient.stream(.init(url: balancer.baseURL + "/responses/\(id)?stream=true&starting_after=\(last)", idleSeconds: 30, totalSeconds: 90)) {
            switch event {
            case .head(_, let headers): resumedBy = headers["x-served-by"]
            case .body(let piece): rest += try parser.feed(piece).map { try GeneratedContent(json: $0) }
            }
        }
        XCTAssertEqual(resumedBy, survivor)
        let all = seen + rest
        XCTAssertEqual(all.map { $0["sequence_number"]?.intValue }, Array(0..<all.count).map { $0 }, "every event once, in order: \(all)")
        XCTAssertEqual(all.last?["type"]?.stringValue, "response.completed", "\(all.last ?? .null)\n\(balancer.output)")
        XCTAssertEqual(all.filter { $0["type"]?.stringValue == "response.output_item.done" && $0["item"]?["name"]?.stringValue == "calendarFreeDays" }.count, 2,
                       "both calls in the stream, once each: \(all)")
        if killedItsWorker {
            XCTAssertEqual(try postgres.query("SELECT lease_token FROM trailhead_runs WHERE id = '\(id)'"), "2", "the survivor's worker took the run over")
        }
        // What a client that never disconnected reads from the start is the same.
        let replay = try await BackgroundRunTests.events(replicas[2 - victim], id, after: nil)
        XCTAssertEqual(replay, all)

        // Every request now goes to the survivor.
        for _ in 0..<4 {
            let answer = try await balancer.servedBy("/health")
            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(answer.replica, survivor)
        }
    }
}
