extension GeoIndex {
    /// Up to `limit` names close to `name` that `resolve` accepts: curated landmarks whose
    /// name or an alias is close by edit distance (or shares a word), as their canonical
    /// names, then towns whose words start like the words of `name`, by edit distance and
    /// population.
    public func suggestions(for name: String, limit: Int = 5) throws -> [String] {
        let key = TextFolding.key(name)
        guard !key.isEmpty else { return [] }
        var ranked: [(name: String, distance: Int, population: Int)] = []
        let words = Set(TextQuery(key).terms).subtracting(GeoIndex.genericWords)
        for (canonical, names) in try landmarkNames() {
            let closest = names.map { candidate -> Int in
                let candidateKey = TextFolding.key(candidate)
                let distance = TextFolding.editDistance(key, candidateKey)
                if distance <= max(2, key.count / 3) || candidateKey.hasPrefix(key) { return distance }
                let sharesWord = !Set(TextFolding.words(of: candidateKey)).isDisjoint(with: words)
                return sharesWord ? max(3, distance / 2) : Int.max
            }.min() ?? Int.max
            if closest < Int.max { ranked.append((canonical, closest, Int.max)) }
        }
        for town in try towns(startingLike: key) {
            let distance = TextFolding.editDistance(key, TextFolding.key(town.name))
            if distance <= max(2, key.count / 3) { ranked.append((town.name, distance + 1, town.population ?? 0)) }
        }
        // Only the closest few: a name two edits closer than the rest is what was meant.
        let best = ranked.map(\.distance).min() ?? 0
        var seen = Set<String>()
        return ranked
            .filter { $0.distance <= best + 2 }
            .sorted { ($0.distance, -$0.population, $0.name) < ($1.distance, -$1.population, $1.name) }
            .map(\.name)
            .filter { seen.insert($0).inserted }
            .prefix(limit)
            .map { $0 }
    }

    /// Words too common in landmark names to suggest one by ("Yosemitee Park" is not Zion).
    static let genericWords: Set<String> = [
        "national", "park", "state", "lake", "mount", "mountain", "mountains", "river", "city", "island",
        "islands", "beach", "castle", "valley", "canyon", "forest", "old", "town", "new", "monument", "reserve",
    ]

    /// Each landmark's canonical name with all its names (the name and the aliases).
    private func landmarkNames() throws -> [(String, [String])] {
        try withStatement("SELECT name, aliases FROM landmarks ORDER BY id") { statement in
            var names: [(String, [String])] = []
            try statement.forEachRow { row in
                let name = row.text(0) ?? ""
                let aliases = row.text(1).flatMap { try? GeneratedContentArray.strings(fromJSON: $0) } ?? []
                names.append((name, [name] + aliases))
            }
            return names
        }
    }

    /// Towns whose name words begin with the first three letters of the words of `key` (a
    /// typo later in a word still finds them), the most populous first.
    private func towns(startingLike key: String) throws -> [Place] {
        let stems = TextFolding.words(of: key).map { String($0.prefix(3)) }.filter { $0.count >= 2 }
        guard !stems.isEmpty else { return [] }
        let expression = "name: (" + stems.map { "\"\($0)\"*" }.joined(separator: " OR ") + ")"
        let sql = """
            SELECT \(SQLiteStatement.placeColumns) FROM places_fts JOIN places p ON p.id = places_fts.rowid
            WHERE places_fts MATCH ? AND p.category = 'town' LIMIT 2000
            """
        return try withStatement(sql) { statement in
            try statement.bind(.text(expression))
            var places: [Place] = []
            try statement.forEachRow { places.append($0.place(from: 0)) }
            return places
        }
    }
}
