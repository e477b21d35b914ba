extension GeoIndex {
    /// The places within `query.radiusKm` of the centre, best first, ranked like a guide book:
    /// relevance to the text, closeness and popularity together (see `GuideBookRanking`).
    ///
    /// Without text, candidates come from the R*Tree (the bounding box of the circle, pruned by
    /// the category's dimension), then the exact haversine distance drops the box's corners.
    /// With text, the R*Tree and FTS5 are joined in the order the query needs (`JoinOrder`):
    /// - space first: the circle's row ids from the R*Tree, cut into short row-id ranges (rows
    ///   follow a Hilbert curve, so a circle is a few ranges), then per word one FTS5 look-up
    ///   restricted to each range;
    /// - text first: per word the FTS5 matches, then each one's position and category from
    ///   `places`.
    /// The cheaper is chosen from the number of places the circle holds (estimated from
    /// `cell_counts`) against the number of text matches (counted by FTS5 up to a limit).
    /// Only places matching at least one word are returned; when none in range does, the best
    /// places without the text come back and `textMatched` is false.
    public func search(_ query: NearbyQuery) throws -> NearbyResults {
        let query = try query.normalised()
        let text = query.text.map { TextQuery($0, excluding: query.centreName) }
        guard let text, !text.isEmpty else {
            let candidates = try withPopularity(try spaceCandidates(query))
            return NearbyResults(results: try rank(candidates, query, terms: 0), textMatched: true, joinOrder: .spaceFirst)
        }
        let order = query.joinOrder == .automatic ? try plan(query, text) : query.joinOrder
        let matched = order == .textFirst ? try textFirst(query, text) : try withPopularity(try spaceFirst(query, text))
        if matched.isEmpty {
            let candidates = try withPopularity(try spaceCandidates(query))
            return NearbyResults(results: try rank(candidates, query, terms: 0), textMatched: false, joinOrder: order)
        }
        return NearbyResults(results: try rank(matched, query, terms: text.terms.count), textMatched: true, joinOrder: order)
    }

    /// A place in the circle, with what ranking needs (its row is read only if it makes the cut).
    struct Candidate {
        var id: Int64
        var distanceKm: Double
        var popularity = 0.0
        var matchedTerms = 0
        var bm25 = 0.0
    }

    /// Every place in the circle (and of the category): the R*Tree's box, then haversine.
    private func spaceCandidates(_ query: NearbyQuery) throws -> [Candidate] {
        let sql = """
            SELECT id, min_lat, min_lon FROM places_rtree
            WHERE min_lat >= ?1 AND max_lat <= ?2 AND min_lon >= ?3 AND max_lon <= ?4 AND min_cat >= ?5 AND max_cat <= ?6
            """
        let codes = query.category.map { (Double($0.code), Double($0.code)) } ?? (0, Double(PoiCategory.allCases.count))
        var found: [Candidate] = []
        for box in BoundingBox.covering(query.centre, radiusKm: query.radiusKm) {
            try withStatement(sql) { statement in
                try statement.bind(
                    .real(box.minLatitude), .real(box.maxLatitude), .real(box.minLongitude), .real(box.maxLongitude),
                    .real(codes.0), .real(codes.1))
                try statement.forEachRow { row in
                    let distance = query.centre.distanceKm(to: Coordinate(latitude: row.double(1), longitude: row.double(2)))
                    if distance <= query.radiusKm { found.append(Candidate(id: row.int64(0), distanceKm: distance)) }
                }
            }
        }
        return found
    }

    /// Space first: the circle's candidates, then per word one FTS5 look-up per row-id range.
    ///
    /// FTS5 answers `MATCH … AND rowid BETWEEN ? AND ?` by seeking in each word's doclist, so a
    /// look-up costs its setup plus the matches inside the range. Candidate ids closer than
    /// `rangeGap` share a range: a wider gap means fewer look-ups but more matches outside the
    /// circle read and dropped.
    private func spaceFirst(_ query: NearbyQuery, _ text: TextQuery) throws -> [Candidate] {
        var candidates = try spaceCandidates(query)
        guard !candidates.isEmpty else { return [] }
        candidates.sort { $0.id < $1.id }
        var ranges: [ClosedRange<Int64>] = []
        var low = candidates[0].id, high = low
        for candidate in candidates.dropFirst() {
            if candidate.id - high <= Int64(rangeGap) { high = candidate.id } else {
                ranges.append(low...high)
                (low, high) = (candidate.id, candidate.id)
            }
        }
        ranges.append(low...high)
        var position: [Int64: Int] = [:]
        for (index, candidate) in candidates.enumerated() { position[candidate.id] = index }
        let sql = "SELECT rowid, bm25(places_fts, 4.0, 1.0) FROM places_fts WHERE places_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3"
        try withStatement(sql) { statement in
            for term in text.termExpressions {
                for range in ranges {
                    try statement.bind(.text(term), .integer(range.lowerBound), .integer(range.upperBound))
                    try statement.forEachRow { row in
                        guard let index = position[row.int64(0)] else { return }
                        candidates[index].matchedTerms += 1
                        candidates[index].bm25 += row.double(1)
                    }
                }
            }
            _ = try statement.bind()
        }
        return candidates.filter { $0.matchedTerms > 0 }
    }

    /// Text first: per word every FTS5 match, then the position, category and popularity of each.
    private func textFirst(_ query: NearbyQuery, _ text: TextQuery) throws -> [Candidate] {
        var matches: [Int64: (terms: Int, bm25: Double)] = [:]
        try withStatement("SELECT rowid, bm25(places_fts, 4.0, 1.0) FROM places_fts WHERE places_fts MATCH ?1") { statement in
            for term in text.termExpressions {
                try statement.bind(.text(term))
                try statement.forEachRow { row in
                    let id = row.int64(0)
                    let previous = matches[id] ?? (0, 0)
                    matches[id] = (previous.terms + 1, previous.bm25 + row.double(1))
                }
            }
            _ = try statement.bind()
        }
        var found: [Candidate] = []
        try withStatement("SELECT lat, lon, category, popularity FROM places WHERE id = ?1") { statement in
            for (id, match) in matches {
                try statement.bind(.integer(id))
                guard try statement.step() else { continue }
                let distance = query.centre.distanceKm(to: Coordinate(latitude: statement.double(0), longitude: statement.double(1)))
                if distance <= query.radiusKm, query.category.map({ $0.rawValue == statement.text(2) }) ?? true {
                    found.append(Candidate(id: id, distanceKm: distance, popularity: statement.double(3), matchedTerms: match.terms, bm25: match.bm25))
                }
            }
            _ = try statement.bind()
        }
        return found
    }

    /// Reads the popularity of each candidate.
    private func withPopularity(_ candidates: [Candidate]) throws -> [Candidate] {
        var candidates = candidates
        try withStatement("SELECT popularity FROM places WHERE id = ?1") { statement in
            for index in candidates.indices {
                try statement.bind(.integer(candidates[index].id))
                if try statement.step() { candidates[index].popularity = statement.double(0) }
            }
            _ = try statement.bind()
        }
        return candidates
    }

    /// The best `query.limit` candidates by `GuideBookRanking`, with their rows.
    private func rank(_ candidates: [Candidate], _ query: NearbyQuery, terms: Int) throws -> [NearbyResult] {
        let ranking = GuideBookRanking(radiusKm: query.radiusKm, terms: terms, bestBM25: candidates.map(\.bm25).min() ?? 0)
        let best = candidates
            .map { ($0, ranking.score($0)) }
            .sorted { a, b in a.1 != b.1 ? a.1 > b.1 : (a.0.distanceKm, a.0.id) < (b.0.distanceKm, b.0.id) }
            .prefix(query.limit)
        return try withStatement("SELECT \(SQLiteStatement.placeColumns) FROM places p WHERE p.id = ?1") { statement in
            defer { _ = try? statement.bind() }
            return try best.compactMap { candidate, score in
                try statement.bind(.integer(candidate.id))
                guard try statement.step() else { return nil }
                return NearbyResult(place: statement.place(from: 0), distanceKm: candidate.distanceKm, score: score)
            }
        }
    }
}
