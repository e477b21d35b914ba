/// A Swift type a model can generate: it declares its schema in code and converts to and from
/// `GeneratedContent` through `Codable` (declared property order is kept when encoding).
///
///     struct Activity: Generable {
///         var name: String
///         var category: Category
///         static let generationSchema = SchemaBuilder.object(properties: [
///             "name": .string(description: "The place, as the tool named it"),
///             "category": .string(enum: ["hike", "viewpoint", "museum"]),
///         ]).declaredSchema
///     }
///
/// While a value streams, a session hands out `PartiallyGenerated` snapshots. By default that is
/// `PartiallyGeneratedContent<Self>`, a view of the partial JSON; a type that wants a typed
/// view declares its own, with every property optional (what `@Generable` writes for you in
/// Foundation Models), and it decodes from each snapshot:
///
///     struct PartiallyGenerated: Decodable { var name: String?; var category: Category? }
public protocol Generable: Codable, PromptRepresentable {
    /// The schema every generated value of this type satisfies.
    static var generationSchema: GenerationSchema { get }

    /// What a snapshot of a value still being generated decodes to.
    associatedtype PartiallyGenerated: Decodable = PartiallyGeneratedContent<Self>
}

extension Generable {
    /// A value from generated content: validated against the schema first, so a model's
    /// mistakes come back as violations it can act on, then decoded.
    public init(_ content: GeneratedContent) throws {
        let violations = Self.generationSchema.validate(content)
        guard violations.isEmpty else { throw GeneratedContentInvalid(violations: violations) }
        self = try content.decode(as: Self.self)
    }

    /// This value as content, keys in declaration order.
    public func generatedContent() throws -> GeneratedContent {
        try GeneratedContent(encoding: self)
    }

    public func promptRepresentation() throws -> GeneratedContent { try generatedContent() }
}

/// Content that does not satisfy a schema, with every violation.
public struct GeneratedContentInvalid: Error, Sendable, Equatable, CustomStringConvertible {
    public var violations: [SchemaViolation]

    public init(violations: [SchemaViolation]) { self.violations = violations }

    public var description: String { violations.map(\.description).joined(separator: "\n") }
}

extension SchemaBuilder {
    /// The schema of a type's declaration. A schema written in code that does not load (a
    /// malformed pattern, say) is a programming error, found by the type's first test: it
    /// stops the program with the `SchemaError`. Use `schema()` to handle it instead.
    public var declaredSchema: GenerationSchema {
        do {
            return try schema()
        } catch {
            preconditionFailure("invalid schema declared in code: \(error)")
        }
    }
}
