/// A JSON Schema in Trailhead's subset (see DESIGN.md), loaded and checked once.
///
/// Loading compiles the document into an internal form (references resolved, regexes
/// compiled), so `validate(_:)`, which runs before every tool call, does no parsing.
public struct GenerationSchema: Sendable, Hashable {
    /// The schema document as given (less its unknown keywords, when they were annotations).
    public let json: GeneratedContent
    let compiled: CompiledSchema

    /// What loading does with a keyword that is not JSON Schema's.
    public enum UnknownKeywords: Sendable {
        /// An error, as for any keyword outside the subset: a manifest's `maxLenght` is a typo
        /// its author wants to hear about.
        case refused
        /// Ignored, as JSON Schema says of unknown keywords (annotations): a schema someone else
        /// wrote (a client's function, with BFCL's `optional: true` on a member) loads as
        /// OpenAI's API takes it. JSON Schema's own keywords outside the subset are still refused.
        case annotations
    }

    /// Loads a schema; an unsupported keyword, a malformed value, a `$ref` that does not
    /// resolve, a `$ref` cycle, or an invalid `pattern` is an error naming the keyword and pointer.
    /// With `.annotations`, `json` is the document without them.
    public init(json: GeneratedContent, unknownKeywords: UnknownKeywords = .refused) throws(SchemaError) {
        let document = unknownKeywords == .annotations ? SchemaCompiler.withoutUnknownKeywords(json) : json
        var compiler = SchemaCompiler(document: document)
        self.compiled = try compiler.compile()
        self.json = document
    }

    /// Every violation of `instance`, in document order; empty when it is valid.
    public func validate(_ instance: GeneratedContent) -> [SchemaViolation] {
        var validator = SchemaValidator(nodes: compiled.nodes, collecting: true)
        _ = validator.validateDocument(instance)
        return validator.violations
    }

    /// Whether `instance` is valid; cheaper than `validate(_:)` as it stops at the first violation.
    public func isValid(_ instance: GeneratedContent) -> Bool {
        var validator = SchemaValidator(nodes: compiled.nodes, collecting: false)
        return validator.validateDocument(instance)
    }

    /// The keywords of Trailhead's subset; any other keyword is refused when a schema loads.
    public static var supportedKeywords: Set<String> { SchemaCompiler.supportedKeywords }

    public static func == (lhs: GenerationSchema, rhs: GenerationSchema) -> Bool { lhs.json == rhs.json }
    public func hash(into hasher: inout Hasher) { hasher.combine(json) }
}

/// Why a schema could not be loaded.
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offending keyword, when one is to blame (e.g. `patternProperties`).
    public var keyword: String?
    /// JSON pointer into the schema (`/properties/days/items`).
    public var pointer: String
    public var message: String

    public init(keyword: String?, pointer: String, message: String) {
        self.keyword = keyword
        self.pointer = pointer
        self.message = message
    }

    public var description: String { "\(pointer.isEmpty ? "/" : pointer): \(message)" }
}

/// One way an instance fails a schema.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// JSON pointer into the instance (`/days/2/date`); empty for the root.
    public var instancePointer: String
    /// JSON pointer into the schema of the failing keyword (`/properties/days/minItems`).
    public var schemaPointer: String
    /// One line a model can act on ("expected exactly 3 items, got 2").
    public var message: String

    public init(instancePointer: String, schemaPointer: String, message: String) {
        self.instancePointer = instancePointer
        self.schemaPointer = schemaPointer
        self.message = message
    }

    /// "/days: expected exactly 3 items, got 2"
    public var description: String { "\(instancePointer.isEmpty ? "/" : instancePointer): \(message)" }
}
