/// A constraint on one member of a `Generable` type: what `@Guide` says in Foundation Models, and
/// Trailhead's `words(_:)`. Guides go in the type's `guides` table, keyed by its `CodingKeys`:
///
///     static let guides = GuideTable(CodingKeys.self, [
///         .title: [.description("An exciting name for the trip."), .words(2...8)],
///         .days: [.count(3)],
///     ])
///
/// A guide that does not fit its member (a count on a string, a range on an array) is refused when
/// the schema is derived, with the type and the member named.
public struct Guide: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case description(String)
        case anyOf([String])
        case count(minimum: Int?, maximum: Int?)
        case range(minimum: Double?, maximum: Double?)
        case exclusiveRange(minimum: Double?, maximum: Double?)
        case length(minimum: Int?, maximum: Int?)
        case defaultValue(GeneratedContent)
        case pattern(String)
        case words(ClosedRange<Int>, wordLength: Int, sentence: Bool)
        case element([Guide])
        case schema(SchemaBuilder)
    }

    let kind: Kind

    /// What the member is, for the model.
    public static func description(_ text: String) -> Guide { Guide(kind: .description(text)) }

    /// A string that is one of `values` (an `enum`).
    public static func anyOf(_ values: [String]) -> Guide { Guide(kind: .anyOf(values)) }

    /// A string that is exactly `value`.
    public static func constant(_ value: String) -> Guide { Guide(kind: .anyOf([value])) }

    /// An array of exactly `count` items.
    public static func count(_ count: Int) -> Guide { Guide(kind: .count(minimum: count, maximum: count)) }

    /// An array of `range` items.
    public static func count(_ range: ClosedRange<Int>) -> Guide { Guide(kind: .count(minimum: range.lowerBound, maximum: range.upperBound)) }

    public static func minimumCount(_ count: Int) -> Guide { Guide(kind: .count(minimum: count, maximum: nil)) }

    public static func maximumCount(_ count: Int) -> Guide { Guide(kind: .count(minimum: nil, maximum: count)) }

    /// A number (or integer) within `range`.
    public static func range(_ range: ClosedRange<Int>) -> Guide {
        Guide(kind: .range(minimum: Double(range.lowerBound), maximum: Double(range.upperBound)))
    }

    public static func range(_ range: ClosedRange<Double>) -> Guide { Guide(kind: .range(minimum: range.lowerBound, maximum: range.upperBound)) }

    public static func minimum(_ value: Double) -> Guide { Guide(kind: .range(minimum: value, maximum: nil)) }

    public static func maximum(_ value: Double) -> Guide { Guide(kind: .range(minimum: nil, maximum: value)) }

    /// A number greater than `value` (not equal to it).
    public static func exclusiveMinimum(_ value: Double) -> Guide { Guide(kind: .exclusiveRange(minimum: value, maximum: nil)) }

    /// A number less than `value` (not equal to it).
    public static func exclusiveMaximum(_ value: Double) -> Guide { Guide(kind: .exclusiveRange(minimum: nil, maximum: value)) }

    /// A string of at least `count` characters. For what a model writes, bound words instead
    /// (`words(_:)`): a bound in characters makes constrained sampling crawl. For arguments a
    /// program checks, it is the right guard.
    public static func minimumLength(_ count: Int) -> Guide { Guide(kind: .length(minimum: count, maximum: nil)) }

    /// A string of at most `count` characters (see `minimumLength(_:)`).
    public static func maximumLength(_ count: Int) -> Guide { Guide(kind: .length(minimum: nil, maximum: count)) }

    /// The value a tool takes when the member is left out (an annotation: the schema says so, the
    /// tool does it).
    public static func defaultValue(_ value: GeneratedContent) -> Guide { Guide(kind: .defaultValue(value)) }

    /// A string matching `regex` (ECMA-262, as JSON Schema's `pattern`).
    public static func pattern(_ regex: String) -> Guide { Guide(kind: .pattern(regex)) }

    /// Text of `words` words, bounded in the grammar itself (see `SchemaBuilder.text(words:)`: why
    /// texts are bounded in words and not in characters).
    public static func words(_ words: ClosedRange<Int>, wordLength: Int = 18) -> Guide {
        Guide(kind: .words(words, wordLength: wordLength, sentence: false))
    }

    /// Text of `words` words that ends a sentence (see `SchemaBuilder.sentence(words:)`).
    public static func sentence(_ words: ClosedRange<Int>, wordLength: Int = 18) -> Guide {
        Guide(kind: .words(words, wordLength: wordLength, sentence: true))
    }

    /// Guides for each item of an array member (`.element(.words(1...3))` on a `[String]`).
    public static func element(_ guides: Guide...) -> Guide { Guide(kind: .element(guides)) }

    /// The member's whole schema, written by hand: the rule for what cannot be derived (a `Date`, a
    /// `URL`, a dictionary, an enum with associated values). Other guides on the member still apply.
    public static func schema(_ schema: SchemaBuilder) -> Guide { Guide(kind: .schema(schema)) }
}

/// The guides of a type's members, keyed by the type's `CodingKeys`, so that a misspelt or removed
/// member does not compile. Kept as the keys' string values, in the table's order.
public struct GuideTable: Sendable {
    let entries: [(key: String, guides: [Guide])]

    /// No guides.
    public init() { entries = [] }

    public init<Key: CodingKey>(_ keys: Key.Type, _ table: KeyValuePairs<Key, [Guide]>) {
        entries = table.map { (key: $0.key.stringValue, guides: $0.value) }
    }

    /// The guides of the member `key`, every row of it in order (a key given twice keeps both).
    func guides(for key: String) -> [Guide] {
        entries.filter { $0.key == key }.flatMap(\.guides)
    }

    var keys: [String] { entries.map(\.key) }
}
