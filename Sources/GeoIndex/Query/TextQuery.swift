/// A natural-language request ("an easy loop trail with a view") turned into an FTS5 query.
///
/// Stop words are dropped, each remaining word becomes a quoted term (quoting keeps FTS5
/// operators in user text inert), and the terms are OR-ed so that a place matching some of the
/// words still appears; the ranking puts places matching more of the words first. The
/// tokenizer stems English words, so "trails" finds "trail" without a prefix search.
public struct TextQuery: Sendable, Hashable {
    /// The folded words that are searched for.
    public let terms: [String]

    /// The words of `text`, without stop words and without the words of `excluded` (the name
    /// of the place searched around) unless nothing else would be left.
    public init(_ text: String, excluding excluded: String? = nil) {
        let words = TextFolding.words(of: TextFolding.key(text))
        var seen = Set<String>()
        let kept = words.filter { word in
            word.count >= 2 && !TextQuery.stopWords.contains(word) && seen.insert(word).inserted
        }
        let context = Set(excluded.map { TextFolding.words(of: TextFolding.key($0)) } ?? [])
        let specific = kept.filter { !context.contains($0) }
        terms = specific.isEmpty ? kept : specific
    }

    /// True when nothing searchable is left ("the best one near here").
    public var isEmpty: Bool { terms.isEmpty }

    /// Any term may match: `"easy" OR "loop" OR "trail"`.
    var anyTermExpression: String { termExpressions.joined(separator: " OR ") }

    /// Each term as an FTS5 query of its own (a search counts the words each place matches).
    var termExpressions: [String] { terms.map { "\"\($0)\"" } }

    /// Every term must match, as a prefix: for name look-ups ("joshua tr" → Joshua Tree).
    var allTermsExpression: String { terms.map { "\"\($0)\"*" }.joined(separator: " AND ") }

    /// Words that carry no meaning for a place search.
    static let stopWords: Set<String> = [
        "a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "with", "by", "from", "near",
        "nearby", "around", "close", "some", "any", "good", "best", "nice", "great", "place", "places",
        "spot", "spots", "find", "me", "my", "i", "we", "us", "our", "want", "would", "like", "looking",
        "something", "that", "this", "there", "where", "which", "is", "are", "be", "can", "could",
        "please", "recommend", "recommended", "top", "few", "one", "ones", "it", "its", "do", "to",
        "area", "local", "visit", "see", "here", "show", "get", "go", "what", "how", "get",
    ]
}
