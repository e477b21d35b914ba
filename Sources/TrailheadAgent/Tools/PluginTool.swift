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

    public func call(arguments: GeneratedContent) async throws -> GeneratedContent {
        do { return try await registry.call(name, arguments: arguments) } catch {
            throw PluginToolError(message: "\(error)", workerRestarts: 0)
        }
    }
}

/// A plugin call that failed (a tool error, a crash, a timeout), as the model will read it.
struct PluginToolError: Error {
    var message: String
    var workerRestarts: Int
}

extension ToolRegistry {
    /// The tools of the named plugins (every registered plugin when `plugins` is nil), for a
    /// session. An unknown or refused plugin is an error that names it and what is installed.
    public func sessionTools(plugins: [String]? = nil, excluding excluded: Set<String> = []) throws(SessionSetupError) -> [PluginTool] {
        let names = plugins ?? self.plugins.compactMap { $0.status.isOK ? $0.manifest?.plugin : nil }
        var tools: [PluginTool] = []
        for name in names {
            guard let record = plugin(named: name) else {
                let known = self.plugins.compactMap(\.manifest?.plugin).joined(separator: ", ")
                throw SessionSetupError("no tool plugin named '\(name)' (installed: \(known.isEmpty ? "none" : known))")
            }
            guard record.status.isOK else { throw SessionSetupError("plugin '\(name)' is \(record.status)") }
            for tool in self.tools where tool.plugin == name && !excluded.contains(tool.name) {
                tools.append(PluginTool(registry: self, manifest: tool.manifest))
            }
        }
        return tools
    }
}
