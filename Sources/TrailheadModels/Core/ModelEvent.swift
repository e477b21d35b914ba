import TrailheadSchema

/// One step of a streamed generation: text as it comes, what it has cost so far and what the
/// backend says about it (Foundation Models 27's executor sends the same three on its channel:
/// `appendText`, `updateUsage`, `updateMetadata`), then the final record.
public enum ModelEvent: Sendable, Equatable {
    /// Newly generated text, to be appended to what came before.
    case text(String)
    /// The tokens this generation has taken so far, as the backend counted them. Each replaces
    /// the one before (totals, not increments); a backend that cannot count sends none.
    case usage(TokenUsage)
    /// What the backend says about this generation (the model that served it, a request id, the
    /// server's timings). Each replaces the one before.
    case metadata([String: GeneratedContent])
    /// The end: the whole answer with its accounting. Always the last event.
    case completed(ModelResponse)
}

/// The final record of a generation.
public struct ModelResponse: Sendable, Equatable {
    /// The whole generated text.
    public var text: String
    /// The id of the model that answered (for a hybrid, the one that actually did).
    public var modelID: String
    public var usage: TokenUsage?
    public var timings: ModelTimings
    /// Why the generation stopped, as the backend said it (`stop`, `length`).
    public var finishReason: String?
    /// The last `.metadata` the backend sent, empty when it sent none.
    public var metadata: [String: GeneratedContent]

    public init(
        text: String, modelID: String, usage: TokenUsage?, timings: ModelTimings, finishReason: String?,
        metadata: [String: GeneratedContent] = [:]
    ) {
        self.text = text
        self.modelID = modelID
        self.usage = usage
        self.timings = timings
        self.finishReason = finishReason
        self.metadata = metadata
    }
}

/// Tokens in and out, as the backend counted them.
public struct TokenUsage: Sendable, Equatable, Codable {
    public var promptTokens: Int
    public var completionTokens: Int
    /// Prompt tokens served from the backend's cache (llama.cpp's `cache_n`), when known.
    public var cachedPromptTokens: Int?
    /// Of `completionTokens`, those the model spent reasoning before its answer
    /// (`completion_tokens_details.reasoning_tokens`), when known.
    public var reasoningTokens: Int?

    public init(promptTokens: Int, completionTokens: Int, cachedPromptTokens: Int? = nil, reasoningTokens: Int? = nil) {
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.cachedPromptTokens = cachedPromptTokens
        self.reasoningTokens = reasoningTokens
    }
}

/// Where the time went, in seconds. Wall-clock values are measured by us; the `server*` ones are
/// reported by the server (llama.cpp's `timings`) when it does.
public struct ModelTimings: Sendable, Equatable, Codable {
    /// From sending the request to the first text delta.
    public var timeToFirstToken: Double?
    /// From sending the request to the final record.
    public var total: Double
    public var serverPromptSeconds: Double?
    public var serverGenerationSeconds: Double?

    public init(timeToFirstToken: Double? = nil, total: Double, serverPromptSeconds: Double? = nil, serverGenerationSeconds: Double? = nil) {
        self.timeToFirstToken = timeToFirstToken
        self.total = total
        self.serverPromptSeconds = serverPromptSeconds
        self.serverGenerationSeconds = serverGenerationSeconds
    }
}

extension AsyncThrowingStream where Element == ModelEvent, Failure == any Error {
    /// A stream fed by `body` in a task of its own, finished when `body` returns or throws.
    /// A consumer that stops listening cancels the task, and with it the request.
    static func producing(_ body: @escaping @Sendable (Continuation) async throws -> Void) -> Self {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await body(continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
