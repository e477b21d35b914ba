extension GeoIndex {
    /// Resolves a name to a place to search around, in this order:
    /// 1. every place whose name (or, for a curated landmark, an alias) equals `name`, ignoring
    ///    case, accents and punctuation — a curated landmark, a town, an airport, a Wikipedia
    ///    place — and of those the best known (`popularity`: a curated landmark is 1, a town by
    ///    its inhabitants, a Wikipedia place by its article's length): "Banff" is the town in
    ///    Alberta (8 305 people), not the one in Scotland; the others are kept in `alternatives`;
    /// 2. a curated landmark whose name and aliases contain every word of `name` as a prefix
    ///    ("Joshua Tr"), the best bm25 match first.
    /// Otherwise throws `UnknownPlaceError` with suggestions.
    public func resolve(_ name: String) throws -> ResolvedPlace {
        let key = TextFolding.key(name)
        guard !key.isEmpty else { throw UnknownPlaceError(name: name, suggestions: []) }
        var candidates = try landmark(withKey: key).map { [$0] } ?? []
        for place in try places(named: key) where !candidates.contains(where: { $0.isSame(as: place) }) {
            candidates.append(place)
        }
        candidates.sort { $0.popularity != $1.popularity ? $0.popularity > $1.popularity : $0.name < $1.name }
        if var chosen = candidates.first {
            var labels = Set([chosen.label])
            chosen.alternatives = candidates.dropFirst().map(\.label).filter { labels.insert($0).inserted }
            return chosen
        }
        if let landmark = try landmarkByPrefix(TextQuery(key)) { return landmark }
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
            description: row.text(4), category: .landmark, popularity: Popularity.curatedLandmark,
            isCuratedLandmark: true)
    }

    /// Every place whose folded name equals `key`.
    private func places(named key: String) throws -> [ResolvedPlace] {
        let words = TextFolding.words(of: key)
        let phrase = "name: \"" + words.joined(separator: " ") + "\""
        let sql = """
            SELECT \(SQLiteStatement.placeColumns) FROM places_fts JOIN places p ON p.id = places_fts.rowid
            WHERE places_fts MATCH ? LIMIT 500
            """
        return try withStatement(sql) { statement in
            try statement.bind(.text(phrase))
            defer { _ = try? statement.bind() }
            var places: [ResolvedPlace] = []
            try statement.forEachRow { row in
                let place = row.place(from: 0)
                guard TextFolding.key(place.name) == key else { return }
                places.append(ResolvedPlace(
                    name: place.name, country: place.country, region: place.region, coordinate: place.coordinate,
                    description: place.description, category: place.category, popularity: place.popularity,
                    wikipedia: place.wikipedia, kind: place.kind))
            }
            return places
        }
    }
}

extension ResolvedPlace {
    /// The same place seen twice (a curated landmark is also a row of `places`).
    func isSame(as other: ResolvedPlace) -> Bool {
        TextFolding.key(name) == TextFolding.key(other.name) && coordinate.distanceKm(to: other.coordinate) < 1
    }
}
