import CSQLite

/// One SQLite connection. Not shared between threads at the same time (callers serialise).
final class SQLiteDatabase: @unchecked Sendable {
    let handle: OpaquePointer
    let path: String

    /// Opens `path`; `readOnly` refuses to create a missing file.
    init(path: String, readOnly: Bool) throws(GeoIndexError) {
        var handle: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let status = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            if let handle { sqlite3_close_v2(handle) }
            throw GeoIndexError("cannot open SQLite database '\(path)': \(reason)")
        }
        self.handle = handle
        self.path = path
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(GeoIndexError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &errorMessage) != SQLITE_OK {
            let reason = errorMessage.map { String(cString: $0) } ?? lastError
            sqlite3_free(errorMessage)
            throw GeoIndexError("\(path): \(reason) (in: \(sql.prefix(120)))")
        }
    }

    func prepare(_ sql: String) throws(GeoIndexError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// Runs `body` inside one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }
}

extension SQLiteDatabase {
    /// The row id of the last INSERT on this connection.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }
}
