import TrailheadSchema

/// The registry's tools as one MCP server's: those of the plugins named (or all), validated,
/// isolated and restarted exactly as in `agent plan`, since every call goes through the registry.
struct RegistryToolSource: MCPToolSource {
    let registry: ToolRegistry
    /// Plugin names to serve; `nil` serves every plugin, including ones registered later.
    let plugins: Set<String>?

    var serverInfo: GeneratedContent { ["name": "trailhead", "version": .string(MCPToolServer.version)] }
    var toolsCanChange: Bool { true }
    var initializeExtras: JSONObject { [:] }
    var unavailableReason: String? { nil }

    func listedTools() -> [(name: String, tool: ToolManifest)] {
        registry.tools.filter { plugins?.contains($0.plugin) ?? true }.map { ($0.name, $0.manifest) }
    }

    func serves(_ name: String) -> Bool {
        guard let tool = registry.tool(named: name) else { return false }
        return plugins?.contains(tool.plugin) ?? true
    }

    func call(_ name: String, arguments: GeneratedContent, cancellation: ToolCallCancellation) -> Result<LoadedPlugin.TextResult, ToolCallError> {
        registry.result(of: name, arguments: arguments, cancellation: cancellation).map { .init(value: $0, text: $0.jsonString) }
    }
}
