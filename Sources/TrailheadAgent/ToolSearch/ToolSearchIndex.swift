import Foundation
import TrailheadSchema

/// Okapi BM25 over a session's tools, in process: each tool is a document of its name (split at
/// camelCase, `_`, `.` and digits, and counted `nameWeight` times), its description, and its
/// parameters' names and descriptions. Built once per session; a search of 100 tools is a
/// dictionary walk over the query's terms.
public struct ToolSearchIndex: Sendable {
    /// One tool as the index sees it.
    public struct Document: Sendable, Equatable {
        public var name: String
        public var description: String
        public var parameterNames: [String]
        public var parameterDescriptions: [String]

        public init(name: String, description: String, parameterNames: [String] = [], parameterDescriptions: [String] = []) {
            self.name = name
            self.description = description
            self.parameterNames = parameterNames
            self.parameterDescriptions = parameterDescriptions
        }

        /// A tool's name, description, and its argument schema's top-level members.
        public init(name: String, description: String, parameters: GenerationSchema) {
            var names: [String] = [], descriptions: [String] = []
            if case .object(let properties)? = parameters.json["properties"] {
                for (member, schema) in properties {
                    names.append(member)
                    if let text = schema["description"]?.stringValue { descriptions.append(text) }
                }
            }
            self.init(name: name, description: description, parameterNames: names, parameterDescriptions: descriptions)
        }
    }

    /// BM25's term-frequency saturation and length normalisation, at their usual values.
    static let k1 = 1.2
    static let b = 0.75
    /// A term of the name counts this many times (a tool is most often asked for by what its name says).
    static let nameWeight = 3

    public let documents: [Document]
    private let termCounts: [[String: Int]]
    private let lengths: [Int]
    private let averageLength: Double
    private let documentFrequency: [String: Int]

    public init(_ documents: [Document]) {
        self.documents = documents
        termCounts = documents.map { document in
            var counts: [String: Int] = [:]
            for term in Self.terms(document.name) { counts[term, default: 0] += Self.nameWeight }
            for text in [document.description] + document.parameterNames + document.parameterDescriptions {
                for term in Self.terms(text) { counts[term, default: 0] += 1 }
            }
            return counts
        }
        lengths = termCounts.map { $0.values.reduce(0, +) }
        averageLength = lengths.isEmpty ? 1 : max(1, Double(lengths.reduce(0, +)) / Double(lengths.count))
        var frequency: [String: Int] = [:]
        for counts in termCounts { for term in counts.keys { frequency[term, default: 0] += 1 } }
        documentFrequency = frequency
    }

    /// The names of the `limit` tools that match `query` best, best first; only tools that
    /// share a term with the query (ties keep the tools' order).
    public func search(_ query: String, limit: Int) -> [String] {
        let queryTerms = Set(Self.terms(query))
        let count = Double(documents.count)
        var scored: [(index: Int, score: Double)] = []
        for (index, counts) in termCounts.enumerated() {
            var score = 0.0
            for term in queryTerms {
                guard let frequency = counts[term].map(Double.init), let containing = documentFrequency[term] else { continue }
                let idf = log(1 + (count - Double(containing) + 0.5) / (Double(containing) + 0.5))
                let norm = Self.k1 * (1 - Self.b + Self.b * Double(lengths[index]) / averageLength)
                score += idf * frequency * (Self.k1 + 1) / (frequency + norm)
            }
            if score > 0 { scored.append((index, score)) }
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        return scored.prefix(max(0, limit)).map { documents[$0.index].name }
    }

    /// Lower-case terms of `text`: words split at non-letters and at camelCase humps, short
    /// function words dropped, a plural or verb ending cut (`areas` → `area`, `calculating` →
    /// `calculat`, alike for `calculate`), so a query and a description meet half-way.
    static func terms(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            if character.isLetter || character.isNumber {
                let hump = character.isUppercase && (previous?.isLowercase ?? false)
                let digitEdge = previous.map { $0.isNumber != character.isNumber } ?? false
                if hump || digitEdge, !current.isEmpty {
                    words.append(current)
                    current = ""
                }
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }.filter { !stopWords.contains($0) }.map(stem)
    }

    private static let stopWords: Set<String> = [
        "a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "is", "are", "be", "by", "with", "at", "as", "it", "its",
        "this", "that", "from", "if", "i", "me", "my", "you", "your", "what", "which", "can", "do", "does", "please", "given",
    ]

    /// A crude suffix cut: enough to meet `find`/`finds`/`finding` and `area`/`areas`.
    static func stem(_ word: String) -> String {
        for suffix in ["ing", "ies", "es", "ed", "e", "s"] where word.count > suffix.count + 3 && word.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count)) + (suffix == "ies" ? "y" : "")
        }
        return word
    }
}
