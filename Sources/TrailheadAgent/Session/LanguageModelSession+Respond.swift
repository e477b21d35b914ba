import TrailheadModels
import TrailheadSchema

extension LanguageModelSession {
    /// Answers `prompt` with text (calling tools first when the model wants to).
    public func respond(to prompt: Prompt, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        let outcome = try await perform(prompt, answer: .text, includeSchemaInPrompt: false, options: options, prefetch: [])
        return Self.response(outcome, content: outcome.content.stringValue ?? outcome.content.jsonString)
    }

    /// Answers `prompt` with a value of `type`, generated under its schema.
    /// - Parameters:
    ///   - schema: the schema to generate under when it is narrower than the type's own (counts or
    ///     values fixed per request); the answer must still decode as `type`.
    ///   - includeSchemaInPrompt: also describe the schema in the prompt. The output is
    ///     constrained either way; leave it out (and save its tokens) when the instructions show
    ///     a complete example or an earlier response of the session already had it.
    ///   - prefetching: calls made before the first turn because the request already fixes their
    ///     arguments (the calendar of the requested dates, say): they run concurrently, their
    ///     results go into the prompt and the transcript, and the model's turns are left for the
    ///     choices only it can make.
    public func respond<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, schema: GenerationSchema? = nil,
        includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(), prefetching: [ToolCallRequest] = []
    ) async throws -> Response<Content> {
        let outcome = try await perform(
            prompt, answer: .schema(schema ?? Content.generationSchema), includeSchemaInPrompt: includeSchemaInPrompt, options: options,
            prefetch: prefetching)
        return Self.response(outcome, content: try Self.decode(Content.self, from: outcome.content))
    }

    /// Answers `prompt` with JSON matching `schema`, known only at run time.
    public func respond(
        to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions(), prefetching: [ToolCallRequest] = []
    ) async throws -> Response<GeneratedContent> {
        let outcome = try await perform(
            prompt, answer: .schema(schema), includeSchemaInPrompt: includeSchemaInPrompt, options: options, prefetch: prefetching)
        return Self.response(outcome, content: outcome.content)
    }

    // MARK: - Prompts written with a builder

    /// `respond(to:options:)` with the prompt written in a builder.
    public func respond(options: GenerationOptions = GenerationOptions(), @PromptTextBuilder prompt: () throws -> [PromptPiece]) async throws -> Response<String> {
        try await respond(to: Prompt(prompt), options: options)
    }

    /// `respond(to:generating:…)` with the prompt written in a builder.
    public func respond<Content: Generable>(
        generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptTextBuilder prompt: () throws -> [PromptPiece]
    ) async throws -> Response<Content> {
        try await respond(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    static func response<Content>(_ outcome: Outcome, content: Content) -> Response<Content> {
        Response(
            content: content, rawContent: outcome.content, transcriptEntries: outcome.entries, usage: outcome.usage,
            model: outcome.model, turns: outcome.turns)
    }

    static func decode<Content: Generable>(_ type: Content.Type, from content: GeneratedContent) throws -> Content {
        do { return try content.decode(as: Content.self) } catch {
            throw GenerationError.decodingFailure("\(Content.self): \(error)")
        }
    }
}
