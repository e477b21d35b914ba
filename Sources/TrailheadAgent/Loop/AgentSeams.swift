import TrailheadSchema

/// What the loop needs of the tools: run one validated call.
protocol ToolRunner: Sendable {
    func run(_ call: ToolCallRequest) async -> ToolRun
    /// Whether the named tool only reads (`Tool.isReadOnly`): calls to such tools may run at once.
    func isReadOnly(_ tool: String) -> Bool
}

/// What one call gave: a result, or the error the model reads.
struct ToolRun: Sendable {
    var result: GeneratedContent?
    var error: String?
}
