import TrailheadSchema

/// Where a loaded plugin's calls go: into this process, or to its worker (a plugin worker or an MCP server).
protocol PluginBackend: Sendable {
    /// Calls a tool (by its registered name) with validated arguments.
    func call(tool: String, arguments: GeneratedContent, cancellation: ToolCallCancellation?) -> Result<GeneratedContent, ToolCallError>
    /// Closes the plugin (in process) or stops its worker.
    func shutdown()
    /// Whether repeated crashes put the plugin in quarantine (its calls are refused).
    var isQuarantined: Bool { get }
    /// Lifts a quarantine when its cause went away (a replaced library); true when it did.
    func recheckQuarantine() -> Bool
}

extension LoadedPlugin: PluginBackend {
    /// An in-process call cannot be interrupted: it runs to its end.
    func call(tool: String, arguments: GeneratedContent, cancellation: ToolCallCancellation?) -> Result<GeneratedContent, ToolCallError> {
        call(tool: tool, arguments: arguments)
    }

    func shutdown() { close() }
    var isQuarantined: Bool { false }
    func recheckQuarantine() -> Bool { false }
}

extension WorkerClient: PluginBackend {}
