extension GeoIndex {
    /// Resolves a landmark name, in this order:
    /// 1. a curated landmark whose name or alias equals `name`, ignoring case, accents and
    ///    punctuation ("joshua tree" → Joshua Tree National Park);
    /// 2. a curated landmark whose name and aliases contain every word of `name` as a prefix
    ///    ("Joshua Tr"), the best bm25 match first;
    /// 3. a town, airport or other place whose name equals `name` (the most populous town
    ///    first), so "Twentynine Palms" works although it is no landmark.
    /// Otherwise throws `UnknownPlaceError` with suggestions.
    public func resolve(_ name: String) throws -> ResolvedPlace {
        let key = TextFolding.key(name)
        guard !key.isEmpty else { throw UnknownPlaceError(name: name, suggestions: []) }
        if let landmark = try landmark(withKey: key) ?? landmarkByPrefix(TextQuery(key)) { return landmark }
        if let place = try place(named: key) { return place }
        throw UnknownPlaceError(name: name, suggestions: try suggestions(for: name))
    }

    private static let landmarkColumns = "l.name, l.country, l.lat, l.lon, l.description"

    private func landmark(withKey key: String) throws -> ResolvedPlace? {
        let sql = "SELECT \(GeoIndex.landmarkColumns) FROM landmark_names n JOIN landmarks l ON l.id = n.landmark_id WHERE n.name_key = ? ORDER BY l.id LIMIT 1"
        return try withStatement(sql) { statement in
            try statement.bind(.text(key))
            defer { _ = try? statement.bind() }
            return try statement.step() ? GeoIndex.landmark(from: statement) : nil
        }
    }

    private func landmarkByPrefix(_ text: TextQuery) throws -> ResolvedPlace? {
        // Stop words are dropped ("the Grand Canyon" finds "Grand Canyon National Park");
        // every remaining word must match.
        guard !text.isEmpty else { return nil }
        let expression = text.allTermsExpression
        let sql = """
            SELECT \(GeoIndex.landmarkColumns) FROM landmarks_fts JOIN landmarks l ON l.id = landmarks_fts.rowid
            WHERE landmarks_fts MATCH ? ORDER BY bm25(landmarks_fts, 2.0, 1.0), l.id LIMIT 1
            """
        return try withStatement(sql) { statement in
            try statement.bind(.text(expression))
            defer { _ = try? statement.bind() }
            return try statement.step() ? GeoIndex.landmark(from: statement) : nil
        }
    }

    private static func landmark(from row: SQLiteStatement) -> ResolvedPlace {
        ResolvedPlace(
            name: row.text(0) ?? "", country: row.text(1),
            coordinate: Coordinate(latitude: row.double(2), longitude: row.double(3)),
            description: row.text(4), category: .landmark)
    }

    /// A non-landmark place whose folded name equals `key`: the most populous, then towns
    /// before airports before anything else.
    private func place(named key: String) throws -> ResolvedPlace? {
        let words = TextFolding.words(of: key)
        let phrase = "name: \"" + words.joined(separator: " ") + "\""
        let sql = """
            SELECT \(SQLiteStatement.placeColumns) FROM places_fts JOIN places p ON p.id = places_fts.rowid
            WHERE places_fts MATCH ? LIMIT 500
            """
        let matches: [Place] = try withStatement(sql) { statement in
            try statement.bind(.text(phrase))
            var places: [Place] = []
            try statement.forEachRow { row in
                let place = row.place(from: 0)
                if TextFolding.key(place.name) == key { places.append(place) }
            }
            return places
        }
        let order: [PoiCategory] = [.town, .airport]
        let best = matches.min { a, b in
            let ra = order.firstIndex(of: a.category) ?? order.count, rb = order.firstIndex(of: b.category) ?? order.count
            return ra != rb ? ra < rb : (a.population ?? 0) > (b.population ?? 0)
        }
        return best.map {
            ResolvedPlace(name: $0.name, country: $0.country, coordinate: $0.coordinate, description: $0.description, category: $0.category)
        }
    }
}
