import Foundation
import TrailheadAgent
import TrailheadPostgres
import TrailheadSchema
import XCTest

/// The run store on a real PostgreSQL (a cluster the test starts): claims, leases and fencing.
final class PostgresRunStoreTests: XCTestCase {
    func testALapsedLeaseIsTakenOverAndTheOldWorkersWritesAreRefused() throws {
        let postgres = try TestPostgres()
        let runs = try PostgresRunStore(url: postgres.url)
        try runs.migrate()
        try runs.migrate()  // every process migrates at start: a second time changes nothing
        try runs.enqueue(id: "resp_bgone", session: "s1", request: ["model": "m", "input": "hi"], event: ["type": "response.created"])

        // Worker A claims the run with a lease that has lapsed at once (it stands for a worker cut off
        // from the database longer than its lease)…
        let first = try XCTUnwrap(try runs.claim(owner: "A", leaseSeconds: 0))
        XCTAssertEqual(first.run.status, .inProgress)
        // …so worker B takes the run over, with the next token.
        let second = try XCTUnwrap(try runs.claim(owner: "B", leaseSeconds: 60), "a lapsed lease is claimable")
        XCTAssertEqual(second.token, first.token + 1)
        XCTAssertNil(try runs.claim(owner: "C", leaseSeconds: 60), "a held lease is not")

        // A, back, is fenced: a checkpoint, an extension and a finish of its are refused and leave nothing.
        XCTAssertThrowsError(try runs.record(first, key: "model:0", outcome: ["text": "from A"], event: ["type": "x"])) { error in
            XCTAssertEqual((error as? SessionStoreError)?.kind, .conflict)
        }
        XCTAssertThrowsError(try runs.extend(first, leaseSeconds: 60))
        XCTAssertThrowsError(try runs.finish(first, status: .completed, response: ["id": "resp_bgone"], event: ["type": "response.completed"]))

        // B's writes hold.
        try runs.record(second, key: "model:0", outcome: ["text": "from B"], event: ["type": "response.output_item.done"])
        try runs.record(second, key: "model:0", outcome: ["text": "again"])  // a recorded step keeps its first outcome
        XCTAssertEqual(try runs.steps("resp_bgone"), ["model:0": ["text": "from B"]])
        XCTAssertFalse(try runs.extend(second, leaseSeconds: 60), "no cancel asked for")
        try runs.finish(second, status: .completed, response: ["id": "resp_bgone", "status": "completed"], event: ["type": "response.completed"])
        XCTAssertEqual(try runs.load("resp_bgone")?.status, .completed)

        // The events: numbered 0, 1, 2… without a gap, A's write among none of them.
        let events = try runs.events("resp_bgone", after: -1)
        XCTAssertEqual(events.map { $0["sequence_number"]?.intValue }, Array(0..<events.count).map { $0 })
        XCTAssertEqual(events.map { $0["type"]?.stringValue }, [
            "response.created", "response.in_progress", "response.in_progress", "response.output_item.done", "response.completed",
        ])
        XCTAssertEqual(try runs.events("resp_bgone", after: 2).map { $0["sequence_number"]?.intValue }, [3, 4])
    }

    func testAQueuedRunAndANewEventAreNotifiedToWaiters() throws {
        let postgres = try TestPostgres()
        let runs = try PostgresRunStore(url: postgres.url)
        try runs.migrate()
        let queued = runs.mark(.queued)
        // The listener connects on the first mark; a run queued from another store's connection wakes it.
        var notified = false
        for attempt in 0..<20 where !notified {
            try PostgresRunStore(url: postgres.url).enqueue(id: "resp_bgn\(attempt)", session: "s\(attempt)", request: ["model": "m"], event: ["type": "response.created"])
            runs.wait(for: .queued, after: queued, timeout: 1)
            notified = runs.mark(.queued) != queued
        }
        XCTAssertTrue(notified, "LISTEN trailhead_runs_queued heard the enqueue")
        let events = runs.mark(.events)
        let claim = try XCTUnwrap(try runs.claim(owner: "A", leaseSeconds: 60))
        try runs.record(claim, key: "model:0", outcome: ["text": "hi"], event: ["type": "response.output_item.done"])
        runs.wait(for: .events, after: events, timeout: 10)
        XCTAssertNotEqual(runs.mark(.events), events, "a stored event is notified")
    }

    func testAnApprovalIsRecordedOnceForTheCallTheRunWaitsFor() throws {
        let postgres = try TestPostgres()
        let runs = try PostgresRunStore(url: postgres.url)
        try runs.migrate()
        try runs.enqueue(id: "resp_bgtwo", session: "s2", request: ["model": "m", "input": "hi"], event: ["type": "response.created"])
        let claim = try XCTUnwrap(try runs.claim(owner: "A", leaseSeconds: 60))
        try runs.finish(claim, status: .requiresAction, response: ["status": "requires_action"], pending: ["call_id": "call_x_0"], event: ["type": "response.requires_action"])

        XCTAssertFalse(try runs.decide("resp_bgtwo", callID: "call_other_0", approved: true, event: ["type": "approved"]), "not the call it waits for")
        XCTAssertTrue(try runs.decide("resp_bgtwo", callID: "call_x_0", approved: true, event: ["type": "approved"]))
        XCTAssertFalse(try runs.decide("resp_bgtwo", callID: "call_x_0", approved: false, event: ["type": "rejected"]), "decided already")
        XCTAssertEqual(try runs.load("resp_bgtwo")?.status, .queued, "back in the queue, for any worker")
        XCTAssertEqual(try runs.steps("resp_bgtwo")["approval:call_x_0"], ["approved": true])
    }
}
