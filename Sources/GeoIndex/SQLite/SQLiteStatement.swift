import CSQLite

/// A prepared statement, reused across executions: bind, step, read columns, reset.
final class SQLiteStatement {
    private let database: SQLiteDatabase
    private let handle: OpaquePointer
    private let sql: String

    init(database: SQLiteDatabase, sql: String) throws(GeoIndexError) {
        var handle: OpaquePointer?
        guard sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil) == SQLITE_OK,
              let handle
        else { throw GeoIndexError("\(database.path): cannot prepare '\(sql.prefix(120))': \(database.lastError)") }
        self.database = database
        self.handle = handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds parameters by position (1-based), replacing earlier bindings; `nil` binds NULL.
    @discardableResult
    func bind(_ values: SQLiteValue?...) throws(GeoIndexError) -> SQLiteStatement {
        try bind(values)
    }

    @discardableResult
    func bind(_ values: [SQLiteValue?]) throws(GeoIndexError) -> SQLiteStatement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case nil: status = sqlite3_bind_null(handle, index)
            case .integer(let number)?: status = sqlite3_bind_int64(handle, index, number)
            case .real(let number)?: status = sqlite3_bind_double(handle, index, number)
            case .text(let text)?: status = sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
            }
            guard status == SQLITE_OK else { throw failure("cannot bind parameter \(index)") }
        }
        return self
    }

    /// Advances to the next row; false when done.
    func step() throws(GeoIndexError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw failure("step failed")
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(GeoIndexError) {
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Calls `body` for every row.
    func forEachRow(_ body: (SQLiteStatement) throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while try step() { try body(self) }
    }

    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: bytes)
    }

    private func failure(_ what: String) -> GeoIndexError {
        GeoIndexError("\(database.path): \(what): \(database.lastError) (in: \(sql.prefix(120)))")
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
}

extension SQLiteValue {
    static func optionalText(_ text: String?) -> SQLiteValue? { text.map(SQLiteValue.text) }
}
