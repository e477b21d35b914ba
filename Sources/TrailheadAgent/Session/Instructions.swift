import TrailheadSchema

/// What a session's model is told before any prompt: its task, its rules, an example. Written as
/// text or with a builder that also takes `Generable` values (an example answer, rendered as
/// compact JSON), as in Foundation Models:
///
///     Instructions {
///         "Your job is to create an itinerary for the user."
///         "Here is an example, but don't copy it:"
///         Itinerary.exampleTripToJapan
///     }
///
/// The examples are kept apart as well (`examples`): the session holds an answer to "don't copy
/// it", refusing an answer that repeats one of their texts the request and the tools never said
/// (a 1.5B model asked for Joshua Tree copied the Mount Fuji example's restaurant into every day).
public struct Instructions: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public var text: String
    /// The values given as examples (`Generable` values in the builder), as the model reads them.
    public var examples: [GeneratedContent]

    public init(_ text: String, examples: [GeneratedContent] = []) {
        self.text = text
        self.examples = examples
    }
    public init(stringLiteral text: String) { self.init(text) }
    public init(@PromptTextBuilder _ content: () throws -> [PromptPiece]) rethrows {
        let pieces = try content()
        self.init(pieces.map(\.text).joined(separator: "\n"), examples: pieces.flatMap(\.examples))
    }
}

/// One request of the user. Written as text or with a builder, like `Instructions`.
public struct Prompt: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public var text: String

    public init(_ text: String) { self.text = text }
    public init(stringLiteral text: String) { self.text = text }
    public init(@PromptTextBuilder _ content: () throws -> [PromptPiece]) rethrows { text = try content().map(\.text).joined(separator: "\n") }
}

/// One line of an `Instructions` or `Prompt` builder: text, or an example value and the compact
/// JSON the model reads of it.
public struct PromptPiece: Sendable, Equatable {
    public var text: String
    /// The values the line shows as examples: the one it renders, or those of nested instructions.
    public var examples: [GeneratedContent]

    public init(text: String, examples: [GeneratedContent] = []) {
        self.text = text
        self.examples = examples
    }
}

/// The lines of an `Instructions` or `Prompt` builder: strings as they are, other values (a
/// `Generable` example) as compact JSON; `if`, `if/else` and `for` work as in any builder.
@resultBuilder
public enum PromptTextBuilder {
    public static func buildExpression(_ text: String) -> [PromptPiece] { [PromptPiece(text: text)] }
    public static func buildExpression(_ text: Instructions) -> [PromptPiece] {
        [PromptPiece(text: text.text, examples: text.examples)]
    }
    public static func buildExpression(_ text: Prompt) -> [PromptPiece] { [PromptPiece(text: text.text)] }
    public static func buildExpression(_ value: some PromptRepresentable) -> [PromptPiece] {
        // An example that cannot be encoded is a programming error, visible in the text itself.
        guard let content = try? value.promptRepresentation() else { return [PromptPiece(text: "(unencodable \(type(of: value)))")] }
        if let text = content.stringValue { return [PromptPiece(text: text)] }
        return [PromptPiece(text: content.jsonString, examples: [content])]
    }
    public static func buildBlock(_ parts: [PromptPiece]...) -> [PromptPiece] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [PromptPiece]?) -> [PromptPiece] { part ?? [] }
    public static func buildEither(first part: [PromptPiece]) -> [PromptPiece] { part }
    public static func buildEither(second part: [PromptPiece]) -> [PromptPiece] { part }
    public static func buildArray(_ parts: [[PromptPiece]]) -> [PromptPiece] { parts.flatMap { $0 } }
}
