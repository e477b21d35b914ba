import Foundation
import TrailheadAgent
import TrailheadSchema

/// Sessions in PostgreSQL (`agent serve --store postgresql://…`), through libpq: every replica
/// that shares the database continues every conversation. One row per transcript entry, keyed by
/// (session, number), written as the session runs; the key makes a second writer of the same
/// entry a conflict instead of a fork of the transcript.
///
///     trailhead_sessions(id text primary key, agent text, created_at timestamptz)
///     trailhead_entries(session text references trailhead_sessions, seq integer, entry jsonb,
///                       primary key (session, seq))
///
/// A small pool of connections, each used by one thread at a time; a connection that broke (the
/// server restarted) is made again on its next use, and the error in between is `.unavailable`,
/// so `SessionRecorder` keeps the entries and writes them once the server is back.
public final class PostgresSessionStore: SessionStore {
    public let url: String
    private let pool: ConnectionPool

    /// Connects lazily; `connections` bounds the statements in flight at once.
    public init(url: String, connections: Int = 4) throws(SessionStoreError) {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw SessionStoreError(.failed, "a PostgreSQL store is a postgresql:// URL, not '\(url.prefix(40))'")
        }
        self.url = url
        pool = ConnectionPool(url: url, size: connections)
    }

    /// The URL without its password.
    public var description: String { Self.redacted(url) }

    static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else { return url }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    /// Creates the tables when they are missing (every replica may call it at start).
    public func migrate() throws(SessionStoreError) {
        try run("""
            CREATE TABLE IF NOT EXISTS trailhead_sessions (id text PRIMARY KEY, agent text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
            """)
        try run("""
            CREATE TABLE IF NOT EXISTS trailhead_entries (session text NOT NULL REFERENCES trailhead_sessions(id), seq integer NOT NULL, entry jsonb NOT NULL, PRIMARY KEY (session, seq));
            """)
    }

    public func load(_ session: String) throws(SessionStoreError) -> StoredSession? {
        try check(session)
        guard let agent = try run("SELECT agent FROM trailhead_sessions WHERE id = $1", [session]).rows.first?.first ?? nil else { return nil }
        let rows = try run("SELECT seq, entry::text FROM trailhead_entries WHERE session = $1 ORDER BY seq", [session]).rows
        var entries: [Transcript.Entry] = []
        for (position, row) in rows.enumerated() {
            guard let seq = row[0].flatMap(Int.init), seq == position, let text = row[1] else {
                throw SessionStoreError(.failed, "session \(session): entry \(position) is missing in the store (found \(row[0] ?? "null"))")
            }
            do { entries.append(try Transcript.Entry(content: try GeneratedContent(json: text))) } catch {
                throw SessionStoreError(.failed, "session \(session): entry \(seq) cannot be read: \(error)")
            }
        }
        return StoredSession(agent: agent, transcript: Transcript(entries: entries))
    }

    public func create(_ session: String, agent: String) throws(SessionStoreError) {
        try check(session)
        let inserted = try run("INSERT INTO trailhead_sessions (id, agent) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", [session, agent]).affected
        guard inserted == 0 else { return }
        // Ours already when a first try committed but its answer was lost in a restart.
        let existing = try run("SELECT agent, (SELECT count(*) FROM trailhead_entries WHERE session = $1) FROM trailhead_sessions WHERE id = $1", [session]).rows.first
        if existing?[0] == agent, existing?[1] == "0" { return }
        throw SessionStoreError(.conflict, "session \(session) exists already")
    }

    public func append(_ entries: [Transcript.Entry], to session: String, at index: Int) throws(SessionStoreError) {
        try check(session)
        guard !entries.isEmpty else { return }
        var values: [String] = []
        var parameters: [String?] = [session]
        for (offset, entry) in entries.enumerated() {
            parameters.append(String(index + offset))
            parameters.append(entry.content.jsonString)
            values.append("($1, $\(parameters.count - 1)::integer, $\(parameters.count)::jsonb)")
        }
        do {
            try run("INSERT INTO trailhead_entries (session, seq, entry) VALUES " + values.joined(separator: ", "), parameters)
        } catch where error.kind == .conflict {
            // The same entries, written by an earlier try whose answer the restart cut off, are
            // ours; anything else at these numbers is another writer's.
            let stored = try run(
                "SELECT entry::text FROM trailhead_entries WHERE session = $1 AND seq >= $2::integer AND seq < $3::integer ORDER BY seq",
                [session, String(index), String(index + entries.count)]
            ).rows.compactMap { $0[0].flatMap { try? GeneratedContent(json: $0) } }
            guard stored == entries.map(\.content) else {
                throw SessionStoreError(.conflict, "session \(session): entry \(index) was written by another replica (it continued this conversation meanwhile)")
            }
        }
    }

    @discardableResult
    private func run(_ sql: String, _ parameters: [String?] = []) throws(SessionStoreError) -> PostgresConnection.Result {
        try pool.run(sql, parameters, missingReference: "no session in the store")
    }

    private func check(_ session: String) throws(SessionStoreError) {
        guard Self.isValidSessionID(session) else {
            throw SessionStoreError(.failed, "'\(session.prefix(40))' is not a session id (letters, digits, - and _)")
        }
    }
}
