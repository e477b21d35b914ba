import TrailheadSchema

/// One message of a conversation.
public struct ChatMessage: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Hashable, Codable {
        case system, user, assistant
    }

    public var role: Role
    public var content: String

    public init(_ role: Role, _ content: String) {
        self.role = role
        self.content = content
    }

    public static func system(_ content: String) -> ChatMessage { ChatMessage(.system, content) }
    public static func user(_ content: String) -> ChatMessage { ChatMessage(.user, content) }
    public static func assistant(_ content: String) -> ChatMessage { ChatMessage(.assistant, content) }
}

/// Sampling and length settings, with Foundation Models' names (`sampling`, `temperature`,
/// `maximumResponseTokens`) beside the wire's (`topP`, `seed`, `maxTokens`). `nil` leaves the
/// backend's default.
public struct GenerationOptions: Sendable, Hashable {
    /// How the next token is chosen.
    public struct SamplingMode: Sendable, Hashable {
        var topK: Int?
        var topP: Double?
        var seed: UInt64?

        /// Always the most likely token: the same prompt gives the same answer.
        public static let greedy = SamplingMode(topK: 1)
        /// Among the `top` most likely tokens.
        public static func random(top: Int, seed: UInt64? = nil) -> SamplingMode { SamplingMode(topK: top, seed: seed) }
        /// Among the most likely tokens whose probabilities add up to `probabilityThreshold`.
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(topP: probabilityThreshold, seed: seed)
        }
    }

    public var temperature: Double?
    public var topP: Double?
    /// Sample among the `topK` most likely tokens (llama.cpp servers; others ignore it).
    public var topK: Int?
    public var seed: Int?
    public var maxTokens: Int?
    /// Whether the model may, must or must not call tools (`nil`: `.allowed`). A session enforces
    /// it in its step schema; a model without tools ignores it.
    public var toolCallingMode: ToolCallingMode?

    public init(
        temperature: Double? = nil, topP: Double? = nil, topK: Int? = nil, seed: Int? = nil, maxTokens: Int? = nil,
        toolCallingMode: ToolCallingMode? = nil
    ) {
        self.temperature = temperature
        self.topP = topP
        self.topK = topK
        self.seed = seed
        self.maxTokens = maxTokens
        self.toolCallingMode = toolCallingMode
    }

    /// Foundation Models' spelling: `GenerationOptions(sampling: .greedy, maximumResponseTokens: 400)`.
    public init(
        sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil, toolCallingMode: ToolCallingMode? = nil
    ) {
        self.init(temperature: temperature, maxTokens: maximumResponseTokens, toolCallingMode: toolCallingMode)
        guard let sampling else { return }
        topK = sampling.topK
        topP = sampling.topP
        seed = sampling.seed.map { Int(truncatingIfNeeded: $0) }
        if sampling == .greedy, self.temperature == nil { self.temperature = 0 }
    }

    /// The longest answer allowed, in tokens.
    public var maximumResponseTokens: Int? {
        get { maxTokens }
        set { maxTokens = newValue }
    }
}

/// What to generate: a conversation, an optional schema the output must match, and options.
public struct ModelRequest: Sendable {
    public var messages: [ChatMessage]
    /// When set, the backend constrains the output to one JSON document matching it.
    public var schema: GenerationSchema?
    public var options: GenerationOptions

    public init(messages: [ChatMessage], schema: GenerationSchema? = nil, options: GenerationOptions = .init()) {
        self.messages = messages
        self.schema = schema
        self.options = options
    }
}
