import Foundation
import TrailheadSchema

/// One manifest the registry read, and what became of it.
public struct PluginRecord: Sendable {
    /// The manifest file's path.
    public var manifestFile: String
    /// The parsed manifest; `nil` when the file itself could not be read or parsed.
    public var manifest: Manifest?
    public var status: PluginStatus

    /// The plugin's name, or the manifest file's name when the manifest could not be read.
    public var name: String {
        manifest?.plugin ?? ((manifestFile as NSString).lastPathComponent as String)
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
    public var manifest: ToolManifest

    public var name: String { manifest.name }
}
