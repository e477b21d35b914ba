import XCTest

@testable import TrailheadModels

/// Each transition of the managed server's lifecycle, without processes.
final class LocalServerLifecycleTests: XCTestCase {
    typealias Server = LocalServerLifecycle.Server
    let a = Server(pid: 100, port: 8100)
    let b = Server(pid: 200, port: 8200)

    func testReusesAUsableRecordedServer() {
        var lifecycle = LocalServerLifecycle()
        XCTAssertEqual(lifecycle.serverNeeded(), .inspectRecordedServer)
        XCTAssertEqual(lifecycle.inspected(a, usable: true), .use(a))
        XCTAssertEqual(lifecycle.serverNeeded(), .use(a), "running: later requests go straight to it")
    }

    func testStartsWhenNothingIsRecorded() {
        var lifecycle = LocalServerLifecycle()
        _ = lifecycle.serverNeeded()
        XCTAssertEqual(lifecycle.inspected(nil, usable: false), .start(attempt: 1))
        XCTAssertEqual(lifecycle.spawned(b), .waitUntilHealthy(b))
        XCTAssertEqual(lifecycle.becameHealthy(), .recordAndUse(b))
        XCTAssertEqual(lifecycle.runningServer, b)
    }

    func testReplacesAStaleOrForeignServer() {
        var lifecycle = LocalServerLifecycle()
        _ = lifecycle.serverNeeded()
        XCTAssertEqual(lifecycle.inspected(a, usable: false), .replace(a))
        XCTAssertEqual(lifecycle.replaced(), .start(attempt: 1))
    }

    func testRetriesOnAnotherPortThenGivesUp() {
        var lifecycle = LocalServerLifecycle(maximumStartAttempts: 2)
        _ = lifecycle.serverNeeded()
        _ = lifecycle.inspected(nil, usable: false)
        _ = lifecycle.spawned(a)
        XCTAssertEqual(lifecycle.failedToStart("port taken", retryable: true), .start(attempt: 2))
        _ = lifecycle.spawned(b)
        XCTAssertEqual(lifecycle.failedToStart("port taken again", retryable: true), .fail("port taken again"))
        XCTAssertEqual(lifecycle.serverNeeded(), .inspectRecordedServer, "a failure is not sticky: the next request tries again")
    }

    func testNonRetryableFailureFailsAtOnce() {
        var lifecycle = LocalServerLifecycle()
        _ = lifecycle.serverNeeded()
        _ = lifecycle.inspected(nil, usable: false)
        XCTAssertEqual(lifecycle.failedToStart("model missing", retryable: false), .fail("model missing"))
    }

    func testALostServerIsInspectedAfresh() {
        var lifecycle = LocalServerLifecycle()
        _ = lifecycle.serverNeeded()
        _ = lifecycle.inspected(a, usable: true)
        XCTAssertEqual(lifecycle.serverLost(), .forget)
        XCTAssertNil(lifecycle.runningServer)
        XCTAssertEqual(lifecycle.serverNeeded(), .inspectRecordedServer)
    }

    func testStopTargetsTheRunningOrTheRecordedServer() {
        var running = LocalServerLifecycle()
        _ = running.serverNeeded()
        _ = running.inspected(a, usable: true)
        XCTAssertEqual(running.stopRequested(recorded: b), .stop(a))
        XCTAssertEqual(running.serverNeeded(), .inspectRecordedServer)

        var fresh = LocalServerLifecycle()
        XCTAssertEqual(fresh.stopRequested(recorded: b), .stop(b), "`agent model stop` from another process")
        XCTAssertEqual(fresh.stopRequested(recorded: nil), .forget)
    }

    func testEventsOutOfOrderAreReportedNotObeyed() {
        var lifecycle = LocalServerLifecycle()
        XCTAssertEqual(lifecycle.becameHealthy(), .fail("unexpected health report"))
        _ = lifecycle.serverNeeded()
        XCTAssertEqual(lifecycle.serverNeeded(), .fail("the local model is already being started"))
    }
}
