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

    func run(_ call: ToolCallRequest) async -> ToolRun {
        guard let tool = tools[call.tool] else { return ToolRun(result: nil, error: "unknown tool \"\(call.tool)\"") }
        if tool.needsApproval, await !approve(call) {
            return ToolRun(result: nil, error: "the user did not approve this call of \(call.tool)")
        }
        return await tool.run(call.arguments)
    }

    func isReadOnly(_ tool: String) -> Bool { tools[tool]?.isReadOnly ?? false }
}
