/// A value that can be handed to a model: what a tool returns (text, generated content or a
/// `Generable` value), and what an instructions or prompt builder accepts besides text.
public protocol PromptRepresentable {
    /// The value as the JSON the model reads (text is a JSON string).
    func promptRepresentation() throws -> GeneratedContent
}

extension String: PromptRepresentable {
    public func promptRepresentation() -> GeneratedContent { .string(self) }
}

/// Any JSON value is generable against a schema known only at run time (a plugin tool's
/// arguments, `respond(to:schema:)`): its static schema accepts everything, and the schema that
/// applies travels beside it (`Tool.parameters`).
extension GeneratedContent: Generable {
    public static let generationSchema = try! GenerationSchema(json: [:])
    public typealias PartiallyGenerated = GeneratedContent
}

/// Text is generable: a JSON string, streamed as the text so far.
extension String: Generable {
    public static let generationSchema = try! GenerationSchema(json: ["type": "string"])
    public typealias PartiallyGenerated = String
}

/// Any JSON object: the arguments of a tool that takes whatever it is given (an echo).
extension JSONObject: Generable {
    public static let generationSchema = try! GenerationSchema(json: ["type": "object"])
    public typealias PartiallyGenerated = JSONObject
}
