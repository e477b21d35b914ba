import TrailheadSchema

/// Turns a running MCP server into its manifest (what `agent tools register --mcp` writes): the
/// tools it lists, each with its schemas, pinned by the digest of those schemas.
public enum MCPServerRegistration {
    /// Starts the server, lists its tools and stops it.
    ///
    /// - Parameters:
    ///   - plugin: the plugin name; by default the server's own (`serverInfo.name`), made valid.
    /// - Returns: the manifest; tools outside Trailhead's schema subset are in `refusedTools`.
    public static func manifest(for server: MCPServerSpec, plugin: String? = nil, timeoutMs: Int = Manifest.defaultTimeoutMs)
        throws(PluginLoadError) -> Manifest
    {
        let client = WorkerClient(plugin: plugin ?? "mcp", launcher: MCPServerLauncher(spec: server, pin: nil), timeoutMs: timeoutMs, crashLimit: 1)
        let handshake = try client.start()
        client.shutdown()
        let name = plugin ?? validName(handshake.name)
        let version = handshake.version.flatMap { $0.isEmpty ? nil : $0 } ?? "unversioned"
        let document: GeneratedContent = [
            "manifestVersion": .number(Double(Manifest.supportedVersion)),
            "plugin": .string(name),
            "version": .string(version),
            "server": server.json,
            "sha256": .string(MCPToolListing.digest(of: handshake.tools)),
            "timeoutMs": .number(Double(timeoutMs)),
            "tools": .array(handshake.tools.map(MCPToolListing.manifestEntry)),
        ]
        do { return try Manifest(json: document) } catch {
            throw PluginLoadError("MCP server '\(server.summary)': its tools cannot be described: \(error)")
        }
    }

    /// `serverInfo.name` as a plugin name: characters outside `[A-Za-z0-9_.-]` become `-`.
    static func validName(_ name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
        let cleaned = String(name.map { allowed.contains($0) ? $0 : "-" }.prefix(64))
        return cleaned.isEmpty ? "mcp-server" : cleaned
    }
}
