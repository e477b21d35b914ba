/// How search results are ordered: like a guide book, the well-known and relevant before the
/// merely near.
///
/// - `proximity = 1 − distance / radius` (1 at the centre, 0 at the edge);
/// - `popularity` is the place's (`Popularity`, 0…1);
/// - `relevance` is the share of the query's words the place matches, in its name, category,
///   kind or description, after stemming: "easy loop trail" puts places matching all three
///   words first, and every museum matches "museums" alike, so a longer description does not
///   push one down. (FTS5's bm25 was measured too slow to use: see `GeoIndex.search`.)
///
/// Without text, `score = 0.4 × proximity + 0.6 × popularity`; with text,
/// `score = 0.5 × relevance + 0.2 × proximity + 0.3 × popularity`. Ties go to the nearer.
/// Around Paris, museums then start with the Louvre and the Musée d'Orsay (curated, the first
/// two museums of Data/landmarks/paris.json) although the Centre Pompidou and small galleries
/// are nearer.
struct GuideBookRanking {
    var radiusKm: Double
    /// The number of words the query searched for; 0 without text.
    var terms: Int

    func score(_ candidate: GeoIndex.Candidate) -> Double {
        let proximity = max(0, 1 - candidate.distanceKm / radiusKm)
        guard terms > 0 else { return 0.4 * proximity + 0.6 * candidate.popularity }
        let relevance = Double(candidate.matchedTerms) / Double(terms)
        return 0.5 * relevance + 0.2 * proximity + 0.3 * candidate.popularity
    }
}
