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
public struct Instructions: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public var text: String

    public init(_ text: String) { self.text = text }
    public init(stringLiteral text: String) { self.text = text }
    public init(@PromptTextBuilder _ content: () throws -> [String]) rethrows { text = try content().joined(separator: "\n") }
}

/// One request of the user. Written as text or with a builder, like `Instructions`.
public struct Prompt: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public var text: String

    public init(_ text: String) { self.text = text }
    public init(stringLiteral text: String) { self.text = text }
    public init(@PromptTextBuilder _ content: () throws -> [String]) rethrows { text = try content().joined(separator: "\n") }
}

/// The lines of an `Instructions` or `Prompt` builder: strings as they are, other values (a
/// `Generable` example) as compact JSON; `if`, `if/else` and `for` work as in any builder.
@resultBuilder
public enum PromptTextBuilder {
    public static func buildExpression(_ text: String) -> [String] { [text] }
    public static func buildExpression(_ text: Instructions) -> [String] { [text.text] }
    public static func buildExpression(_ text: Prompt) -> [String] { [text.text] }
    public static func buildExpression(_ value: some PromptRepresentable) -> [String] {
        // An example that cannot be encoded is a programming error, visible in the text itself.
        guard let content = try? value.promptRepresentation() else { return ["(unencodable \(type(of: value)))"] }
        return [content.stringValue ?? content.jsonString]
    }
    public static func buildBlock(_ parts: [String]...) -> [String] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [String]?) -> [String] { part ?? [] }
    public static func buildEither(first part: [String]) -> [String] { part }
    public static func buildEither(second part: [String]) -> [String] { part }
    public static func buildArray(_ parts: [[String]]) -> [String] { parts.flatMap { $0 } }
}
