import Foundation
import TrailheadSchema

/// A tool as the session runs it, its types erased: arguments in and results out as JSON.
struct SessionTool: Sendable {
    var name: String
    var description: String
    var parameters: GenerationSchema
    var outputSchema: GenerationSchema?
    var includesSchemaInInstructions: Bool
    var needsApproval: Bool
    var isReadOnly: Bool
    /// Runs one call whose arguments already passed `parameters`.
    var run: @Sendable (GeneratedContent) async -> ToolRun

    init<T: Tool>(_ tool: T) {
        name = tool.name
        description = tool.description
        // Closed: keys exactly the declared parameters, in the grammar and in validation.
        parameters = ClosedArguments.close(tool.parameters)
        outputSchema = tool.outputSchema
        includesSchemaInInstructions = tool.includesSchemaInInstructions
        needsApproval = tool.needsApproval
        isReadOnly = tool.isReadOnly
        run = { arguments in
            do {
                let typed = try T.Arguments(arguments)
                let output = try await tool.call(arguments: typed)
                return ToolRun(result: try output.promptRepresentation(), error: nil)
            } catch let error as PluginToolError {
                return ToolRun(result: nil, error: error.message)
            } catch {
                return ToolRun(result: nil, error: "\(error)")
            }
        }
    }
}

/// Runs a session's calls by name, asking for approval where a tool needs it.
struct SessionToolRunner: ToolRunner {
    var tools: [String: SessionTool]
    var approve: @Sendable (ToolCallRequest) async -> Bool
    var around: ToolCallHook?

    func run(_ call: ToolCallRequest) async -> ToolRun {
        guard let tool = tools[call.tool] else { return ToolRun(result: nil, error: "unknown tool \"\(call.tool)\"") }
        let approve = approve
        let body: @Sendable () async -> ToolCallOutcome = {
            if tool.needsApproval, await !approve(call) {
                return ToolCallOutcome(result: nil, error: "the user did not approve this call of \(call.tool)")
            }
            let run = await tool.run(call.arguments)
            return ToolCallOutcome(result: run.result, error: run.error)
        }
        let outcome = if let around { await around(call, tool.needsApproval, body) } else { await body() }
        return ToolRun(result: outcome.result, error: outcome.error)
    }

    func isReadOnly(_ tool: String) -> Bool { tools[tool]?.isReadOnly ?? false }
}

/// What a call gave, as a `ToolCallHook` sees it: a result, or the error the model reads.
public struct ToolCallOutcome: Sendable, Equatable {
    public var result: GeneratedContent?
    public var error: String?

    public init(result: GeneratedContent?, error: String?) {
        self.result = result
        self.error = error
    }
}

/// Wraps one call: the call, whether its tool needs approval, and the call itself (approval,
/// then the tool) to run — or not, when the hook has the outcome already.
public typealias ToolCallHook = @Sendable (ToolCallRequest, _ needsApproval: Bool, _ run: @Sendable () async -> ToolCallOutcome) async -> ToolCallOutcome
