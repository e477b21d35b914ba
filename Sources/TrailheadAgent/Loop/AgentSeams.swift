import TrailheadSchema

/// A message of the conversation the loop keeps with the model.
public struct ChatMessage: Sendable, Equatable {
    public enum Role: String, Sendable { case system, user, assistant }
    public var role: Role
    public var content: String
    public init(_ role: Role, _ content: String) {
        self.role = role
        self.content = content
    }
}

/// What the loop needs of a model: one constrained turn, streamed.
public protocol TurnModel: Sendable {
    /// Answers `messages` with text constrained to `schema`, reporting text as it arrives.
    func respond(to messages: [ChatMessage], schema: GeneratedContent, onText: @escaping @Sendable (String) -> Void) async throws -> TurnReply
}

/// A finished turn.
public struct TurnReply: Sendable {
    public var text: String
    /// Which model answered (a hybrid records the one that did).
    public var model: String
    public var tokensIn: Int?
    public var tokensOut: Int?
    public init(text: String, model: String, tokensIn: Int? = nil, tokensOut: Int? = nil) {
        self.text = text
        self.model = model
        self.tokensIn = tokensIn
        self.tokensOut = tokensOut
    }
}

/// What the loop needs of the tools: run one validated call.
public protocol ToolRunner: Sendable {
    func run(_ call: ToolCallRequest) async -> ToolRun
}

public struct ToolRun: Sendable {
    public var result: GeneratedContent?
    public var error: String?
    public var workerRestarts: Int
    public init(result: GeneratedContent?, error: String?, workerRestarts: Int = 0) {
        self.result = result
        self.error = error
        self.workerRestarts = workerRestarts
    }
}
