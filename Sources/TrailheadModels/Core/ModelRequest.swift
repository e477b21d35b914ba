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

/// Sampling and length settings. `nil` leaves the backend's default.
public struct GenerationOptions: Sendable, Hashable {
    public var temperature: Double?
    public var topP: Double?
    public var seed: Int?
    public var maxTokens: Int?

    public init(temperature: Double? = nil, topP: Double? = nil, seed: Int? = nil, maxTokens: Int? = nil) {
        self.temperature = temperature
        self.topP = topP
        self.seed = seed
        self.maxTokens = maxTokens
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
