import Foundation
import PointsOfInterestTypes

/// A geodata index opened for queries: places near a point, by category and text, and
/// landmarks by name.
///
/// One connection, guarded by a lock: calls from several threads are serialised.
public final class GeoIndex: @unchecked Sendable {
    let database: SQLiteDatabase
    /// Recursive: a search holds it for its whole read transaction, and each statement takes it too.
    private let lock = NSRecursiveLock()
    private var statements: [String: SQLiteStatement] = [:]
    /// Candidate row ids closer than this share one FTS look-up when space is searched first
    /// (see `search`); tests set 0 (one look-up per run of ids) to compare ways that must agree.
    var rangeGap = 2048

    /// The file it reads.
    public var path: String { database.path }

    /// The version of the tables this code reads and writes (an index of another is refused).
    public static var schemaVersion: Int { GeoIndexSchema.version }

    /// Opens the index at `path` read-only; fails clearly when the file is missing or is not
    /// an index of this version.
    public init(path: String) throws(GeoIndexError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw GeoIndexError("geodata index not found at '\(path)'; build it with `make` (Scripts/build-geo-index.sh) or `agent geodata build --out \(path)`")
        }
        database = try SQLiteDatabase(path: path, readOnly: true)
        // Memory-mapped reads skip a copy per page; at 10 M places the file is ~2 GB.
        try database.execute("PRAGMA mmap_size = 4294967296; PRAGMA cache_size = -65536;")
        try GeoIndex.checkSchemaVersion(of: database)
    }

    static func checkSchemaVersion(of database: SQLiteDatabase) throws(GeoIndexError) {
        let statement: SQLiteStatement
        do { statement = try database.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'") } catch {
            throw GeoIndexError("'\(database.path)' is not a geodata index (no meta table)")
        }
        let version = try statement.step() ? statement.text(0) : nil
        guard version == String(GeoIndexSchema.version) else {
            throw GeoIndexError("'\(database.path)' is a geodata index of schema version \(version ?? "none"), expected \(GeoIndexSchema.version); rebuild it")
        }
    }

    /// Runs `body` holding the lock inside one read transaction: SQLite then locks the file and
    /// checks its cache once, not once per statement (a search runs dozens).
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        try database.execute("BEGIN")
        defer { try? database.execute("COMMIT") }
        return try body()
    }

    /// Runs `body` holding the lock, with a cached prepared statement for `sql`.
    func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let statement: SQLiteStatement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try database.prepare(sql)
            statements[sql] = statement
        }
        return try body(statement)
    }

    /// How many places of each category the index holds.
    public func countsByCategory() throws -> [PoiCategory: Int] {
        try withStatement("SELECT category, count(*) FROM places GROUP BY category") { statement in
            var counts: [PoiCategory: Int] = [:]
            try statement.forEachRow { row in
                if let category = row.text(0).flatMap(PoiCategory.init(rawValue:)) { counts[category] = Int(row.int64(1)) }
            }
            return counts
        }
    }

    /// The number of curated landmarks.
    public func landmarkCount() throws -> Int {
        try withStatement("SELECT count(*) FROM landmarks") { statement in
            try statement.step() ? Int(statement.int64(0)) : 0
        }
    }

    /// A value from the `meta` table (`schemaVersion`, `builtAt`, `sources`…).
    public func metadata(_ key: String) throws -> String? {
        try withStatement("SELECT value FROM meta WHERE key = ?") { statement in
            try statement.bind(.text(key))
            defer { _ = try? statement.bind() }
            return try statement.step() ? statement.text(0) : nil
        }
    }
}

extension SQLiteStatement {
    /// Reads the columns of `placeColumns` starting at `first`.
    func place(from first: Int32) -> Place {
        Place(
            name: text(first) ?? "",
            category: text(first + 1).flatMap(PoiCategory.init(rawValue:)) ?? .landmark,
            coordinate: Coordinate(latitude: double(first + 2), longitude: double(first + 3)),
            description: text(first + 4),
            country: text(first + 5),
            region: text(first + 6),
            source: text(first + 7) ?? "",
            population: isNull(first + 8) ? nil : Int(int64(first + 8)),
            popularity: double(first + 9),
            wikipedia: text(first + 10),
            kind: text(first + 11))
    }

    static let placeColumns =
        "p.name, p.category, p.lat, p.lon, p.description, p.country, p.region, p.source, p.population, p.popularity, p.wikipedia, p.kind"
    static let placeColumnCount: Int32 = 12
}
