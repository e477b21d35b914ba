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

    /// Opens (or creates) the index at `path` for writing. `bulk` is for a new file that is
    /// renamed into place when complete (the builder, the benchmark): no journal and no syncs,
    /// because a crash leaves only a temporary file to delete.
    public init(path: String, bulk: Bool = false) throws(GeoIndexError) {
        database = try SQLiteDatabase(path: path, readOnly: false)
        try database.execute(bulk
            ? "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;"
            : "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536;")
        try database.execute(GeoIndexSchema.create)
        try GeoIndex.checkSchemaVersion(of: database)
        insertPlace = try database.prepare("""
            INSERT INTO places(name, category, lat, lon, description, country, region, source, population, popularity, wikipedia, kind)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertPlaceBox = try database.prepare(
            "INSERT INTO places_rtree(id, min_lat, max_lat, min_lon, max_lon, min_cat, max_cat) VALUES (?, ?, ?, ?, ?, ?, ?)")
        insertPlaceText = try database.prepare("INSERT INTO places_fts(rowid, name, keywords) VALUES (?, ?, ?)")
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
            .optionalText(place.description), .optionalText(place.country), .optionalText(place.region), .text(place.source),
            place.population.map { .integer(Int64($0)) }, .real(Popularity.clamp(place.popularity)),
            .optionalText(place.wikipedia), .optionalText(place.kind)
        ).run()
        let id = database.lastInsertedRowID
        let code = Double(place.category.code)
        try insertPlaceBox.bind(.integer(id), .real(latitude), .real(latitude), .real(longitude), .real(longitude), .real(code), .real(code)).run()
        try insertPlaceText.bind(.integer(id), .text(place.name), .text(place.keywords)).run()
        return id
    }

    /// Adds a curated landmark: its names for look-up, itself as a place of category
    /// `landmark`, and its points of interest as places.
    public func add(_ landmark: Landmark, source: String = Landmark.source) throws(GeoIndexError) {
        try addNames(of: landmark)
        for place in landmark.places(source: source) { try add(place) }
    }

    /// Adds a curated landmark's names for look-up (`resolve`), not its places.
    func addNames(of landmark: Landmark) throws(GeoIndexError) {
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
    }

    /// The curated places already in the index, with their row ids; a landmark itself is the
    /// curated place of category `landmark` at a landmark's name and position.
    func curatedPlaces() throws -> [(id: Int64, place: Place, isLandmark: Bool)] {
        let sql = """
            SELECT p.id, \(SQLiteStatement.placeColumns), EXISTS (SELECT 1 FROM landmarks l
                WHERE l.name = p.name AND l.lat = p.lat AND l.lon = p.lon) AND p.category = 'landmark'
            FROM places p WHERE p.source = ?
            """
        let statement = try database.prepare(sql)
        try statement.bind(.text(Landmark.source))
        var curated: [(Int64, Place, Bool)] = []
        try statement.forEachRow { row in
            curated.append((row.int64(0), row.place(from: 1), row.int64(1 + SQLiteStatement.placeColumnCount) != 0))
        }
        return curated
    }

    /// Gives a curated place the popularity and article of the twin that was left out.
    func updateRank(id: Int64, popularity: Double, wikipedia: String?) throws(GeoIndexError) {
        try database.prepare("UPDATE places SET popularity = ?, wikipedia = coalesce(wikipedia, ?) WHERE id = ?")
            .bind(.real(popularity), .optionalText(wikipedia), .integer(id)).run()
    }

    /// Records a fact about the index (its sources, when it was built).
    public func setMetadata(_ key: String, _ value: String) throws(GeoIndexError) {
        try database.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)").bind(.text(key), .text(value)).run()
    }

    /// Merges FTS segments, counts places per 1° cell (`cell_counts`) and updates SQLite's
    /// planner statistics; worth it once after a bulk build or an import.
    public func optimize() throws(GeoIndexError) {
        try database.execute("""
            INSERT INTO places_fts(places_fts) VALUES ('optimize'); INSERT INTO landmarks_fts(landmarks_fts) VALUES ('optimize');
            DELETE FROM cell_counts;
            INSERT INTO cell_counts(lat, lon, places)
                SELECT CAST(floor(lat) AS INTEGER), CAST(floor(lon) AS INTEGER), count(*) FROM places GROUP BY 1, 2;
            DELETE FROM meta WHERE key LIKE 'places:%';
            INSERT INTO meta(key, value) SELECT 'places:' || category, count(*) FROM places GROUP BY category;
            ANALYZE;
            """)
    }

    /// Folds the write-ahead log into the main file so the index is one self-contained file.
    public func checkpoint() throws(GeoIndexError) {
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
    }
}
