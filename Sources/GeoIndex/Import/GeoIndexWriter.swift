import TrailheadSchema

/// Writes places and landmarks into an index file, creating its tables when they are missing.
///
/// Writes happen inside `transaction`, with prepared statements reused for every row: SQLite
/// spends most of a bulk load on journal syncs and statement compilation otherwise.
public final class GeoIndexWriter {
    private let database: SQLiteDatabase
    private let insertPlace: SQLiteStatement
    private let insertPlaceBox: SQLiteStatement
    private let insertPlaceText: SQLiteStatement
    private let insertLandmark: SQLiteStatement
    private let insertLandmarkName: SQLiteStatement
    private let insertLandmarkText: SQLiteStatement

    /// Opens (or creates) the index at `path` for writing.
    public init(path: String) throws(GeoIndexError) {
        database = try SQLiteDatabase(path: path, readOnly: false)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536;")
        try database.execute(GeoIndexSchema.create)
        try GeoIndex.checkSchemaVersion(of: database)
        insertPlace = try database.prepare(
            "INSERT INTO places(name, category, lat, lon, description, country, source, population) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        insertPlaceBox = try database.prepare("INSERT INTO places_rtree(id, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)")
        insertPlaceText = try database.prepare("INSERT INTO places_fts(rowid, name, description) VALUES (?, ?, ?)")
        insertLandmark = try database.prepare(
            "INSERT INTO landmarks(name, aliases, country, kind, lat, lon, description) VALUES (?, ?, ?, ?, ?, ?, ?)")
        insertLandmarkName = try database.prepare("INSERT INTO landmark_names(name_key, landmark_id) VALUES (?, ?)")
        insertLandmarkText = try database.prepare("INSERT INTO landmarks_fts(rowid, name, aliases) VALUES (?, ?, ?)")
    }

    /// Runs `body` in one transaction: all of its rows are written, or none.
    public func transaction<T>(_ body: (GeoIndexWriter) throws -> T) throws -> T {
        try database.transaction { try body(self) }
    }

    /// Adds one place; returns its row id.
    @discardableResult
    public func add(_ place: Place) throws(GeoIndexError) -> Int64 {
        guard place.coordinate.isValid else {
            throw GeoIndexError("place '\(place.name)': coordinates (\(place.coordinate.latitude), \(place.coordinate.longitude)) are out of range")
        }
        let latitude = place.coordinate.latitude, longitude = place.coordinate.longitude
        try insertPlace.bind(
            .text(place.name), .text(place.category.rawValue), .real(latitude), .real(longitude),
            .optionalText(place.description), .optionalText(place.country), .text(place.source),
            place.population.map { .integer(Int64($0)) }
        ).run()
        let id = database.lastInsertedRowID
        try insertPlaceBox.bind(.integer(id), .real(latitude), .real(latitude), .real(longitude), .real(longitude)).run()
        try insertPlaceText.bind(.integer(id), .text(place.name), .optionalText(place.description)).run()
        return id
    }

    /// Adds a curated landmark: its names for look-up, itself as a place of category
    /// `landmark`, and its points of interest as places.
    public func add(_ landmark: Landmark, source: String = "landmarks") throws(GeoIndexError) {
        let aliases = GeneratedContent.array(landmark.aliases.map { .string($0) }).jsonString
        try insertLandmark.bind(
            .text(landmark.name), .text(aliases), .text(landmark.country), .optionalText(landmark.kind),
            .real(landmark.latitude), .real(landmark.longitude), .text(landmark.description)
        ).run()
        let id = database.lastInsertedRowID
        for key in Set(([landmark.name] + landmark.aliases).map(TextFolding.key)) where !key.isEmpty {
            try insertLandmarkName.bind(.text(key), .integer(id)).run()
        }
        try insertLandmarkText.bind(.integer(id), .text(landmark.name), .text(landmark.aliases.joined(separator: "; "))).run()
        try add(Place(
            name: landmark.name, category: .landmark, coordinate: landmark.coordinate,
            description: landmark.kind.map { "\($0): \(landmark.description)" } ?? landmark.description,
            country: landmark.country, source: source))
        for poi in landmark.pointsOfInterest {
            try add(Place(
                name: poi.name, category: poi.category,
                coordinate: Coordinate(latitude: poi.latitude, longitude: poi.longitude),
                description: poi.description, country: landmark.country, source: source))
        }
    }

    /// Records a fact about the index (its sources, when it was built).
    public func setMetadata(_ key: String, _ value: String) throws(GeoIndexError) {
        try database.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)").bind(.text(key), .text(value)).run()
    }

    /// Merges FTS segments and updates planner statistics; worth it once after a bulk build.
    public func optimize() throws(GeoIndexError) {
        try database.execute("INSERT INTO places_fts(places_fts) VALUES ('optimize'); INSERT INTO landmarks_fts(landmarks_fts) VALUES ('optimize'); ANALYZE;")
    }

    /// Folds the write-ahead log into the main file so the index is one self-contained file.
    public func checkpoint() throws(GeoIndexError) {
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
    }
}
