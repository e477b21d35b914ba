/// How search results are ordered: like a guide book, the well-known and relevant before the
/// merely near.
///
/// - `proximity = 1 − distance / radius` (1 at the centre, 0 at the edge);
/// - `popularity` is the place's (`Popularity`, 0…1);
/// - `relevance = 0.9 × coverage + 0.1 × bm25 / best bm25`, where coverage is the share of the
///   query's words the place matches (after stemming) and bm25 ranks names 4× keywords.
///   Coverage leads so that "easy loop trail" puts places matching all three words first,
///   while a longer description does not push a museum down a "museums" query.
///
/// Without text, `score = 0.4 × proximity + 0.6 × popularity`; with text,
/// `score = 0.5 × relevance + 0.2 × proximity + 0.3 × popularity`. Around Paris, museums
/// then start with the Louvre and the Musée d'Orsay (curated, the first two museums of
/// Data/landmarks/paris.json) although the Centre Pompidou and small galleries are nearer.
struct GuideBookRanking {
    var radiusKm: Double
    /// The number of words the query searched for; 0 without text.
    var terms: Int
    /// The lowest (best) bm25 among the candidates; FTS5's bm25 is negative.
    var bestBM25: Double

    func score(_ candidate: GeoIndex.Candidate) -> Double {
        let proximity = max(0, 1 - candidate.distanceKm / radiusKm)
        guard terms > 0 else { return 0.4 * proximity + 0.6 * candidate.popularity }
        let coverage = Double(candidate.matchedTerms) / Double(terms)
        let strength = bestBM25 < 0 ? candidate.bm25 / bestBM25 : 0
        let relevance = 0.9 * coverage + 0.1 * strength
        return 0.5 * relevance + 0.2 * proximity + 0.3 * candidate.popularity
    }
}
