import TrailheadModels
import TrailheadSchema

extension LanguageModelSession {
    /// The answer to one `respond`: the typed content, the JSON it came from, the transcript
    /// entries the response added, what it cost and which model answered.
    public struct Response<Content> {
        public var content: Content
        public var rawContent: GeneratedContent
        public var transcriptEntries: ArraySlice<Transcript.Entry>
        public var usage: Usage
        /// The id of the model that answered (for a hybrid, the one that actually did).
        public var model: String
        /// Model turns the response took (tool calls, repairs, the answer).
        public var turns: Int
    }
}

extension LanguageModelSession.Response: Sendable where Content: Sendable {}

/// Tokens a response cost, over all of its turns, as the model's server counted them.
public struct Usage: Sendable, Equatable, Codable {
    public var inputTokens = 0
    /// Of `inputTokens`, those served from the server's prompt cache (not processed again).
    public var cachedInputTokens = 0
    public var outputTokens = 0

    public init(inputTokens: Int = 0, cachedInputTokens: Int = 0, outputTokens: Int = 0) {
        self.inputTokens = inputTokens
        self.cachedInputTokens = cachedInputTokens
        self.outputTokens = outputTokens
    }

    mutating func add(_ usage: TokenUsage?) {
        guard let usage else { return }
        inputTokens += usage.promptTokens
        cachedInputTokens += usage.cachedPromptTokens ?? 0
        outputTokens += usage.completionTokens
    }
}
