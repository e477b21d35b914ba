import TrailheadSchema

/// Where a loaded plugin's calls go: into this process, or to its worker.
protocol PluginBackend: Sendable {
    /// Calls a tool with validated arguments.
    func call(tool: String, arguments: GeneratedContent) -> Result<GeneratedContent, ToolCallError>
    /// Closes the plugin (in process) or stops its worker.
    func shutdown()
}

extension LoadedPlugin: PluginBackend {
    func shutdown() { close() }
}

extension WorkerClient: PluginBackend {}
