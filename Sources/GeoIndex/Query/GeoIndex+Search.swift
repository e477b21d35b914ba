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
    ///   `textMatched` is false. Words match whole (after Porter stemming: "trails" meets
    ///   "trail", "hiking" meets "hike"), not as prefixes: a prefix term makes FTS5 merge the
    ///   doclists of every word it begins, which costs milliseconds per look-up.
    public func search(_ query: NearbyQuery) throws -> NearbyResults {
        let query = try query.normalised()
        let inRange = try candidates(query)
        guard let text = query.text else {
            return NearbyResults(results: rank(inRange, query, byText: false), textMatched: true)
        }
        let matched = try matching(inRange, TextQuery(text))
        if matched.isEmpty { return NearbyResults(results: rank(inRange, query, byText: false), textMatched: false) }
        return NearbyResults(results: rank(matched, query, byText: true), textMatched: true)
    }

    private struct Candidate {
        var id: Int64
        var place: Place
        var distanceKm: Double
        var bm25: Double = 0
    }

    /// Every place in the circle (and of the category): the R*Tree's box, then haversine.
    private func candidates(_ query: NearbyQuery) throws -> [Candidate] {
        let sql = """
            SELECT \(SQLiteStatement.placeColumns), p.id FROM places_rtree r CROSS JOIN places p ON p.id = r.id
            WHERE r.min_lat >= ?1 AND r.max_lat <= ?2 AND r.min_lon >= ?3 AND r.max_lon <= ?4
              AND (?5 IS NULL OR p.category = ?5)
            """
        var found: [Candidate] = []
        for box in BoundingBox.covering(query.centre, radiusKm: query.radiusKm) {
            try withStatement(sql) { statement in
                try statement.bind(
                    .real(box.minLatitude), .real(box.maxLatitude), .real(box.minLongitude), .real(box.maxLongitude),
                    query.category.map { .text($0.rawValue) })
                try statement.forEachRow { row in
                    let place = row.place(from: 0)
                    let distance = query.centre.distanceKm(to: place.coordinate)
                    if distance <= query.radiusKm { found.append(Candidate(id: row.int64(8), place: place, distanceKm: distance)) }
                }
            }
        }
        return found
    }

    /// The candidates whose name or description match the text, with their bm25.
    ///
    /// FTS5 answers `MATCH … AND rowid BETWEEN ? AND ?`, but measured at 1 M places one such
    /// look-up with common words costs several milliseconds however short the range (about
    /// what a whole pass over the words' matches costs), so all candidates share one look-up
    /// over the span of their row ids (`rangeGap` splits it, for tests). Imports write each
    /// file's places in spatial order (`Place.spatialOrder`), which keeps that span short.
    private func matching(_ candidates: [Candidate], _ text: TextQuery) throws -> [Candidate] {
        guard !candidates.isEmpty else { return [] }
        let expression = text.anyTermExpression
        let ids = candidates.map(\.id).sorted()
        var ranges: [ClosedRange<Int64>] = []
        var low = ids[0], high = ids[0]
        for id in ids.dropFirst() {
            if id - high <= Int64(rangeGap) { high = id } else {
                ranges.append(low...high)
                (low, high) = (id, id)
            }
        }
        ranges.append(low...high)
        let wanted = Set(ids)
        var scores: [Int64: Double] = [:]
        let sql = "SELECT rowid, bm25(places_fts, 4.0, 1.0) FROM places_fts WHERE places_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3"
        try withStatement(sql) { statement in
            for range in ranges {
                try statement.bind(.text(expression), .integer(range.lowerBound), .integer(range.upperBound))
                try statement.forEachRow { row in
                    let id = row.int64(0)
                    if wanted.contains(id) { scores[id] = row.double(1) }
                }
            }
            _ = try statement.bind()
        }
        return candidates.compactMap { candidate in
            scores[candidate.id].map { var matched = candidate; matched.bm25 = $0; return matched }
        }
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
