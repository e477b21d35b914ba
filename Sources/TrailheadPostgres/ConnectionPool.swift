import Synchronization
import TrailheadAgent

/// A small pool of connections to one database, taken in turn, each used by one thread at a time.
/// A connection that broke (the server restarted) is made again on its next use, and the error in
/// between is `.unavailable`, so a caller (`SessionRecorder`, a worker) can try again later.
final class ConnectionPool: Sendable {
    private let connections: [PooledConnection]
    private let next = Mutex(0)
    /// The database's URL without its password, for messages.
    let description: String

    /// Connects lazily; `size` bounds the statements in flight at once.
    init(url: String, size: Int) {
        connections = (0..<max(1, size)).map { _ in PooledConnection(PostgresConnection(url: url)) }
        description = PostgresSessionStore.redacted(url)
    }

    /// Runs `sql` on the next connection. A lost connection is `.unavailable`, a unique key taken
    /// (SQLSTATE 23505) a `.conflict`, a missing referenced row (23503) `.failed` with
    /// `missingReference` when given; any other failure is `.failed`.
    @discardableResult
    func run(_ sql: String, _ parameters: [String?] = [], missingReference: String? = nil) throws(SessionStoreError)
        -> PostgresConnection.Result
    {
        let slot = next.withLock { value in
            defer { value = (value + 1) % connections.count }
            return value
        }
        return try connections[slot].state.withLock { box throws(SessionStoreError) in
            do throws(PostgresConnection.Failure) { return try box.connection.execute(sql, parameters) } catch {
                if error.connectionLost { throw SessionStoreError(.unavailable, "PostgreSQL \(description): \(error.message)") }
                if error.sqlState == "23505" { throw SessionStoreError(.conflict, error.message) }
                if error.sqlState == "23503", let missingReference {
                    throw SessionStoreError(.failed, "\(missingReference): \(error.message)")
                }
                throw SessionStoreError(.failed, "PostgreSQL \(description): \(error.message)")
            }
        }
    }
}

/// One connection of the pool, used under its lock by one thread at a time.
final class PooledConnection: Sendable {
    struct Box: @unchecked Sendable {
        let connection: PostgresConnection
    }

    let state: Mutex<Box>
    init(_ connection: PostgresConnection) { state = Mutex(Box(connection: connection)) }
}
