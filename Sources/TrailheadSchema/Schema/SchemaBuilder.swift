/// A schema written in Swift, for types that declare their schema in code (see `Generable`).
/// Each factory takes the guides a model needs: a description, allowed values, counts, ranges,
/// a pattern. The result is ordinary JSON Schema in Trailhead's subset:
///
///     .object(properties: [
///         "date": .string(description: "The day", pattern: #"^\d{4}-\d{2}-\d{2}$"#),
///         "activities": .array(of: .generable(Activity.self), minItems: 1, maxItems: 3),
///         "notes": .string().optional,
///     ])
public struct SchemaBuilder: Sendable, Hashable {
    /// The JSON Schema object built so far.
    public var json: JSONObject
    /// Whether the member holding this schema may be absent (see `optional`).
    public var isOptional = false

    public init(json: JSONObject) { self.json = json }

    /// The same schema for a member that may be left out (an `Optional` property).
    public var optional: SchemaBuilder {
        var copy = self
        copy.isOptional = true
        return copy
    }

    /// The same schema with a description for the model.
    public func described(_ description: String) -> SchemaBuilder {
        var copy = self
        copy.json["description"] = .string(description)
        return copy
    }

    /// Loads the schema; fails with the `SchemaError` of a malformed guide (e.g. a bad pattern).
    public func schema() throws(SchemaError) -> GenerationSchema {
        try GenerationSchema(json: .object(json))
    }

    // MARK: - Factories

    public static func string(
        description: String? = nil, enum values: [String]? = nil, pattern: String? = nil,
        minLength: Int? = nil, maxLength: Int? = nil, format: String? = nil
    ) -> SchemaBuilder {
        make("string", description, [
            "enum": values.map { .array($0.map(GeneratedContent.string)) },
            "pattern": pattern.map(GeneratedContent.string),
            "minLength": minLength.map(number), "maxLength": maxLength.map(number),
            "format": format.map(GeneratedContent.string),
        ])
    }

    /// Text of `words` well-formed words separated by single spaces (a title, or a sentence that
    /// may end without its full stop), bounded in the
    /// grammar itself: a small model asked for "a short note" otherwise writes on (plans were cut
    /// at 1,024 tokens), and a `maxLength` in characters made llama.cpp's constrained sampling
    /// crawl (84 tokens in 54 s). A word is letters or digits (Latin letters with accents
    /// included), at most `wordLength` of them between an apostrophe or a hyphen
    /// ("Yellowstone's", "family-friendly"), and may end with one mark of punctuation. So a
    /// model cannot glue words with punctuation ("aquiet,undeveloped") or pile marks up
    /// ("Staycation,!"). The answer's length has a bound, and the session sets its token limit
    /// from it so that no answer is ever cut in half.
    public static func text(words: ClosedRange<Int>, wordLength: Int = 18, description: String? = nil) -> SchemaBuilder {
        string(description: description, pattern: textPattern(words: words, wordLength: wordLength, endsSentence: false))
    }

    /// One sentence of `words` well-formed words (see `text(words:)`): only its last word ends
    /// with ".", "!" or "?" (others may end with ",", ";" or ":"), so a note that stops mid-way
    /// ("…", or at the bound) does not fit it, nor one that runs on into a second sentence.
    public static func sentence(words: ClosedRange<Int>, wordLength: Int = 18, description: String? = nil) -> SchemaBuilder {
        string(description: description, pattern: textPattern(words: words, wordLength: wordLength, endsSentence: true))
    }

    /// The pattern of `text(words:)` and `sentence(words:)`.
    static func textPattern(words: ClosedRange<Int>, wordLength: Int, endsSentence: Bool) -> String {
        let first = max(1, words.lowerBound), last = max(first, words.upperBound)
        // Capitals, then small letters ("Kyoto", "USA", "2nd"), after an optional "Mc"/"Le"-like
        // prefix ("McCarran", "LeConte"): a capital after a small letter is two words glued
        // ("theKyoto", "aRestaurant", "ArchRockNature", seen on the bench trips).
        let capitals = "[\(upperLetters)]{1,\(wordLength)}[\(lowerLetters)]{0,\(wordLength)}"
        let part = "(\(namePrefixes.joined(separator: "|")))?(\(capitals)|[\(lowerLetters)]{1,\(wordLength)})"
        // "&" is a word of its own, as names write it ("Pappy & Harriet's"): without it the model
        // had to write a place's name in other words than the tool's.
        // After an apostrophe, a contraction's one or two letters ("Harriet's", "we'll"), or a name
        // after one letter ("O'Neill", "d'Arc"): "region'spast" is two words glued.
        let word = "(\(part)(['’][\(lowerLetters)]{1,2}|-\(part))?|[A-Za-z]['’]\(part)|&)"
        let inside = endsSentence ? ",;:" : wordEndings
        return "^(\(word)[\(inside)]? ){\(first - 1),\(last - 1)}\(word)[.!?]\(endsSentence ? "" : "?")$"
    }

