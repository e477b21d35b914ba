import CLibPQ
import Foundation

/// One libpq connection, used by one thread at a time (its owner holds a lock), that reconnects
/// when the server went away. Every failure says whether it is worth retrying: a connection
/// that broke or could not be made is `.unavailable`, a constraint the data broke is `.conflict`.
final class PostgresConnection {
    let url: String
    private var connection: OpaquePointer?
    /// Statements run on each new connection (a `LISTEN`, which a reconnection must repeat).
    var setup: [String] = []

    init(url: String) { self.url = url }

    deinit { if let connection { PQfinish(connection) } }

    /// One statement's result: its rows as text (NULL as nil), and the rows it affected.
    struct Result {
        var rows: [[String?]]
        var affected: Int
    }

    /// A failed statement: its SQLSTATE (23505 is a unique violation) and libpq's message.
    struct Failure: Error {
        var sqlState: String?
        var message: String
        var connectionLost: Bool
    }

    /// Runs `sql` with text parameters `$1…` (no SQL is ever built from values). A connection
    /// kept from before a server restart fails its next statement: that statement is tried
    /// once more on a new connection (an insert that did commit then meets its own rows, which
    /// the store recognises).
    func execute(_ sql: String, _ parameters: [String?] = []) throws(Failure) -> Result {
        let reused = connection != nil
        do { return try executeOnce(sql, parameters) } catch {
            guard error.connectionLost, reused else { throw error }
            return try executeOnce(sql, parameters)
        }
    }

    private func executeOnce(_ sql: String, _ parameters: [String?]) throws(Failure) -> Result {
        let connection = try connected()
        var owned = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { owned.forEach { free($0) } }
        let result: OpaquePointer? = owned.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(buffer.count, 1)) { values in
                PQexecParams(connection, sql, Int32(parameters.count), nil, parameters.isEmpty ? nil : values, nil, nil, 0)
            }
        }
        defer { PQclear(result) }
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
            let message = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            let lost = PQstatus(connection) != CONNECTION_OK || state.map(Self.isConnectionState) ?? (result == nil)
            if lost { reset() }
            throw Failure(sqlState: state, message: message.isEmpty ? "statement failed" : message, connectionLost: lost)
        }
        var rows: [[String?]] = []
        if status == PGRES_TUPLES_OK, let result {
            let columns = PQnfields(result)
            for row in 0..<PQntuples(result) {
                rows.append((0..<columns).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
            }
        }
        let affected = result.flatMap { Int(String(cString: PQcmdTuples($0))) } ?? 0
        return Result(rows: rows, affected: affected)
    }

    /// Connection exceptions (08…), and the server shutting down or restarting (57P0…).
    private static func isConnectionState(_ state: String) -> Bool { state.hasPrefix("08") || state.hasPrefix("57P0") }

    private func connected() throws(Failure) -> OpaquePointer {
        if let connection, PQstatus(connection) == CONNECTION_OK { return connection }
        reset()
        // No NOTICEs on stderr (a second `CREATE TABLE IF NOT EXISTS` says it skipped).
        let keywords = ["dbname", "connect_timeout", "application_name", "options"]
        let values = [url, "5", "trailhead", "-c client_min_messages=warning"]
        let opened: OpaquePointer? = Self.withCStrings(keywords) { keys in Self.withCStrings(values) { vals in PQconnectdbParams(keys, vals, 1) } }
        guard let opened else { throw Failure(sqlState: nil, message: "out of memory connecting to PostgreSQL", connectionLost: true) }
        guard PQstatus(opened) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(opened)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(opened)
            throw Failure(sqlState: nil, message: message, connectionLost: true)
        }
        connection = opened
        for statement in setup {
            let result = PQexec(opened, statement)
            let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
            PQclear(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                let message = String(cString: PQerrorMessage(opened)).trimmingCharacters(in: .whitespacesAndNewlines)
                reset()
                throw Failure(sqlState: nil, message: message, connectionLost: true)
            }
        }
        return opened
    }

    /// The channels of the notifications that arrived within `seconds` (`LISTEN` in `setup`);
    /// empty when none did.
    func notifications(waiting seconds: Double) throws(Failure) -> [String] {
        let connection = try connected()
        var channels = Self.drain(connection)
        guard channels.isEmpty else { return channels }
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(max(0, seconds) * 1000)) > 0 else { return [] }
        guard PQconsumeInput(connection) == 1 else {
            let message = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            reset()
            throw Failure(sqlState: nil, message: message, connectionLost: true)
        }
        channels = Self.drain(connection)
        return channels
    }

    private static func drain(_ connection: OpaquePointer) -> [String] {
        var channels: [String] = []
        while let notification = PQnotifies(connection) {
            channels.append(String(cString: notification.pointee.relname))
            PQfreemem(notification)
        }
        return channels
    }

    private func reset() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) }
        pointers.append(nil)
        defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
