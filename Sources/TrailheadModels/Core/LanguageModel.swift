import TrailheadSchema

/// A model that turns a conversation into text, optionally constrained by a schema.
///
/// Every backend (an OpenAI-compatible server, the managed local llama-server, a hybrid of two,
/// a scripted replay) has this one shape, so the agent loop never knows which one it drives.
public protocol LanguageModel: Sendable {
    /// A stable name for transcripts and errors (`local:qwen2.5-coder-1.5b`, `http://…#gpt-4o`).
    var id: String { get }

    /// Whether a request could be served now, and if not, what the user can do about it.
    /// Cheap: it may look at files and ask a server's health endpoint, never loads a model.
    var availability: ModelAvailability { get async }

    /// Gets ready for a conversation that starts with `prefix` (typically the system message):
    /// loads the model and, where the backend can, evaluates the prefix into its cache so the
    /// first real turn only pays for what follows.
    func prewarm(prefix: [ChatMessage]) async throws

    /// The number of tokens of `text` in the model's vocabulary, or `nil` when the backend
    /// cannot tell.
    func countTokens(_ text: String) async throws -> Int?

    /// What the model can do (Foundation Models 27's `capabilities`): a session that needs a
    /// capability the model lacks throws `LanguageModelError.unsupportedCapability` without
    /// calling it. The default is what the session needs of every backend: tool calling and
    /// guided generation.
    var capabilities: LanguageModelCapabilities { get }

    /// Tokens of context one conversation may fill, prompt and answer together (Foundation
    /// Models 27's `contextSize`), or `nil` when the backend does not say.
    var contextSize: Int? { get async }

    /// The tokens `messages` take as the model reads them, chat template included (Foundation
    /// Models 27's `tokenCount(for:)`): exact where the backend can count (llama.cpp), otherwise
    /// `TokenEstimate`'s estimate, whose error bound is stated there.
    func tokenCount(for messages: [ChatMessage]) async throws -> Int

    /// Streams the answer to `request`: text deltas, with usage and metadata updates where the
    /// backend knows them, then exactly one `.completed` record. Cancelling the consuming task
    /// cancels the underlying request.
    func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error>

    /// The `count` most likely next tokens once the assistant's answer to `messages` has begun
    /// with `prefix`, unconstrained, or `nil` when the backend cannot tell (llama.cpp can). The
    /// agent loop reads its first decision — call a tool or answer — from these
    /// (`ToolDecision`) rather than from the one greedy token.
    func nextTokenProbabilities(for messages: [ChatMessage], continuing prefix: String, count: Int) async throws -> [TokenProbability]?
}

// MARK: - Default implementations

extension LanguageModel {
    public func prewarm(prefix: [ChatMessage]) async throws {}

    public func countTokens(_ text: String) async throws -> Int? { nil }

    public var capabilities: LanguageModelCapabilities { .toolCallingAndGuidedGeneration }

    public var contextSize: Int? { get async { nil } }

    public func tokenCount(for messages: [ChatMessage]) async throws -> Int { TokenEstimate(messages).tokens }

    public func nextTokenProbabilities(for messages: [ChatMessage], continuing prefix: String, count: Int) async throws -> [TokenProbability]? {
        nil
    }

    /// Runs `request` to the end and returns the final record.
    public func respond(to request: ModelRequest) async throws -> ModelResponse {
        for try await event in generate(request) {
            if case .completed(let response) = event { return response }
        }
        throw ModelError.protocolViolation(model: id, message: "the stream ended without a final record")
    }
}