    /// The capitals and the small letters of a word (digits are both; Latin Extended-A, whose
    /// cases alternate letter by letter, counts as small).
    static let upperLetters = "A-Z0-9\u{00C0}-\u{00DE}", lowerLetters = "a-z0-9\u{00DF}-\u{024F}"
    /// Prefixes of names with a capital inside ("McCarran", "MacLeod", "LeConte", "DeSoto", "DiMaggio").
    static let namePrefixes = ["Mc", "Mac", "Le", "La", "De", "Di", "Du", "Van"]
    public static let wordEndings = ".,;:!?"

    /// One of the cases of a string enumeration.
    public static func enumeration<T: CaseIterable & RawRepresentable>(_ type: T.Type, description: String? = nil) -> SchemaBuilder
    where T.RawValue == String {
        string(description: description, enum: type.allCases.map(\.rawValue))
    }

    public static func integer(description: String? = nil, minimum: Int? = nil, maximum: Int? = nil) -> SchemaBuilder {
        make("integer", description, ["minimum": minimum.map(number), "maximum": maximum.map(number)])
    }

    public static func number(
        description: String? = nil, minimum: Double? = nil, maximum: Double? = nil,
        exclusiveMinimum: Double? = nil, exclusiveMaximum: Double? = nil, multipleOf: Double? = nil
    ) -> SchemaBuilder {
        make("number", description, [
            "minimum": minimum.map(GeneratedContent.number), "maximum": maximum.map(GeneratedContent.number),
            "exclusiveMinimum": exclusiveMinimum.map(GeneratedContent.number),
            "exclusiveMaximum": exclusiveMaximum.map(GeneratedContent.number),
            "multipleOf": multipleOf.map(GeneratedContent.number),
        ])
    }

    public static func boolean(description: String? = nil) -> SchemaBuilder { make("boolean", description, [:]) }

    public static var null: SchemaBuilder { make("null", nil, [:]) }

    /// An array of exactly `count` items.
    public static func array(of items: SchemaBuilder, count: Int, description: String? = nil) -> SchemaBuilder {
        array(of: items, description: description, minItems: count, maxItems: count)
    }

    public static func array(
        of items: SchemaBuilder, description: String? = nil, minItems: Int? = nil, maxItems: Int? = nil,
        uniqueItems: Bool = false
    ) -> SchemaBuilder {
        make("array", description, [
            "items": .object(items.json), "minItems": minItems.map(number), "maxItems": maxItems.map(number),
            "uniqueItems": uniqueItems ? .bool(true) : nil,
        ])
    }

    /// An object with exactly these members, in this order; all are required unless marked
    /// `.optional`, and others are refused unless `additionalProperties` is true.
    public static func object(
        description: String? = nil, properties: KeyValuePairs<String, SchemaBuilder>,
        additionalProperties: Bool = false
    ) -> SchemaBuilder {
        var members = JSONObject()
        for (name, schema) in properties { members[name] = .object(schema.json) }
        let required = properties.filter { !$0.value.isOptional }.map { GeneratedContent.string($0.key) }
        return make("object", description, [
            "properties": .object(members), "required": .array(required),
            "additionalProperties": .bool(additionalProperties),
        ])
    }

    /// This object schema with one more member, after the others (required unless `.optional`).
    public func adding(_ name: String, _ member: SchemaBuilder) -> SchemaBuilder {
        var copy = self
        var properties = copy.json["properties"]?.objectValue ?? [:]
        properties[name] = .object(member.json)
        copy.json["properties"] = .object(properties)
        if !member.isOptional { copy.json["required"] = .array((copy.json["required"]?.arrayValue ?? []) + [.string(name)]) }
        return copy
    }

    /// One of several schemas.
    public static func anyOf(_ alternatives: [SchemaBuilder], description: String? = nil) -> SchemaBuilder {
        make(nil, description, ["anyOf": .array(alternatives.map { .object($0.json) })])
    }

    /// One fixed value.
    public static func constant(_ value: GeneratedContent, description: String? = nil) -> SchemaBuilder {
        make(nil, description, ["const": value])
    }

    /// One of several fixed values, each with its own description for the model
    /// (`anyOf` of `const`s; use `.string(enum:)` when the values need no explanation).
    public static func choice(_ values: KeyValuePairs<String, String>, description: String? = nil) -> SchemaBuilder {
        anyOf(values.map { constant(.string($0.key), description: $0.value) }, description: description)
    }

    /// The schema a `Generable` type declares, inlined (its `$ref`s must not point at its root).
    public static func generable<T: Generable>(_ type: T.Type, description: String? = nil) -> SchemaBuilder {
        var builder = SchemaBuilder(json: T.generationSchema.json.objectValue ?? [:])
        builder.json["$schema"] = nil
        return description.map { builder.described($0) } ?? builder
    }

    private static func number(_ i: Int) -> GeneratedContent { .number(Double(i)) }

    private static func make(_ type: String?, _ description: String?, _ keywords: KeyValuePairs<String, GeneratedContent?>) -> SchemaBuilder {
        var json = JSONObject()
        if let type { json["type"] = .string(type) }
        if let description { json["description"] = .string(description) }
        for (keyword, value) in keywords { if let value { json[keyword] = value } }
        return SchemaBuilder(json: json)
    }
}
