import PointsOfInterestTypes

/// The tables of a geodata index file.
///
/// - `places`: every point (towns, airports, curated and imported POIs), with an R*Tree
///   (`places_rtree`) for space and a contentless FTS5 table (`places_fts`) for text.
///   The R*Tree has a third dimension, the category's code (`PoiCategory.code`), so a query for
///   one category prunes the tree by it instead of reading every place in the box.
///   `places_fts` indexes the name and the keywords (the description, the category and the
///   kind: "museum", "mountain"), so "museums" finds museums whose names do not say so.
///   Row ids follow a Hilbert curve within each import (see `Place.spatialOrder`).
/// - `cell_counts`: places per 1° cell, so a query can estimate how many places its circle
///   holds before choosing whether to search space or text first.
/// - `landmarks`: the curated landmarks; `landmark_names` holds the folded name and aliases
///   (lower case, no accents, no punctuation) for exact look-up, `landmarks_fts` the prefix search.
///
/// The FTS tokenizer is `porter unicode61 remove_diacritics 2`: accents fold ("Schlössle"
/// matches "schlossle") and English words stem ("hiking" matches "hike").
enum GeoIndexSchema {
    /// Bumped whenever the tables change; an index of another version is refused on open.
    static let version = 2

    static let tokenizer = "porter unicode61 remove_diacritics 2"

    static let create = """
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS places (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            category TEXT NOT NULL,
            lat REAL NOT NULL,
            lon REAL NOT NULL,
            description TEXT,
            country TEXT,
            region TEXT,
            source TEXT NOT NULL,
            population INTEGER,
            popularity REAL NOT NULL,
            wikipedia TEXT,
            kind TEXT
        );
        CREATE VIRTUAL TABLE IF NOT EXISTS places_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon, min_cat, max_cat);
        CREATE VIRTUAL TABLE IF NOT EXISTS places_fts USING fts5(
            name, keywords, content = '', tokenize = '\(tokenizer)'
        );
        CREATE TABLE IF NOT EXISTS landmarks (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            aliases TEXT NOT NULL,
            country TEXT,
            kind TEXT,
            lat REAL NOT NULL,
            lon REAL NOT NULL,
            description TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS landmark_names (
            name_key TEXT NOT NULL,
            landmark_id INTEGER NOT NULL REFERENCES landmarks(id)
        );
        CREATE INDEX IF NOT EXISTS landmark_names_key ON landmark_names(name_key);
        CREATE VIRTUAL TABLE IF NOT EXISTS landmarks_fts USING fts5(
            name, aliases, content = 'landmarks', content_rowid = 'id', tokenize = '\(tokenizer)'
        );
        CREATE TABLE IF NOT EXISTS cell_counts (
            lat INTEGER NOT NULL, lon INTEGER NOT NULL, places INTEGER NOT NULL, PRIMARY KEY (lat, lon)
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO meta(key, value) VALUES ('schemaVersion', '\(version)');
        """
}
