import Foundation
import TrailheadAgent
import TrailheadSchema

/// Background runs in PostgreSQL (`POST /v1/responses` with `"background": true`): a row per run,
/// its events numbered from 0 (what `GET …?stream=true&starting_after=N` replays), and its steps —
/// each model turn and each tool call's outcome, the checkpoints a resumed run replays instead of
/// repeating them.
///
///     trailhead_runs(id, status, request jsonb, session, response jsonb, pending jsonb,
///                    cancel_requested, lease_token bigint, lease_owner, lease_expires, next_event, …)
///     trailhead_run_events(run, seq, event jsonb, primary key (run, seq))
///     trailhead_run_steps(run, key, outcome jsonb, primary key (run, key))
///
/// A worker claims a queued run (or one whose lease lapsed) with `FOR UPDATE SKIP LOCKED`; the
/// claim adds one to the run's `lease_token` and sets `lease_expires`. Every later write of that
/// worker names its token and holds only while the token is still the run's and the lease has not
/// lapsed: a worker that lost its lease (another took the run over) writes nothing. Each write is
/// one statement, so a step and its event are recorded together or not at all.
public final class PostgresRunStore: Sendable {
    public let url: String
    private let pool: ConnectionPool

    public init(url: String, connections: Int = 4) throws(SessionStoreError) {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw SessionStoreError(.failed, "a PostgreSQL run store is a postgresql:// URL, not '\(url.prefix(40))'")
        }
        self.url = url
        pool = ConnectionPool(url: url, size: connections)
        changes = RunChanges(url: url, channels: [Change.queued.rawValue, Change.events.rawValue])
    }

    public var description: String { PostgresSessionStore.redacted(url) }

    /// The states of a run, as OpenAI's Responses API names them.
    public enum Status: String, Sendable, CaseIterable {
        case queued, inProgress = "in_progress", requiresAction = "requires_action", completed, failed, cancelled

        /// Nothing more happens to a run in these.
        public var isFinal: Bool { self == .completed || self == .failed || self == .cancelled }
    }

    /// A run as stored.
    public struct Run: Sendable {
        public var id: String
        public var status: Status
        /// The `POST /v1/responses` body it was created with.
        public var request: GeneratedContent
        /// The conversation a new run opens (a continued one names its own in the request).
        public var session: String
        /// The final response object (completed, failed, cancelled), or the one waiting for an approval.
        public var response: GeneratedContent?
        /// The call waiting for approval (`requires_action`).
        public var pending: GeneratedContent?
        public var cancelRequested: Bool
        public var createdAt: Double
    }

    /// A run a worker holds: its row, and the token its writes must name.
    public struct Claim: Sendable {
        public var run: Run
        public var token: Int
    }

    /// A write of a worker that no longer holds the run (its lease lapsed, or another took it over).
    public static func fenced(_ run: String) -> SessionStoreError {
        SessionStoreError(.conflict, "run \(run): this worker's lease was lost (another worker holds the run now); nothing written")
    }

    /// Creates the tables when they are missing (every process may call it at start).
    public func migrate() throws(SessionStoreError) {
        try run("""
            CREATE TABLE IF NOT EXISTS trailhead_runs (
                id text PRIMARY KEY, status text NOT NULL, request jsonb NOT NULL, session text NOT NULL,
                response jsonb, pending jsonb, cancel_requested boolean NOT NULL DEFAULT false,
                lease_token bigint NOT NULL DEFAULT 0, lease_owner text, lease_expires timestamptz,
                next_event integer NOT NULL DEFAULT 0, created_at timestamptz NOT NULL DEFAULT now(),
                started_at timestamptz, updated_at timestamptz NOT NULL DEFAULT now());
            """)
        try run("CREATE INDEX IF NOT EXISTS trailhead_runs_claimable ON trailhead_runs (created_at) WHERE status IN ('queued', 'in_progress')")
        try run("CREATE TABLE IF NOT EXISTS trailhead_run_events (run text NOT NULL, seq integer NOT NULL, event jsonb NOT NULL, PRIMARY KEY (run, seq))")
        try run("CREATE TABLE IF NOT EXISTS trailhead_run_steps (run text NOT NULL, key text NOT NULL, outcome jsonb NOT NULL, PRIMARY KEY (run, key))")
    }

    /// Records a new run, `queued`, with `event` (its `response.created`) as event 0.
    public func enqueue(id: String, session: String, request: GeneratedContent, event: GeneratedContent) throws(SessionStoreError) {
        try run("""
            WITH r AS (INSERT INTO trailhead_runs (id, status, request, session, next_event) VALUES ($1, 'queued', $2::jsonb, $3, 1) RETURNING id)
            INSERT INTO trailhead_run_events (run, seq, event) SELECT id, 0, $4::jsonb FROM r RETURNING pg_notify('\(Change.queued.rawValue)', run)
            """, [id, request.jsonString, session, event.jsonString])
    }

    private static let columns = "id, status, request::text, session, response::text, pending::text, cancel_requested, extract(epoch from created_at)::float8"

    private static func run(_ row: [String?]) throws(SessionStoreError) -> Run {
        guard let id = row[0], let status = row[1].flatMap(Status.init(rawValue:)), let request = row[2].flatMap({ try? GeneratedContent(json: $0) }),
            let session = row[3]
        else { throw SessionStoreError(.failed, "a run row cannot be read: \(row.prefix(2))") }
        return Run(
            id: id, status: status, request: request, session: session, response: row[4].flatMap { try? GeneratedContent(json: $0) },
            pending: row[5].flatMap { try? GeneratedContent(json: $0) }, cancelRequested: row[6] == "t", createdAt: row[7].flatMap(Double.init) ?? 0)
    }

    /// The run `id`, or nil.
    public func load(_ id: String) throws(SessionStoreError) -> Run? {
        guard let row = try run("SELECT \(Self.columns) FROM trailhead_runs WHERE id = $1", [id]).rows.first else { return nil }
        return try Self.run(row)
    }

    /// Claims the oldest queued run, or a run in progress whose lease lapsed (its worker died or
    /// was cut off), for `seconds`; appends its `response.in_progress` event. Nil when none waits.
    public func claim(owner: String, leaseSeconds seconds: Double) throws(SessionStoreError) -> Claim? {
        let rows = try run("""
            WITH pick AS (
                SELECT id FROM trailhead_runs
                WHERE status = 'queued' OR (status = 'in_progress' AND (lease_expires IS NULL OR lease_expires <= clock_timestamp()))
                ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED),
            claimed AS (
                UPDATE trailhead_runs r SET status = 'in_progress', lease_token = r.lease_token + 1, lease_owner = $1,
                    lease_expires = clock_timestamp() + make_interval(secs => $2::float8), started_at = coalesce(r.started_at, clock_timestamp()),
                    updated_at = clock_timestamp(), next_event = r.next_event + 1
                FROM pick WHERE r.id = pick.id
                RETURNING r.*),
            event AS (
                INSERT INTO trailhead_run_events (run, seq, event)
                SELECT id, next_event - 1, jsonb_build_object('type', 'response.in_progress',
                    'response', jsonb_build_object('id', id, 'object', 'response', 'status', 'in_progress')) FROM claimed)
            SELECT \(Self.columns), lease_token, pg_notify('\(Change.events.rawValue)', id) FROM claimed
            """, [owner, String(seconds)]).rows
        guard let row = rows.first else { return nil }
        guard let token = row[8].flatMap(Int.init) else { throw SessionStoreError(.failed, "a claimed run has no lease token") }
        return Claim(run: try Self.run(row), token: token)
    }

    /// Extends `claim`'s lease by `seconds` from now; returns whether a cancel was asked for. Throws
    /// `fenced` when the lease is no longer this worker's.
    public func extend(_ claim: Claim, leaseSeconds seconds: Double) throws(SessionStoreError) -> Bool {
        let rows = try run("""
            UPDATE trailhead_runs SET lease_expires = clock_timestamp() + make_interval(secs => $3::float8), updated_at = clock_timestamp()
            WHERE id = $1 AND lease_token = $2::bigint AND status = 'in_progress' AND lease_expires > clock_timestamp()
            RETURNING cancel_requested
            """, [claim.run.id, String(claim.token), String(seconds)]).rows
        guard let row = rows.first else { throw Self.fenced(claim.run.id) }
        return row[0] == "t"
    }

    /// Every step `id` recorded so far, by key.
    public func steps(_ id: String) throws(SessionStoreError) -> [String: GeneratedContent] {
        var steps: [String: GeneratedContent] = [:]
        for row in try run("SELECT key, outcome::text FROM trailhead_run_steps WHERE run = $1", [id]).rows {
            guard let key = row[0], let text = row[1], let outcome = try? GeneratedContent(json: text) else { continue }
            steps[key] = outcome
        }
        return steps
    }

    /// Records step `key` (and `event`, numbered next) while `claim` still holds the run; a key
    /// recorded before keeps its first outcome. Throws `fenced` when the lease was lost.
    public func record(_ claim: Claim, key: String, outcome: GeneratedContent, event: GeneratedContent? = nil) throws(SessionStoreError) {
        let rows = try run("""
            WITH f AS (
                UPDATE trailhead_runs SET next_event = next_event + (CASE WHEN $5::jsonb IS NULL THEN 0 ELSE 1 END), updated_at = clock_timestamp()
                WHERE id = $1 AND lease_token = $2::bigint AND status = 'in_progress' AND lease_expires > clock_timestamp()
                RETURNING id, next_event - 1 AS seq),
            s AS (INSERT INTO trailhead_run_steps (run, key, outcome) SELECT id, $3, $4::jsonb FROM f ON CONFLICT (run, key) DO NOTHING),
            e AS (INSERT INTO trailhead_run_events (run, seq, event) SELECT id, seq, $5::jsonb FROM f WHERE $5::jsonb IS NOT NULL)
            SELECT count(*), pg_notify('\(Change.events.rawValue)', $1) FROM f
            """, [claim.run.id, String(claim.token), key, outcome.jsonString, event?.jsonString]).rows
        guard rows.first?.first == "1" else { throw Self.fenced(claim.run.id) }
    }

    /// Ends `claim`'s hold on the run in `status` (`completed`, `failed`, `cancelled`, or
    /// `requires_action` with the `pending` call), its `response` object kept and `event` appended.
    public func finish(
        _ claim: Claim, status: Status, response: GeneratedContent, pending: GeneratedContent? = nil, event: GeneratedContent
    ) throws(SessionStoreError) {
        let rows = try run("""
            WITH f AS (
                UPDATE trailhead_runs SET status = $3, response = $4::jsonb, pending = $5::jsonb, lease_owner = NULL, lease_expires = NULL,
                    next_event = next_event + 1, updated_at = clock_timestamp()
                WHERE id = $1 AND lease_token = $2::bigint AND status = 'in_progress' AND lease_expires > clock_timestamp()
                RETURNING id, next_event - 1 AS seq),
            e AS (INSERT INTO trailhead_run_events (run, seq, event) SELECT id, seq, $6::jsonb FROM f)
            SELECT count(*), pg_notify('\(Change.events.rawValue)', $1) FROM f
            """, [claim.run.id, String(claim.token), status.rawValue, response.jsonString, pending?.jsonString, event.jsonString]).rows
        guard rows.first?.first == "1" else { throw Self.fenced(claim.run.id) }
    }

    /// The run's events after number `after` (all with -1), in order, each with its `sequence_number`.
    public func events(_ id: String, after: Int) throws(SessionStoreError) -> [GeneratedContent] {
        try run("SELECT seq, event::text FROM trailhead_run_events WHERE run = $1 AND seq > $2::integer ORDER BY seq", [id, String(after)]).rows.compactMap { row in
            guard let seq = row[0].flatMap(Int.init), case .object(var event)? = row[1].flatMap({ try? GeneratedContent(json: $0) }) else { return nil }
            event["sequence_number"] = .number(Double(seq))
            return .object(event)
        }
    }

    /// Cancels the run: at once when no worker holds it (queued, waiting for an approval), with
    /// `event` appended; a run in progress is marked, and its worker stops at its next step.
    /// The run as it is afterwards (nil: no such run).
    public func cancel(_ id: String, response: GeneratedContent, event: GeneratedContent) throws(SessionStoreError) -> Run? {
        try run("""
            WITH r AS (
                UPDATE trailhead_runs SET cancel_requested = true,
                    status = CASE WHEN status IN ('queued', 'requires_action') THEN 'cancelled' ELSE status END,
                    response = CASE WHEN status IN ('queued', 'requires_action') THEN $2::jsonb ELSE response END,
                    pending = CASE WHEN status IN ('queued', 'requires_action') THEN NULL ELSE pending END,
                    next_event = next_event + CASE WHEN status IN ('queued', 'requires_action') THEN 1 ELSE 0 END, updated_at = clock_timestamp()
                WHERE id = $1 AND status IN ('queued', 'in_progress', 'requires_action')
                RETURNING id, status, next_event - 1 AS seq)
            INSERT INTO trailhead_run_events (run, seq, event) SELECT id, seq, $3::jsonb FROM r WHERE status = 'cancelled'
            RETURNING pg_notify('\(Change.events.rawValue)', run)
            """, [id, response.jsonString, event.jsonString])
        return try load(id)
    }

    /// Approves or rejects the call `callID` a run waits for: the decision is recorded as the
    /// step `approval:CALL` and the run queued again, for any worker. False when the run does
    /// not wait for that call.
    public func decide(_ id: String, callID: String, approved: Bool, event: GeneratedContent) throws(SessionStoreError) -> Bool {
        let rows = try run("""
            WITH r AS (
                UPDATE trailhead_runs SET status = 'queued', pending = NULL, next_event = next_event + 1, updated_at = clock_timestamp()
                WHERE id = $1 AND status = 'requires_action' AND pending->>'call_id' = $2
                RETURNING id, next_event - 1 AS seq),
            s AS (INSERT INTO trailhead_run_steps (run, key, outcome) SELECT id, 'approval:' || $2, $3::jsonb FROM r ON CONFLICT (run, key) DO NOTHING),
            e AS (INSERT INTO trailhead_run_events (run, seq, event) SELECT id, seq, $4::jsonb FROM r)
            SELECT count(*), pg_notify('\(Change.queued.rawValue)', $1), pg_notify('\(Change.events.rawValue)', $1) FROM r
            """, [id, callID, GeneratedContent.object(["approved": .bool(approved)]).jsonString, event.jsonString]).rows
        return rows.first?.first == "1"
    }

    // MARK: - Waiting for changes (LISTEN/NOTIFY)

    /// What changed: a run was queued (or queued again), or a run has a new event.
    public enum Change: String, Sendable {
        case queued = "trailhead_runs_queued", events = "trailhead_run_events"
    }

    private let changes: RunChanges

    /// A mark to wait from: take it before looking, then `wait(for:after:timeout:)` if there was nothing.
    public func mark(_ change: Change) -> Int { changes.generation(change.rawValue) }

    /// Blocks the calling thread until a `change` after `mark` is notified, or `timeout` seconds
    /// pass (a notification can be missed across a reconnection: callers look again after it).
    public func wait(for change: Change, after mark: Int, timeout: Double) {
        changes.wait(change.rawValue, after: mark, timeout: timeout)
    }

    @discardableResult
    private func run(_ sql: String, _ parameters: [String?] = []) throws(SessionStoreError) -> PostgresConnection.Result {
        try pool.run(sql, parameters)
    }
}

