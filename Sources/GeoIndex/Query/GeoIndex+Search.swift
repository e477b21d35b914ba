import PointsOfInterestTypes

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
        return try readTransaction { try search(normalised: query) }
    }

    private func search(normalised query: NearbyQuery) throws -> NearbyResults {
        let text = query.text.map { TextQuery($0, excluding: query.centreName) }
        guard let text, !text.isEmpty else {
            let candidates = try withPopularity(try spaceCandidates(query), query)
            return NearbyResults(results: try rank(candidates, query, terms: 0), textMatched: true, joinOrder: .spaceFirst)
        }
        let order = query.joinOrder == .automatic ? try plan(query, text) : query.joinOrder
        let matched = order == .textFirst ? try textFirst(query, text) : try withPopularity(try spaceFirst(query, text), query)
        if matched.isEmpty {
            let candidates = try withPopularity(try spaceCandidates(query), query)
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
                    if distance <= query.radiusKm + 0.01 { found.append(Candidate(id: row.int64(0), distanceKm: distance)) }
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
    /// circle read and dropped. No bm25: FTS5 computes it from every document of the word
    /// (measured at 1 M places: a look-up in 300 row ids 75 µs without, 5.5 ms with).
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
        let sql = "SELECT rowid FROM places_fts WHERE places_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3"
        try withStatement(sql) { statement in
            for term in text.termExpressions {
                for range in ranges {
                    try statement.bind(.text(term), .integer(range.lowerBound), .integer(range.upperBound))
                    try statement.forEachRow { row in
                        if let index = position[row.int64(0)] { candidates[index].matchedTerms += 1 }
                    }
                }
            }
            _ = try statement.bind()
        }
        return candidates.filter { $0.matchedTerms > 0 }
    }

    /// Text first: per word every FTS5 match, then the position, category and popularity of each.
    private func textFirst(_ query: NearbyQuery, _ text: TextQuery) throws -> [Candidate] {
        var matches: [Int64: Int] = [:]
        try withStatement("SELECT rowid FROM places_fts WHERE places_fts MATCH ?1") { statement in
            for term in text.termExpressions {
                try statement.bind(.text(term))
                try statement.forEachRow { row in matches[row.int64(0), default: 0] += 1 }
            }
            _ = try statement.bind()
        }
        var found: [Candidate] = []
        try withStatement("SELECT lat, lon, category, popularity FROM places WHERE id = ?1") { statement in
            for (id, terms) in matches {
                try statement.bind(.integer(id))
                guard try statement.step() else { continue }
                let distance = query.centre.distanceKm(to: Coordinate(latitude: statement.double(0), longitude: statement.double(1)))
                if distance <= query.radiusKm, query.category.map({ $0.rawValue == statement.text(2) }) ?? true {
                    found.append(Candidate(id: id, distanceKm: distance, popularity: statement.double(3), matchedTerms: terms))
                }
            }
            _ = try statement.bind()
        }
        return found
    }

    /// Reads each candidate's popularity and exact position: the R*Tree keeps 32-bit floats
    /// (about 2 m), so its distances decide only who is read, and these decide who is in.
    private func withPopularity(_ candidates: [Candidate], _ query: NearbyQuery) throws -> [Candidate] {
        var kept: [Candidate] = []
        kept.reserveCapacity(candidates.count)
        try withStatement("SELECT lat, lon, popularity FROM places WHERE id = ?1") { statement in
            for var candidate in candidates {
                try statement.bind(.integer(candidate.id))
                guard try statement.step() else { continue }
                candidate.distanceKm = query.centre.distanceKm(to: Coordinate(latitude: statement.double(0), longitude: statement.double(1)))
                candidate.popularity = statement.double(2)
                if candidate.distanceKm <= query.radiusKm { kept.append(candidate) }
            }
            _ = try statement.bind()
        }
        return kept
    }

    /// The best `query.limit` candidates by `GuideBookRanking`, with their rows; not the place
    /// searched around itself (a place of the centre's name within 1 km).
    private func rank(_ candidates: [Candidate], _ query: NearbyQuery, terms: Int) throws -> [NearbyResult] {
        let ranking = GuideBookRanking(radiusKm: query.radiusKm, terms: terms)
        let ordered = candidates
            .map { ($0, ranking.score($0)) }
            .sorted { a, b in a.1 != b.1 ? a.1 > b.1 : (a.0.distanceKm, a.0.id) < (b.0.distanceKm, b.0.id) }
        let centreKey = query.centreName.map(TextFolding.key)
        return try withStatement("SELECT \(SQLiteStatement.placeColumns) FROM places p WHERE p.id = ?1") { statement in
            defer { _ = try? statement.bind() }
            var results: [NearbyResult] = []
            for (candidate, score) in ordered where results.count < query.limit {
                try statement.bind(.integer(candidate.id))
                guard try statement.step() else { continue }
                let place = statement.place(from: 0)
                if candidate.distanceKm < 1, let centreKey, TextFolding.key(place.name) == centreKey { continue }
                results.append(NearbyResult(place: place, distanceKm: candidate.distanceKm, score: score))
            }
            return results
        }
    }
}
