import Foundation
import TrailheadAgent
import TrailheadPostgres
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// Two `agent serve` replicas sharing a real PostgreSQL (a cluster the test starts): a replica
/// killed mid-conversation, and the database restarted mid-run.
final class ReplicaTests: XCTestCase {
    func testAConversationGoesOnOnTheSecondReplicaAfterTheFirstWasKilledMidAnswer() throws {
        let postgres = try TestPostgres()
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        // Outputs by the conversation's model turn: a call and an answer; then an answer that takes
        // the "model" 2 s (the first replica dies before it; the second replica's turn is the
        // same turn of the conversation, so it replays the same output); then one more.
        try ServeFixtures.write([
            ServeFixtures.call("2026-12-01", "2026-12-07"), ServeFixtures.final("You are free on Sunday 6 December."),
            ServeFixtures.final("The weekend of the 12th is free too.", delayMs: 2000), ServeFixtures.final("You are welcome."),
        ].joined(separator: "\n"), to: folder + "/script.jsonl")
        let arguments = ["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url]
        let first = try ServeProcess(arguments)
        let second = try ServeProcess(arguments)

        // Given a conversation answered by the first replica…
        let opened = try first.post("/responses", ["model": "free-days", "input": "When am I free?"])
        XCTAssertEqual(opened.status, 200, "\(opened.body)")
        let previous = try XCTUnwrap(opened.body["id"]?.stringValue)
        let session = try XCTUnwrap(opened.body["trailhead"]?["session"]?.stringValue)

        // …when the first replica is killed while it answers the next message…
        let request: GeneratedContent = ["model": "free-days", "input": "And the weekend?", "previous_response_id": .string(previous)]
        let cut = Locked<Int?>(nil)
        let firstURL = first.baseURL
        let inFlight = Thread {
            let status = (try? ServeProcess.post(firstURL + "/responses", request, timeout: 20))?.status
            cut.withLock { $0 = status }
        }
        inFlight.start()
        try waitUntil("the first replica stored the prompt") { try postgres.query("SELECT count(*) FROM trailhead_entries WHERE session = '\(session)'") == "8" }
        first.kill()

        // …the client sends it again to the other replica, which continues from the last complete entry.
        let continued = try second.post("/responses", request)
        XCTAssertEqual(continued.status, 200, "\(continued.body)\n\(second.output)")
        XCTAssertEqual(continued.body["output"]?.arrayValue?.first?["content"]?.arrayValue?.first?["text"]?.stringValue, "The weekend of the 12th is free too.")
        XCTAssertEqual(continued.body["trailhead"]?["session"]?.stringValue, session, "the same conversation, not a new one")
        XCTAssertNil(cut.current.flatMap { $0 == 200 ? $0 : nil }, "the killed replica never answered")

        // The stored transcript: the first answer, the cut-off prompt, then the second replica's answer.
        let stored = try XCTUnwrap(try PostgresSessionStore(url: postgres.url).load(session))
        XCTAssertEqual(stored.transcript.map(\.kind), [
            .instructions, .prompt, .modelTurn, .toolCall, .toolOutput, .modelTurn, .response,
            .prompt,
            .prompt, .modelTurn, .response,
        ])
        // And the conversation goes on from the second answer, on the second replica.
        let third = try second.post("/responses", ["model": "free-days", "input": "Thanks", "previous_response_id": continued.body["id"]!])
        XCTAssertEqual(third.status, 200, "\(third.body)")
        XCTAssertEqual(third.body["trailhead"]?["answer"]?.stringValue, "You are welcome.")
    }

    func testARestartOfPostgreSQLMidRunLosesNothingAcknowledged() throws {
        let postgres = try TestPostgres()
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        // Each conversation's first turn takes 1.5 s, long enough for the restart to land inside it.
        try ServeFixtures.write([
            ServeFixtures.call("2026-12-01", "2026-12-07", delayMs: 1500), ServeFixtures.final("You are free on Sunday 6 December."),
            ServeFixtures.final("The weekend of the 12th is free too."),
        ].joined(separator: "\n"), to: folder + "/script.jsonl")
        let serve = try ServeProcess(["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", postgres.url])

        // Given four conversations under way…
        let answers = Locked<[Int: (status: Int, body: GeneratedContent)]>([:])
        let url = serve.baseURL
        let threads = (0..<4).map { index in
            Thread {
                let answer = (try? ServeProcess.post(url + "/responses", ["model": "free-days", "input": "When am I free?"], timeout: 60)) ?? (0, .null)
                answers.withLock { $0[index] = answer }
            }
        }
        threads.forEach { $0.start() }
        try waitUntil("the conversations started") { try postgres.query("SELECT count(*) FROM trailhead_entries") == "8" }
        // …PostgreSQL restarts while their models are still answering.
        try postgres.stop()
        Thread.sleep(forTimeInterval: 1.5)
        try postgres.start()
        try waitUntil("every conversation answered", timeout: 60) { answers.current.count == 4 }

        let retried = answers.current.values.map { $0.body["trailhead"]?["storeRetries"]?.intValue ?? 0 }.reduce(0, +)
        XCTAssertGreaterThan(retried, 0, "entries met the stopped database and were written after it came back")
        let store = try PostgresSessionStore(url: postgres.url)
        for (index, answer) in answers.current.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(answer.status, 200, "conversation \(index): \(answer.body)\n\(serve.output)")
            // Everything an acknowledged response holds is in the store, complete.
            let session = try XCTUnwrap(answer.body["trailhead"]?["session"]?.stringValue)
            let stored = try XCTUnwrap(try store.load(session))
            XCTAssertEqual(stored.transcript.count, answer.body["trailhead"]?["entries"]?.intValue)
            XCTAssertEqual(stored.transcript.last?.kind, .response)
            // And each goes on after the restart.
            let next = try serve.post("/responses", ["model": "free-days", "input": "And the weekend?", "previous_response_id": answer.body["id"]!])
            XCTAssertEqual(next.status, 200, "\(next.body)")
        }
    }
}
