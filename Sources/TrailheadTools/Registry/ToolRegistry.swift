import Foundation
import TrailheadSchema

/// The loaded plugins and their tools: reads every manifest, loads what passes its checks,
/// refuses the rest one by one (each with its reason), and calls tools by name.
///
/// A call validates its arguments against the tool's schema, runs the tool in process or in its
/// plugin's worker, and validates a successful result against the tool's `output` schema.
/// Thread-safe; calls into one plugin are serialised, calls into different plugins may overlap.
public final class ToolRegistry: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// Where libraries live; a manifest's `library` is a file name inside it.
        public var pluginsFolder: String
        /// Every `*.json` in it is a manifest.
        public var manifestsFolder: String
        /// The installation folder handed to plugins as the config member `$home`.
        public var home: String
        /// The `agent-tool-host` executable that runs isolated plugins.
        public var toolHost: String
        /// Crashes in a row before a plugin is quarantined.
        public var crashLimit: Int

        /// - Parameters:
        ///   - home: defaults to the plugins folder's parent.
        ///   - toolHost: defaults to `$TRAILHEAD_TOOL_HOST`, else `agent-tool-host` beside this executable.
        public init(pluginsFolder: String, manifestsFolder: String, home: String? = nil, toolHost: String? = nil, crashLimit: Int = 3) {
            self.pluginsFolder = pluginsFolder
            self.manifestsFolder = manifestsFolder
            self.home = home ?? (Self.absolute(pluginsFolder) as NSString).deletingLastPathComponent
            self.toolHost = toolHost ?? Self.defaultToolHost
            self.crashLimit = crashLimit
        }

        public static var defaultToolHost: String {
            if let path = ProcessInfo.processInfo.environment["TRAILHEAD_TOOL_HOST"], !path.isEmpty { return path }
            let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            return ((executable as NSString).deletingLastPathComponent as NSString).appendingPathComponent("agent-tool-host")
        }

        static func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        }
    }

    public let configuration: Configuration
    /// Every manifest read, in file-name order, with its status.
    public private(set) var plugins: [PluginRecord] = []
    private var toolsByName: [String: RegisteredTool] = [:]
    private var backends: [String: any PluginBackend] = [:]

    /// Reads and loads every manifest in the manifests folder.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        loadAll()
    }

    /// The callable tools, in plugin order.
    public var tools: [RegisteredTool] {
        plugins.filter(\.status.isOK).flatMap { record in record.manifest!.tools.compactMap { toolsByName[$0.name] } }
    }

    public func tool(named name: String) -> RegisteredTool? { toolsByName[name] }

    public func plugin(named name: String) -> PluginRecord? { plugins.first { $0.manifest?.plugin == name } }

    /// Calls a tool: validate the arguments, run it, validate the result.
    public func call(_ name: String, arguments: GeneratedContent) throws(ToolCallError) -> GeneratedContent {
        try result(of: name, arguments: arguments).get()
    }

    /// Calls a tool without blocking the caller's task: the (blocking) call runs on a Dispatch
    /// queue, so a slow tool never holds a thread of Swift's cooperative pool.
    public func call(_ name: String, arguments: GeneratedContent) async throws(ToolCallError) -> GeneratedContent {
        let outcome = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.result(of: name, arguments: arguments)) }
        }
        return try outcome.get()
    }

    /// Calls a tool and returns its outcome as a value.
    public func result(of name: String, arguments: GeneratedContent) -> Result<GeneratedContent, ToolCallError> {
        guard let tool = toolsByName[name], let backend = backends[tool.plugin] else {
            // A tool of a refused plugin is unavailable, with the plugin's reason, rather than unknown.
            for record in plugins where record.manifest?.tools.contains(where: { $0.name == name }) == true {
                if case .refused(let reason) = record.status {
                    return .failure(.unavailable(tool: name, plugin: record.name, reason: "was refused: \(reason)"))
                }
            }
            return .failure(.unknownTool(name))
        }
        let violations = tool.manifest.arguments.validate(arguments)
        guard violations.isEmpty else { return .failure(.invalidArguments(tool: name, violations: violations)) }
        let outcome = backend.call(tool: name, arguments: arguments)
        if case .success(let value) = outcome, let output = tool.manifest.output {
            let violations = output.validate(value)
            if !violations.isEmpty {
                return .failure(.invalidResult(
                    tool: name, message: "does not match its output schema: " + violations.map(\.description).joined(separator: "; ")))
            }
        }
        return outcome
    }

    /// Closes in-process plugins and stops workers.
    public func shutdown() {
        for backend in backends.values { backend.shutdown() }
    }
}

extension ToolRegistry {
    /// Loads manifests in file-name order, so which of two clashing plugins wins is predictable.
    private func loadAll() {
        let folder = configuration.manifestsFolder
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            plugins = [PluginRecord(manifestFile: folder, manifest: nil, status: .refused("cannot read the manifests folder \(folder)"))]
            return
        }
        for file in names.filter({ $0.hasSuffix(".json") }).sorted() {
            let path = (folder as NSString).appendingPathComponent(file)
            var manifest: Manifest?
            do {
                manifest = try readManifest(path)
                let (backend, tools) = try load(manifest!, manifestPath: path)
                backends[manifest!.plugin] = backend
                for tool in tools { toolsByName[tool.name] = tool }
                plugins.append(PluginRecord(manifestFile: path, manifest: manifest, status: .ok))
            } catch {
                plugins.append(PluginRecord(manifestFile: path, manifest: manifest, status: .refused(error.message)))
            }
        }
    }

    private func readManifest(_ path: String) throws(PluginLoadError) -> Manifest {
        let file = (path as NSString).lastPathComponent
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw PluginLoadError("\(file): cannot read it as UTF-8 text") }
        do { return try Manifest(jsonText: text) } catch { throw PluginLoadError("\(file): \(error)") }
    }

    /// Every check that can be made before the library runs, then loading it.
    private func load(_ manifest: Manifest, manifestPath: String) throws(PluginLoadError) -> (any PluginBackend, [RegisteredTool]) {
        if let other = plugins.first(where: { $0.status.isOK && $0.manifest?.plugin == manifest.plugin }) {
            throw PluginLoadError("plugin name '\(manifest.plugin)' is already used by \((other.manifestFile as NSString).lastPathComponent)")
        }
        for tool in manifest.tools {
            if let existing = toolsByName[tool.name] {
                throw PluginLoadError("tool name '\(tool.name)' is already provided by plugin '\(existing.plugin)'")
            }
        }
        let library = try LibraryFile(path: resolveLibrary(manifest.library), pin: manifest.sha256)
        try library.verify()
        var config = manifest.config.objectValue ?? [:]
        config["$home"] = .string(configuration.home)
        let backend: any PluginBackend
        switch manifest.isolation {
        case .inProcess:
            backend = try LoadedPlugin(libraryPath: library.path, manifest: manifest, config: .object(config))
        case .process:
            let client = WorkerClient(
                plugin: manifest.plugin, executable: configuration.toolHost, library: library, manifestPath: Configuration.absolute(manifestPath),
                config: .object(config), timeoutMs: manifest.timeoutMs, crashLimit: configuration.crashLimit)
            _ = try client.start()
            backend = client
        }
        let tools = manifest.tools.map {
            RegisteredTool(plugin: manifest.plugin, isolation: manifest.isolation, timeoutMs: manifest.timeoutMs, manifest: $0)
        }
        return (backend, tools)
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

extension Error {
    /// The message of a `PluginLoadError`, or the error's description.
    fileprivate var message: String { (self as? PluginLoadError)?.message ?? "\(self)" }
}
