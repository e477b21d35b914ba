import Foundation
import TrailheadSchema

/// One manifest the registry read, and what became of it.
public struct PluginRecord: Sendable {
    /// The manifest file's path.
    public var manifestFile: String
    /// The parsed manifest; `nil` when the file itself could not be read or parsed.
    public var manifest: Manifest?
    public var status: PluginStatus
    /// Tools refused one by one while the rest of the plugin loaded (an MCP server's tool with an
    /// unsupported schema keyword, or whose name another plugin took), by registered name.
    public var refusedTools: [String: String] = [:]

    public init(manifestFile: String, manifest: Manifest?, status: PluginStatus, refusedTools: [String: String] = [:]) {
        self.manifestFile = manifestFile
        self.manifest = manifest
        self.status = status
        self.refusedTools = refusedTools
    }

    /// The plugin's name, or the manifest file's name when the manifest could not be read.
    public var name: String {
        manifest?.plugin ?? ((manifestFile as NSString).lastPathComponent as String)
    }

    /// Every tool the manifest declares, by the name it is registered under (an MCP server's
    /// prefix added), loadable or refused, in manifest order.
    public var declaredTools: [String] {
        guard let manifest else { return [] }
        return manifest.tools.map { manifest.registeredName(of: $0.name) } + manifest.refusedTools.map { manifest.registeredName(of: $0.name) }
    }

    /// Whether `tool` (a registered name) can be called: the plugin's status, or the tool's own refusal.
    public func status(ofTool tool: String) -> PluginStatus {
        guard status.isOK else { return status }
        if let reason = refusedTools[tool] { return .refused(reason) }
        return .ok
    }
}

/// Whether a plugin's tools can be called.
public enum PluginStatus: Sendable, Equatable, CustomStringConvertible {
    case ok
    /// Refused at load time, or quarantined later; the reason says what to fix.
    case refused(String)

    public var isOK: Bool { self == .ok }

    public var description: String {
        switch self {
        case .ok: "ok"
        case .refused(let reason): "refused: \(reason)"
        }
    }
}

/// A callable tool and the plugin it belongs to.
public struct RegisteredTool: Sendable {
    public var plugin: String
    public var isolation: Isolation
    public var timeoutMs: Int
    /// The tool's manifest; its `name` is the registered one (an MCP server's prefix included).
    public var manifest: ToolManifest

    public var name: String { manifest.name }
}

extension Manifest {
    /// The name a tool of this manifest is registered under: an MCP server's prefix, then its name.
    public func registeredName(of tool: String) -> String {
        server?.registeredName(of: tool) ?? tool
    }
}
