import TrailheadSchema
import TrailheadTools

/// A tool from a plugin (`Plugins/libX.so` + `Manifests/X.json`), loaded, pinned, validated and
/// isolated by a `ToolRegistry`, usable in a session beside in-process Swift tools.
///
///     let registry = ToolRegistry(.init(pluginsFolder: "Plugins", manifestsFolder: "Manifests"))
///     let session = LanguageModelSession(tools: try registry.sessionTools(plugins: ["poi"]) + [myTool])
public struct PluginTool: Tool {
    public typealias Arguments = GeneratedContent
    public typealias Output = GeneratedContent

    public let registry: ToolRegistry
    public let manifest: ToolManifest

    public init(registry: ToolRegistry, manifest: ToolManifest) {
        self.registry = registry
        self.manifest = manifest
    }

    public var name: String { manifest.name }
    public var description: String { manifest.description }
    public var parameters: GenerationSchema { manifest.arguments }
    public var outputSchema: GenerationSchema? { manifest.output }
    public var needsApproval: Bool { manifest.needsApproval }
    /// The manifest's `readOnly` annotation.
    public var isReadOnly: Bool { manifest.annotations["readOnly"] == true }

    public func call(arguments: GeneratedContent) async throws -> GeneratedContent {
        do { return try await registry.call(name, arguments: arguments) } catch {
            throw PluginToolError(message: "\(error)")
        }
    }
}

/// A plugin call that failed (a tool error, a crash, a timeout), as the model will read it.
struct PluginToolError: Error {
    var message: String
}

extension ToolRegistry {
    /// The tools of the named plugins (every registered plugin when `plugins` is nil), for a
    /// session. A name may also be a single tool's (`trailConditions` from an MCP server with other
    /// tools the session should not offer). An unknown or refused name is an error that names it
    /// and what is installed.
    public func sessionTools(plugins: [String]? = nil, excluding excluded: Set<String> = []) throws(SessionSetupError) -> [PluginTool] {
        let names = plugins ?? self.plugins.compactMap { $0.status.isOK ? $0.manifest?.plugin : nil }
        let callable = self.tools
        var chosen: [RegisteredTool] = []
        for name in names {
            if let record = plugin(named: name) {
                guard record.status.isOK else { throw SessionSetupError("plugin '\(name)' is \(record.status)") }
                chosen += callable.filter { $0.plugin == name }
            } else if let tool = callable.first(where: { $0.name == name }) {
                chosen.append(tool)
            } else {
                let known = self.plugins.compactMap(\.manifest?.plugin).joined(separator: ", ")
                throw SessionSetupError("no tool plugin or tool named '\(name)' (plugins installed: \(known.isEmpty ? "none" : known))")
            }
        }
        var seen = excluded
        return chosen.filter { seen.insert($0.name).inserted }.map { PluginTool(registry: self, manifest: $0.manifest) }
    }
}
