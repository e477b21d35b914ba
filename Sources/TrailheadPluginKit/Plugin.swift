import Foundation
import TrailheadSchema

/// A Swift plugin: its tools and what its manifest says about it.
///
/// Export it from the plugin's module with one function (the only C the author sees):
///
/// ```swift
/// import TrailheadPluginKit
///
/// @_cdecl("trailhead_plugin_v1")
/// public func trailheadPluginV1() -> UnsafeRawPointer {
///     Plugin(name: "contacts", version: "1.0.0", tools: [SearchContacts()]).export()
/// }
/// ```
public struct Plugin: Sendable {
    public var name: String
    public var version: String
    public var tools: [any Tool]
    /// Defaults written into the manifest by `agent tools register`.
    public var isolation: String
    public var timeoutMs: Int
    public var config: GeneratedContent
    public var permissions: GeneratedContent
    /// Called once with the manifest's config before any call. Throw to refuse to open.
    public var open: @Sendable (PluginConfig) throws -> Void
    public var close: @Sendable () -> Void

    public init(
        name: String, version: String, tools: [any Tool],
        isolation: String = "process", timeoutMs: Int = 5000,
        config: GeneratedContent = [:],
        permissions: GeneratedContent = ["read": [], "write": [], "network": false],
        open: @escaping @Sendable (PluginConfig) throws -> Void = { _ in },
        close: @escaping @Sendable () -> Void = {}
    ) {
        self.name = name
        self.version = version
        self.tools = tools
        self.isolation = isolation
        self.timeoutMs = timeoutMs
        self.config = config
        self.permissions = permissions
        self.open = open
        self.close = close
    }

    /// The manifest this plugin embeds (without `library` and `sha256`, which
    /// `agent tools register` adds from the file it registers).
    public var manifest: GeneratedContent {
        var tools: [GeneratedContent] = []
        for tool in self.tools {
            var entry: JSONObject = [
                "name": .string(tool.name),
                "description": .string(tool.description),
                "arguments": tool.parameters.json,
            ]
            if let output = tool.outputSchema { entry["output"] = output.json }
            entry["annotations"] = tool.annotations.content
            entry["needsApproval"] = .bool(tool.needsApproval)
            entry["binding"] = ["kind": "json"]
            tools.append(.object(entry))
        }
        return [
            "manifestVersion": 1,
            "plugin": .string(name),
            "version": .string(version),
            "isolation": .string(isolation),
            "timeoutMs": .number(Double(timeoutMs)),
            "config": config,
            "permissions": permissions,
            "tools": .array(tools),
        ]
    }
}

/// The configuration a plugin is opened with: the manifest's `config` object.
public struct PluginConfig: Sendable {
    public let content: GeneratedContent

    public init(_ content: GeneratedContent) { self.content = content }

    /// The installation folder (holding Plugins/, Manifests/, Data/), handed over by the host
    /// as the member `$home`; relative paths in the config are relative to it.
    public var home: String? { content["$home"]?.stringValue }

    public func string(_ key: String) -> String? { content[key]?.stringValue }

    /// A path from the config, made absolute against `home`.
    public func path(_ key: String) -> String? {
        guard let value = string(key), !value.isEmpty else { return nil }
        if value.hasPrefix("/") { return value }
        if value.hasPrefix("~/") { return NSHomeDirectory() + value.dropFirst(1) }
        guard let home else { return value }
        return home + "/" + value
    }
}
