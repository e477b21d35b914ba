import TrailheadSchema

/// The tools an MCP server session offers: one plugin's (`agent-tool-host`) or the registry's
/// (`agent mcp serve`). Calls validate their arguments (unless the client already did) and run
/// the tool wherever it lives.
protocol MCPToolSource: Sendable {
    /// `serverInfo` of `initialize`: `{"name", "version"}`.
    var serverInfo: GeneratedContent { get }
    /// Whether `notifications/tools/list_changed` may come (announced in `initialize`).
    var toolsCanChange: Bool { get }
    /// Members added to the `initialize` result (the worker's `trailhead` handshake).
    var initializeExtras: JSONObject { get }
    /// Why no tool can be served (a plugin that failed to load), or `nil`.
    var unavailableReason: String? { get }
    /// The tools, as `(listed name, manifest)`.
    func listedTools() -> [(name: String, tool: ToolManifest)]
    /// Whether a tool of this name is served.
    func serves(_ name: String) -> Bool
    /// Runs a tool; the text is the result's compact JSON.
    func call(_ name: String, arguments: GeneratedContent, cancellation: ToolCallCancellation) -> Result<LoadedPlugin.TextResult, ToolCallError>
}
