extension GeoIndex {
    /// Weight of text relevance against proximity when a query has text.
    public static let relevanceWeight = 0.6

    /// The places within `query.radiusKm` of the centre, best first.
    ///
    /// Candidates come from the R*Tree (the bounding box of the circle), then the exact
    /// haversine distance drops the box's corners. Ranking:
    /// - without text: by distance, nearest first;
    /// - with text: only places whose name or description match at least one word (FTS5,
    ///   prefix terms OR-ed, stop words dropped), ranked by
    ///   `score = 0.6 × relevance + 0.4 × proximity`, where `relevance` is the place's bm25
    ///   divided by the best bm25 among the candidates (1 for the best match) and
    ///   `proximity = 1 − distance / radius` (1 at the centre, 0 at the edge). Name matches
    ///   weigh 4× description matches in bm25. Ties go to the nearer place.
    ///   When no place in range matches the text, the nearest places are returned instead and
    ///   `textMatched` is false.
    public func search(_ query: NearbyQuery) throws -> NearbyResults {
        let query = try query.normalised()
        if let text = query.text {
            let matched = try candidates(query, text: TextQuery(text))
            if !matched.isEmpty { return NearbyResults(results: rank(matched, query, byText: true), textMatched: true) }
            let nearest = try candidates(query, text: nil)
            return NearbyResults(results: rank(nearest, query, byText: false), textMatched: false)
        }
        return NearbyResults(results: rank(try candidates(query, text: nil), query, byText: false), textMatched: true)
    }

    private struct Candidate {
        var place: Place
        var distanceKm: Double
        var bm25: Double
    }

    /// Every place in the circle (and of the category, and matching the text when given).
    private func candidates(_ query: NearbyQuery, text: TextQuery?) throws -> [Candidate] {
        // The R*Tree drives the join (CROSS JOIN fixes the order): a 20 km box holds few rows,
        // and FTS5 answers `MATCH … AND rowid = ?` by seeking in its doclists.
        let sql = text == nil
            ? """
              SELECT \(SQLiteStatement.placeColumns), 0 FROM places_rtree r CROSS JOIN places p ON p.id = r.id
              WHERE r.min_lat >= ?1 AND r.max_lat <= ?2 AND r.min_lon >= ?3 AND r.max_lon <= ?4
                AND (?5 IS NULL OR p.category = ?5)
              """
            : """
              SELECT \(SQLiteStatement.placeColumns), bm25(places_fts, 4.0, 1.0)
              FROM places_rtree r CROSS JOIN places p ON p.id = r.id CROSS JOIN places_fts ON places_fts.rowid = r.id
              WHERE r.min_lat >= ?1 AND r.max_lat <= ?2 AND r.min_lon >= ?3 AND r.max_lon <= ?4
                AND (?5 IS NULL OR p.category = ?5) AND places_fts MATCH ?6
              """
        var found: [Candidate] = []
        for box in BoundingBox.covering(query.centre, radiusKm: query.radiusKm) {
            try withStatement(sql) { statement in
                var parameters: [SQLiteValue?] = [
                    .real(box.minLatitude), .real(box.maxLatitude), .real(box.minLongitude), .real(box.maxLongitude),
                    query.category.map { .text($0.rawValue) },
                ]
                if let text { parameters.append(.text(text.anyTermExpression)) }
                try statement.bind(parameters)
                try statement.forEachRow { row in
                    let place = row.place(from: 0)
                    let distance = query.centre.distanceKm(to: place.coordinate)
                    if distance <= query.radiusKm { found.append(Candidate(place: place, distanceKm: distance, bm25: row.double(8))) }
                }
            }
        }
        return found
    }

    private func rank(_ candidates: [Candidate], _ query: NearbyQuery, byText: Bool) -> [NearbyResult] {
        // bm25 is negative in FTS5: the more negative, the better the match.
        let best = candidates.map(\.bm25).min() ?? 0
        let scored = candidates.map { candidate in
            let proximity = 1 - candidate.distanceKm / query.radiusKm
            let score: Double
            if byText, best < 0 {
                let relevance = candidate.bm25 / best
                score = GeoIndex.relevanceWeight * relevance + (1 - GeoIndex.relevanceWeight) * proximity
            } else {
                score = proximity
            }
            return NearbyResult(place: candidate.place, distanceKm: candidate.distanceKm, score: score)
        }
        let ordered = scored.sorted { a, b in
            a.score != b.score ? a.score > b.score : (a.distanceKm, a.place.name) < (b.distanceKm, b.place.name)
        }
        return Array(ordered.prefix(query.limit))
    }
}
