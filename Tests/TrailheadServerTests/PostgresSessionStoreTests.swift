import Foundation
import TrailheadAgent
import TrailheadPostgres
import XCTest

/// The PostgreSQL store on a cluster of the test's own.
final class PostgresSessionStoreTests: XCTestCase {
    func testEntriesRoundTripAndASecondWriterIsRefused() throws {
        let postgres = try TestPostgres()
        let store = try PostgresSessionStore(url: postgres.url)
        try store.migrate()
        try store.migrate()  // every replica migrates at start
        let entries: [Transcript.Entry] = [
            .instructions(.init(text: "Be brief.", tools: [])), .prompt(.init(text: "Hi — ünïcode, \"quotes\", 'apostrophes'; DROP TABLE x")),
        ]
        try store.create("s1", agent: "a")
        try store.append(entries, to: "s1", at: 0)
        XCTAssertEqual(try store.load("s1"), StoredSession(agent: "a", transcript: Transcript(entries: entries)))
        XCTAssertNil(try store.load("s2"))

        // The same entries again (a retry whose first answer was lost) are ours; others are a conflict.
        try store.append([entries[1]], to: "s1", at: 1)
        XCTAssertThrowsError(try store.append([.prompt(.init(text: "another replica"))], to: "s1", at: 1)) { error in
            XCTAssertEqual((error as? SessionStoreError)?.kind, .conflict)
        }
        XCTAssertThrowsError(try store.create("s1", agent: "b")) { XCTAssertEqual(($0 as? SessionStoreError)?.kind, .conflict) }
        XCTAssertThrowsError(try store.append(entries, to: "no-such", at: 0)) { XCTAssertEqual(($0 as? SessionStoreError)?.kind, .failed) }

        // A stopped server is `unavailable` (worth retrying), and the store reconnects after it.
        try postgres.stop()
        XCTAssertThrowsError(try store.load("s1")) { XCTAssertEqual(($0 as? SessionStoreError)?.kind, .unavailable) }
        try postgres.start()
        XCTAssertEqual(try store.load("s1")?.transcript.count, 2)
    }

    func testTheDescriptionNeverShowsThePassword() throws {
        let store = try PostgresSessionStore(url: "postgresql://app:s3cret@db.internal:5432/trailhead")
        XCTAssertEqual(store.description, "postgresql://app:***@db.internal:5432/trailhead")
        XCTAssertThrowsError(try PostgresSessionStore(url: "mysql://x")) { XCTAssertTrue("\($0)".contains("postgresql://")) }
    }
}