/// Notifications of run changes, on a connection and a thread of their own (started by the first
/// waiter): each bumps its channel's generation and wakes every waiter.
final class RunChanges: @unchecked Sendable {
    private let url: String
    private let channels: [String]
    private let condition = NSCondition()
    private var generations: [String: Int] = [:]
    private var listening = false

    init(url: String, channels: [String]) {
        self.url = url
        self.channels = channels
    }

    func generation(_ channel: String) -> Int {
        condition.lock()
        defer { condition.unlock() }
        startListening()
        return generations[channel, default: 0]
    }

    func wait(_ channel: String, after mark: Int, timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        startListening()
        while generations[channel, default: 0] == mark {
            if !condition.wait(until: deadline) { return }
        }
    }

    /// Called with the lock held.
    private func startListening() {
        guard !listening else { return }
        listening = true
        let listener = PostgresConnection(url: url)
        listener.setup = channels.map { "LISTEN \($0)" }
        let box = PooledConnection.Box(connection: listener)  // this thread alone uses it
        let thread = Thread { [self] in
            let connection = box.connection
            while true {
                let arrived: [String]
                do { arrived = try connection.notifications(waiting: 1) } catch {
                    Thread.sleep(forTimeInterval: 0.5)  // the database is away: connect again
                    continue
                }
                guard !arrived.isEmpty else { continue }
                condition.lock()
                for channel in arrived { generations[channel, default: 0] += 1 }
                condition.broadcast()
                condition.unlock()
            }
        }
        thread.name = "trailhead-run-changes"
        thread.start()
    }
}
