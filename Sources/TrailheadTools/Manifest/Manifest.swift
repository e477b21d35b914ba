import TrailheadSchema

/// A plugin's manifest, version 1: what provides the tools (a library, or an MCP server), its
/// pin, how it runs, and its tools.
///
/// See DESIGN.md ("Tools: plugins, manifests, the ABI") for the format. Parse one with
/// `Manifest(json:)`; every problem is a `ManifestError` naming the field's JSON pointer.
public struct Manifest: Sendable, Hashable {
    public static let supportedVersion = 1
    public static let defaultTimeoutMs = 5000

    /// Unique plugin name; must equal the name in the library's descriptor.
    public var plugin: String
    public var version: String
    /// Where the tools' code is: a library or an MCP server.
    public var source: PluginSource
    /// Lower-case hex sha256 of the library, or of an MCP server's tool schemas
    /// (`MCPToolListing.digest`); `nil` when unpinned.
    public var sha256: String?
    public var isolation: Isolation
    /// Per-call deadline.
    public var timeoutMs: Int
    /// Handed to the plugin's `open`, with `$home` added by the host.
    public var config: GeneratedContent
    public var permissions: GeneratedContent
    public var tools: [ToolManifest]
    /// Tools an MCP server lists that cannot be used (an unsupported schema keyword, a name
    /// outside `[A-Za-z0-9_.-]{1,64}`): kept in the manifest, refused one by one at load.
    /// Always empty for a library, whose every tool must be valid.
    public var refusedTools: [RefusedTool]

    public init(
        plugin: String, version: String, source: PluginSource, sha256: String?, isolation: Isolation,
        timeoutMs: Int, config: GeneratedContent, permissions: GeneratedContent, tools: [ToolManifest],
        refusedTools: [RefusedTool] = []
    ) {
        self.plugin = plugin
        self.version = version
        self.source = source
        self.sha256 = sha256
        self.isolation = isolation
        self.timeoutMs = timeoutMs
        self.config = config
        self.permissions = permissions
        self.tools = tools
        self.refusedTools = refusedTools
    }

    /// The library's file name inside the plugins folder; `nil` for an MCP server.
    public var library: String? {
        if case .library(let name) = source { name } else { nil }
    }

    /// The MCP server; `nil` for a library.
    public var server: MCPServerSpec? {
        if case .server(let server) = source { server } else { nil }
    }

    /// True when no tool goes through the descriptor: such a library (a plain C library) needs
    /// no `trailhead_plugin_v1` symbol.
    public var isNativeOnly: Bool {
        tools.allSatisfy { if case .native = $0.binding { true } else { false } }
    }
}

/// What provides a plugin's tools.
public enum PluginSource: Sendable, Hashable {
    /// A shared library: a file name inside the plugins folder, no path separators.
    case library(String)
    /// A Model Context Protocol server, started as a command or reached at a URL.
    case server(MCPServerSpec)
}

/// A tool a manifest lists but that cannot be loaded, and why (the rest of its plugin loads).
public struct RefusedTool: Sendable, Hashable {
    public var name: String
    /// What is wrong, naming the field (`/tools/2/arguments/properties/tags: 'propertyNames': unsupported keyword …`).
    public var reason: String
    /// The tool's entry as the manifest holds it, written back unchanged.
    public var json: GeneratedContent

    public init(name: String, reason: String, json: GeneratedContent) {
        self.name = name
        self.reason = reason
        self.json = json
    }
}

/// Where a plugin's code runs.
public enum Isolation: String, Sendable, Hashable, CaseIterable {
    /// In its own long-lived `agent-tool-host` worker (the default): a crash is a tool error.
    case process
    /// Inside the host: fastest, for trusted plugins only (a crash kills the host).
    case inProcess
}

/// One tool as a manifest describes it.
public struct ToolManifest: Sendable, Hashable {
    /// `[A-Za-z0-9_.-]{1,64}`, unique across loaded plugins.
    public var name: String
    public var description: String
    /// The argument schema (an object at the root); arguments are validated before every call.
    public var arguments: GenerationSchema
    /// The result schema, checked on success when present.
    public var output: GenerationSchema?
    /// MCP-style hints (`readOnly`, `destructive`, `idempotent`, `openWorld`).
    public var annotations: GeneratedContent
    public var needsApproval: Bool
    public var binding: ToolBinding

    public init(
        name: String, description: String, arguments: GenerationSchema, output: GenerationSchema?,
        annotations: GeneratedContent, needsApproval: Bool, binding: ToolBinding
    ) {
        self.name = name
        self.description = description
        self.arguments = arguments
        self.output = output
        self.annotations = annotations
        self.needsApproval = needsApproval
        self.binding = binding
    }

    /// True when `name` matches `[A-Za-z0-9_.-]{1,64}`.
    public static func isValidName(_ name: String) -> Bool {
        guard (1...64).contains(name.utf8.count) else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2E || byte == 0x2D
        }
    }
}

/// How the runtime reaches a tool's code.
public enum ToolBinding: Sendable, Hashable {
    /// Through the plugin descriptor's `call`, with JSON text in and out.
    case json
    /// A plain C function called through libffi.
    case native(NativeSignature)
}
