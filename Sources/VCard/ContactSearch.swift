/// Finds contacts for a query a model wrote: "Ana", "Ana, Ben", "friends in Berlin", "zurich".
///
/// Matching rules, chosen so a model's short queries do what it means:
/// - Text is folded (case and accents): "jose" finds "José", "zurich" finds "Zürich".
/// - A query word matches the start of a word in a contact's name, nicknames, organization,
///   cities, regions, countries, groups (CATEGORIES), note or email addresses: "ben" finds
///   "Benjamin", not "Reuben".
/// - A group no contact has ("cousin", "sister") is searched as words of the query (a note
///   says "Cousin."); a plural word also matches its singular ("cousins" finds "Cousin").
/// - Every word of a query must match somewhere in the contact (AND), except that `,`, `;`,
///   `/`, `&`, and the words "and"/"or" separate alternatives (OR): "Ana, Ben" and "Ana and Ben"
///   find both people. Filler words ("in", "from", "my", "the"…) and single letters are ignored
///   when the query has other words.
/// - An empty query or `*` lists everyone.
/// - Results rank by how well they match (a whole name word beats a name prefix beats another
///   field), then alphabetically; at most `limit` are returned and `omitted` counts the rest.
public struct ContactSearch: Sendable {
    public let contacts: [Contact]
    private let indexed: [IndexedContact]

    public init(contacts: [Contact]) {
        self.contacts = contacts
        self.indexed = contacts.map(IndexedContact.init)
    }

    /// What a search found.
    public struct Result: Sendable {
        public var contacts: [Contact]
        /// How many more matched beyond the limit.
        public var omitted: Int
    }

    /// Every group name in use, in first-seen order.
    public var groups: [String] {
        var seen = Set<String>()
        var result: [String] = []
        for contact in contacts {
            for category in contact.categories where seen.insert(SearchFolding.fold(category)).inserted {
                result.append(category)
            }
        }
        return result
    }

    public func search(_ query: String, group: String? = nil, limit: Int = 50) -> Result {
        var candidates = Array(indexed.indices)
        var alternatives = Self.alternatives(of: query)
        if let group, !group.trimmingSpaces.isEmpty {
            let wanted = Self.groupKey(group)
            if indexed.contains(where: { $0.groupKeys.contains(wanted) }) {
                candidates = candidates.filter { indexed[$0].groupKeys.contains(wanted) }
            } else {
                // A word no group is called ("cousin", "sister", "coworkers"): a relationship the
                // notes or the organization may say, searched like the query's own words.
                let words = Self.alternatives(of: group).flatMap { $0 }
                alternatives = alternatives.isEmpty ? [words] : alternatives.map { $0 + words }
            }
        }
        var scored: [(index: Int, score: Int)] = []
        if alternatives.isEmpty {
            scored = candidates.map { ($0, 0) }
        } else {
            for index in candidates {
                let best = alternatives.compactMap { indexed[index].score(for: $0) }.max()
                if let best { scored.append((index, best)) }
            }
        }
        scored.sort { lhs, rhs in
            if lhs.score != rhs.score { return lhs.score > rhs.score }
            return indexed[lhs.index].sortKey < indexed[rhs.index].sortKey
        }
        let kept = scored.prefix(max(0, limit)).map { contacts[$0.index] }
        return Result(contacts: kept, omitted: scored.count - kept.count)
    }

    /// Contacts that match any one word of `query` (filler and words of one or two letters left
    /// out), best first: for a query whose words together match nobody ("Dmitri likes to drink").
    /// Empty when the query has fewer than two such words (the plain search said all there is).
    public func searchAnyWord(_ query: String, limit: Int = 50) -> Result {
        let words = Self.alternatives(of: query).flatMap { $0 }.filter { !Self.fillerWords.contains($0) && $0.count > 2 }
        guard words.count > 1 else { return Result(contacts: [], omitted: 0) }
        return search(words.joined(separator: ", "), limit: limit)
    }

    // MARK: - Query

    /// The query's alternatives, each a list of folded words; empty for "list everyone".
    static func alternatives(of query: String) -> [[String]] {
        var alternatives: [[String]] = []
        var current: [String] = []
        let separators: Set<Character> = [",", ";", "/", "&", "|", "+"]
        var spaced = ""
        for character in query { spaced.append(separators.contains(character) ? " | " : String(character)) }
        for raw in spaced.split(separator: " ") {
            if raw == "|" || raw.lowercased() == "and" || raw.lowercased() == "or" {
                if !current.isEmpty { alternatives.append(current) }
                current = []
                continue
            }
            current.append(contentsOf: SearchFolding.words(String(raw)))
        }
        if !current.isEmpty { alternatives.append(current) }
        return alternatives.map { words in
            // Single letters ("Ana's" → "ana", "s") say nothing either.
            let meaningful = words.filter { !fillerWords.contains($0) && $0.count > 1 }
            return meaningful.isEmpty ? words : meaningful
        }
    }

    private static let fillerWords: Set<String> = [
        "in", "at", "from", "of", "the", "a", "an", "my", "who", "lives", "live", "living", "with",
        "contact", "contacts", "people", "person",
    ]

    /// Groups compare folded, and "friend" finds "friends".
    static func groupKey(_ group: String) -> String {
        var key = SearchFolding.fold(group.trimmingSpaces)
        if key.count > 3, key.hasSuffix("s") { key.removeLast() }
        return key
    }
}

/// A contact's searchable words, folded once when the search is built.
private struct IndexedContact: Sendable {
    let nameWords: [String]
    let otherWords: [String]
    let groupKeys: Set<String>
    let sortKey: String

    init(_ contact: Contact) {
        var names = SearchFolding.words(contact.formattedName) + SearchFolding.words(contact.name.displayName)
        names += contact.nicknames.flatMap(SearchFolding.words)
        nameWords = names
        var other: [String] = []
        for address in contact.addresses {
            other += SearchFolding.words(address.locality) + SearchFolding.words(address.region)
            other += SearchFolding.words(address.country)
        }
        other += contact.categories.flatMap(SearchFolding.words)
        other += SearchFolding.words(contact.note ?? "") + SearchFolding.words(contact.organization ?? "")
        other += contact.emails.flatMap { SearchFolding.words($0.value) }
        otherWords = other
        groupKeys = Set(contact.categories.map(ContactSearch.groupKey))
        sortKey = SearchFolding.fold(contact.formattedName)
    }

    /// nil unless every word matches; otherwise higher for better matches
    /// (3 a whole name word, 2 the start of a name word, 1 the start of another word).
    /// Both sides are folded the same way, so comparing bytes is enough (and much faster than
    /// `hasPrefix`, which compares by canonical equivalence).
    func score(for words: [String]) -> Int? {
        var total = 0
        for written in words {
            // "cousins" finds "Cousin"; "friends" still finds "friends" (its singular begins it).
            let word = written.utf8.count > 3 && written.hasSuffix("s") ? String(written.dropLast()) : written
            if nameWords.contains(written) {
                total += 3
            } else if nameWords.contains(where: { $0.utf8.starts(with: word.utf8) }) {
                total += 2
            } else if otherWords.contains(where: { $0.utf8.starts(with: word.utf8) }) {
                total += 1
            } else {
                return nil
            }
        }
        return total
    }
}
