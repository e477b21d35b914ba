/// A Swift type a model can generate, as `@Generable` makes one in Foundation Models, without
/// macros: the schema is recorded from the type's own `Decodable` conformance, and converts to
/// and from `GeneratedContent` through `Codable` (declared property order is kept when encoding).
///
///     struct Itinerary: Generable {
///         let title: String
///         let days: [DayPlan]
///         static let guides = GuideTable(CodingKeys.self, [
///             .title: [.description("An exciting name for the trip."), .words(2...8)],
///             .days: [.count(3)],
///         ])
///     }
///
/// The derived schema (`GenerationSchema.derived(from:)`) has the members in declaration order,
/// optionals not required, nested types, arrays, `CaseIterable` enums with `String` raw values as
/// `enum`, and recursive types through `$ref`. A member it cannot describe exactly (a `Date`, a
/// `URL`, a dictionary, an enum with associated values) is refused with the type and the member
/// named: give that member a `.schema(…)` guide, or declare `generationSchema` by hand, which
/// takes precedence (`SchemaBuilder`).
///
/// While a value streams, a session hands out `PartiallyGenerated` snapshots. By default that is
/// `Partial<Self>`, which reads the members that have arrived through the type's own key paths
/// (`snapshot.days?.first?.title`). A type may declare its own view instead, every property
/// optional; it is decoded from each snapshot leniently (a member that cannot decode yet is nil):
///
///     struct PartiallyGenerated: Decodable { var name: String?; var category: Category? }
public protocol Generable: Codable, PromptRepresentable {
    /// The schema every generated value of this type satisfies (default: derived, once per type).
    static var generationSchema: GenerationSchema { get }

    /// Guides for the derived schema's members, keyed by `CodingKeys` (default: none).
    static var guides: GuideTable { get }

    /// What a snapshot of a value still being generated decodes to.
    associatedtype PartiallyGenerated: Decodable = Partial<Self>
}

// MARK: - Default implementations

extension Generable {
    /// The schema recorded from this type's `Decodable` conformance and `guides`. A type it cannot
    /// describe is a programming error, found by the type's first test: it stops the program with
    /// the `SchemaDerivationError` (use `GenerationSchema.derived(from:)` to handle it instead).
    public static var generationSchema: GenerationSchema {
        if DerivationProbe.asking == ObjectIdentifier(Self.self) { return DerivationProbe.marker }
        do {
            return try GenerationSchema.derived(from: Self.self)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    public static var guides: GuideTable { GuideTable() }
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
