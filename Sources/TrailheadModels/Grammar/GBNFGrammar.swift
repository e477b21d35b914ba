import TrailheadSchema

/// A llama.cpp GBNF grammar that accepts the whitespace-free JSON documents of a schema.
///
/// llama.cpp's own schema conversion allows whitespace between tokens and small models spend it
/// (a final itinerary: 330 tokens pretty, 206 compact); this grammar allows none.
///
/// What "exact" means: for a schema in the exact subset, a compact JSON text in canonical form
/// (`GeneratedContent.jsonString`: no whitespace, object members in the schema's declared
/// order with additional members after them, whole numbers without a fraction, only the
/// mandatory string escapes) is accepted exactly when the validator accepts the document.
/// The exact subset: `type` (and arrays of types), `properties` with `required`,
/// `additionalProperties` (false, true or a schema; an additional member's name is never a
/// declared one), `items`, `prefixItems`, `minItems`, `maxItems`, `enum`,
/// `const`, `anyOf`, `allOf` whose branches merge without conflict, string `minLength`/
/// `maxLength`, `pattern` made of literals, classes, groups, alternation and quantifiers,
/// anchored or not, integer `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum`,
/// `$ref` to `#` or `#/$defs/…` (recursion included), and annotations.
///
/// Everything else is approximated by a larger language and left to validation, and listed in
/// `approximations` with its schema pointer: `oneOf` (compiled as `anyOf`), `not`,
/// `uniqueItems`, `multipleOf`, `minProperties`/`maxProperties`, number (non-integer)
/// bounds, additional members beside declared names that need JSON escaping, `pattern` together with a length, and patterns using `.`, negated classes or constructs
/// beyond the list above (then any string).
public struct GBNFGrammar: Sendable, Hashable, CustomStringConvertible {
    /// The grammar text; its start rule is `root`.
    public let text: String
    /// Where the grammar accepts more than the schema, as "pointer: reason".
    public let approximations: [String]

    /// True when the grammar accepts exactly the schema's canonical documents.
    public var isExact: Bool { approximations.isEmpty }

    public init(schema: GenerationSchema) throws(GrammarError) {
        try self.init(schemaJSON: schema.json)
    }

    public init(schemaJSON: GeneratedContent) throws(GrammarError) {
        var compiler = GBNFCompiler(root: schemaJSON)
        text = try compiler.compile()
        approximations = compiler.approximations
    }

    public var description: String { text }
}

/// A schema the compiler cannot turn into a grammar, with where.
public struct GrammarError: Error, Sendable, Equatable, CustomStringConvertible {
    public var pointer: String
    public var message: String

    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    public var description: String { "\(pointer.isEmpty ? "/" : pointer): \(message)" }
}
