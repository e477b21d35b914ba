import TrailheadSchema

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
