import Foundation
import TrailheadSchema
import TrailheadSupport

extension ToolRegistry {
    /// Loads `files` on top of `state`, in file-name order, so which of two clashing plugins
    /// wins is predictable.
    func load(_ state: Loaded, files: [String: FileStamp]) -> Loaded {
        var state = state
        for path in files.keys.sorted() {
            var manifest: Manifest?
            do {
                manifest = try readManifest(path)
                let (backend, tools, refused) = try load(manifest!, manifestPath: path, into: state)
                state.backends[manifest!.plugin] = backend
                for tool in tools { state.toolsByName[tool.name] = tool }
                state.records.append(PluginRecord(manifestFile: path, manifest: manifest, status: .ok, refusedTools: refused))
            } catch {
                state.records.append(PluginRecord(manifestFile: path, manifest: manifest, status: .refused(error.message)))
            }
        }
        return state
    }

    private func readManifest(_ path: String) throws(PluginLoadError) -> Manifest {
        let file = (path as NSString).lastPathComponent
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw PluginLoadError("\(file): cannot read it as UTF-8 text") }
        do { return try Manifest(jsonText: text) } catch { throw PluginLoadError("\(file): \(error)") }
    }

    /// Every check that can be made before the plugin runs, then loading it. Returns its backend,
    /// its callable tools, and the tools refused one by one (by registered name).
    private func load(_ manifest: Manifest, manifestPath: String, into state: Loaded) throws(PluginLoadError)
        -> (any PluginBackend, [RegisteredTool], [String: String])
    {
        if let other = state.records.first(where: { $0.status.isOK && $0.manifest?.plugin == manifest.plugin }) {
            throw PluginLoadError("plugin name '\(manifest.plugin)' is already used by \((other.manifestFile as NSString).lastPathComponent)")
        }
        switch manifest.source {
        case .library(let name):
            let (backend, tools) = try loadLibrary(name, manifest: manifest, manifestPath: manifestPath, into: state)
            return (backend, tools, [:])
        case .server(let server):
            return try loadServer(server, manifest: manifest, into: state)
        }
    }

    private func loadLibrary(_ name: String, manifest: Manifest, manifestPath: String, into state: Loaded) throws(PluginLoadError)
        -> (any PluginBackend, [RegisteredTool])
    {
        for tool in manifest.tools {
            if let existing = state.toolsByName[tool.name] {
                throw PluginLoadError("tool name '\(tool.name)' is already provided by plugin '\(existing.plugin)'")
            }
        }
        let library = try LibraryFile(path: resolveLibrary(name), pin: manifest.sha256)
        try library.verify()
        var config = manifest.config.objectValue ?? [:]
        config["$home"] = .string(configuration.home)
        let backend: any PluginBackend
        switch manifest.isolation {
        case .inProcess:
            backend = try LoadedPlugin(libraryPath: library.path, manifest: manifest, config: .object(config))
        case .process:
            let launcher = ToolHostLauncher(
                plugin: manifest.plugin, executable: configuration.toolHost, library: library,
                manifestPath: Configuration.absolute(manifestPath), config: .object(config))
            let client = WorkerClient(
                plugin: manifest.plugin, launcher: launcher, timeoutMs: manifest.timeoutMs, crashLimit: configuration.crashLimit,
                onQuarantineChange: { [weak self] _ in self?.notifyToolsChanged() })
            _ = try client.start()
            backend = client
        }
        let tools = manifest.tools.map {
            RegisteredTool(plugin: manifest.plugin, isolation: manifest.isolation, timeoutMs: manifest.timeoutMs, manifest: $0)
        }
        return (backend, tools)
    }

    /// Starts the server and checks its tools against the pin; then each tool loads or is refused
    /// alone (a schema outside the subset, a name another plugin took, a tool the server no longer lists).
    private func loadServer(_ server: MCPServerSpec, manifest: Manifest, into state: Loaded) throws(PluginLoadError)
        -> (any PluginBackend, [RegisteredTool], [String: String])
    {
        var refused: [String: String] = [:]
        for tool in manifest.refusedTools { refused[server.registeredName(of: tool.name)] = tool.reason }
        var wireNames: [String: String] = [:]
        for tool in manifest.tools where server.toolPrefix != nil { wireNames[server.registeredName(of: tool.name)] = tool.name }
        let pinned = manifest.tools.map(\.listingEntry) + manifest.refusedTools.map(\.listingEntry)
        let launcher = MCPServerLauncher(spec: server, pin: manifest.sha256, pinnedTools: pinned)
        // A remote endpoint has nothing to replace that would lift a quarantine: it is retried on every call instead.
        let remote = if case .http = server.transport { true } else { false }
        let client = WorkerClient(
            plugin: manifest.plugin, launcher: launcher, timeoutMs: manifest.timeoutMs, crashLimit: remote ? .max : configuration.crashLimit,
            wireNames: wireNames, onQuarantineChange: { [weak self] _ in self?.notifyToolsChanged() })
        let listed = Set(try client.start().tools.compactMap { $0["name"]?.stringValue })
        var tools: [RegisteredTool] = []
        for tool in manifest.tools {
            let name = server.registeredName(of: tool.name)
            if !listed.contains(tool.name) {
                refused[name] = "the server does not list a tool '\(tool.name)' any more"
            } else if !ToolManifest.isValidName(name) {
                refused[name] = "tool name '\(name)' must match [A-Za-z0-9_.-]{1,64}"
            } else if let existing = state.toolsByName[name] {
                refused[name] =
                    "tool name '\(name)' of plugin '\(manifest.plugin)' clashes with tool '\(name)' of plugin '\(existing.plugin)'; "
                    + "register one of them again with --prefix"
            } else {
                var renamed = tool
                renamed.name = name
                tools.append(RegisteredTool(plugin: manifest.plugin, isolation: .process, timeoutMs: manifest.timeoutMs, manifest: renamed))
            }
        }
        return (client, tools, refused)
    }

    /// The library's path inside the plugins folder; a name with a separator, or one whose real
    /// path (after symbolic links) leaves the folder, is refused.
    private func resolveLibrary(_ name: String) throws(PluginLoadError) -> String {
        guard !name.isEmpty, !name.contains("/"), !name.contains("\\"), name != ".", name != ".." else {
            throw PluginLoadError("library '\(name)' must be a plain file name inside the plugins folder (no path separators)")
        }
        let folder = Configuration.absolute(configuration.pluginsFolder)
        let path = (folder as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else {
            throw PluginLoadError("library '\(name)' is not in the plugins folder \(folder)")
        }
        let realFolder = realPath(folder) ?? folder
        guard let real = realPath(path), real.hasPrefix(realFolder + "/") else {
            throw PluginLoadError("library '\(name)' resolves outside the plugins folder \(folder)")
        }
        return real
    }

    private func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension ToolManifest {
    /// The tool as an MCP server lists it (name and schemas), for comparing listings.
    var listingEntry: GeneratedContent {
        var entry: JSONObject = ["name": .string(name), "inputSchema": arguments.json]
        if let output { entry["outputSchema"] = output.json }
        return .object(entry)
    }
}

extension RefusedTool {
    /// The tool as its server listed it (name and schemas, as the manifest keeps them).
    var listingEntry: GeneratedContent {
        var entry: JSONObject = ["name": .string(name), "inputSchema": json["arguments"] ?? .null]
        if let output = json["output"] { entry["outputSchema"] = output }
        return .object(entry)
    }
}

extension Error {
    /// The message of a `PluginLoadError` or an `HTTPError`, or the error's description.
    var message: String { (self as? PluginLoadError)?.message ?? (self as? HTTPError)?.message ?? "\(self)" }
}
