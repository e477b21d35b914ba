import PointsOfInterestTypes

/// Which of the two indexes a text query reads first (see `GeoIndex.search`).
public enum JoinOrder: String, Sendable, Hashable {
    /// Let the index choose from its estimates.
    case automatic
    /// The R*Tree's circle, then FTS5 within its row-id ranges.
    case spaceFirst
    /// FTS5's matches, then each one's position.
    case textFirst
}

extension GeoIndex {
    /// Cost per unit, in microseconds of CPU, from `trailhead-bench geo-index` at 10 M places
    /// (both orders, 2026-12-01): space first with one rare word, ~700 places in a 100 km
    /// circle, 663 µs (~0.9 a place); text first with common words, 2.2 M matches, 7.5 s (~3.4 a
    /// match). A look-up in a row-id range costs about 15 (its setup; at 1 M, where ranges hold
    /// one or two places, space first with three words took 204 µs for ~70 places).
    static let costPerCirclePlace = 0.9
    static let costPerRangeLookUp = 15.0
    static let costPerTextMatch = 3.4

    /// Text first when its matches cost less than the circle: the circle's places are estimated
    /// from `cell_counts` (and the category's share), the matches counted by FTS5 up to the point
    /// where text first would lose.
    func plan(_ query: NearbyQuery, _ text: TextQuery) throws -> JoinOrder {
        var inCircle = try estimatedPlaces(query)
        if let category = query.category { inCircle *= try share(of: category) }
        let spaceCost = inCircle * GeoIndex.costPerCirclePlace + Double(text.terms.count) * 8 * GeoIndex.costPerRangeLookUp
        let limit = Int(spaceCost / GeoIndex.costPerTextMatch)
        return try countMatches(text, upTo: limit) <= limit ? .textFirst : .spaceFirst
    }

    /// The places in the circle, estimated from the places per 1° cell that its box overlaps.
    func estimatedPlaces(_ query: NearbyQuery) throws -> Double {
        let sql = "SELECT lat, lon, places FROM cell_counts WHERE lat BETWEEN ?1 AND ?2 AND lon BETWEEN ?3 AND ?4"
        var total = 0.0, boxArea = 0.0
        for box in BoundingBox.covering(query.centre, radiusKm: query.radiusKm) {
            boxArea += (box.maxLatitude - box.minLatitude) * (box.maxLongitude - box.minLongitude)
            try withStatement(sql) { statement in
                try statement.bind(
                    .integer(Int64(box.minLatitude.rounded(.down))), .integer(Int64(box.maxLatitude.rounded(.down))),
                    .integer(Int64(box.minLongitude.rounded(.down))), .integer(Int64(box.maxLongitude.rounded(.down))))
                try statement.forEachRow { row in
                    let south = Double(row.int64(0)), west = Double(row.int64(1))
                    let overlap = max(0, min(south + 1, box.maxLatitude) - max(south, box.minLatitude))
                        * max(0, min(west + 1, box.maxLongitude) - max(west, box.minLongitude))
                    total += overlap * Double(row.int64(2))
                }
            }
        }
        // The circle is π/4 of its box (near enough away from the poles).
        return boxArea > 0 ? total * .pi / 4 : 0
    }

    /// The share of all places that are of `category`, from the counts `optimize` records.
    private func share(of category: PoiCategory) throws -> Double {
        try withStatement("SELECT key, value FROM meta WHERE key LIKE 'places:%'") { statement in
            var total = 0.0, ofCategory = 0.0
            try statement.forEachRow { row in
                let count = Double(row.text(1) ?? "") ?? 0
                total += count
                if row.text(0) == "places:" + category.rawValue { ofCategory = count }
            }
            return total > 0 ? ofCategory / total : 1
        }
    }

    /// The matches of every word together, counted up to `limit + 1` (FTS5 stops reading there).
    private func countMatches(_ text: TextQuery, upTo limit: Int) throws -> Int {
        let sql = "SELECT count(*) FROM (SELECT 1 FROM places_fts WHERE places_fts MATCH ?1 LIMIT ?2)"
        var total = 0
        for term in text.termExpressions {
            let count = try withStatement(sql) { statement in
                try statement.bind(.text(term), .integer(Int64(limit - total + 1)))
                defer { _ = try? statement.bind() }
                return try statement.step() ? Int(statement.int64(0)) : 0
            }
            total += count
            if total > limit { break }
        }
        return total
    }
}
