import Foundation
import Synchronization
import TrailheadSchema

/// The loaded plugins and their tools: reads every manifest, loads what passes its checks,
/// refuses the rest one by one (each with its reason), and calls tools by name.
///
/// A plugin is a library (run in process or in its `agent-tool-host` worker) or an MCP server
/// (over stdio or Streamable HTTP); both give ordinary registered tools. A call validates its
/// arguments against the tool's schema, runs the tool, and validates a successful result against
/// the tool's `output` schema. Thread-safe; calls into one plugin are serialised, calls into
/// different plugins may overlap. `refresh()` picks up manifests added, changed or removed since.
public final class ToolRegistry: Sendable {
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

    /// What is loaded; replaced whole by `refresh()`, read under the lock.
    struct Loaded: Sendable {
        /// Every manifest read, in file-name order.
        var records: [PluginRecord] = []
        var toolsByName: [String: RegisteredTool] = [:]
        var backends: [String: any PluginBackend] = [:]
        /// What each manifest file was when it was read (to see what `refresh()` must reload).
        var stamps: [String: FileStamp] = [:]
    }

    public let configuration: Configuration
    let loaded = Mutex(Loaded())
    let observers = Mutex<[@Sendable () -> Void]>([])
    /// Serialises `refresh()` (loading happens outside `loaded`'s lock: it may start workers).
    let refreshing = Mutex(())

    /// Reads and loads every manifest in the manifests folder.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        var state = Loaded()
        if let files = manifestFiles() {
            state = load(state, files: files)
            state.stamps = files
        } else {
            let folder = configuration.manifestsFolder
            state.records = [PluginRecord(manifestFile: folder, manifest: nil, status: .refused("cannot read the manifests folder \(folder)"))]
        }
        loaded.withLock { $0 = state }
    }

    /// Every manifest read, in file-name order, with its status (a quarantined plugin is refused).
    public var plugins: [PluginRecord] {
        loaded.withLock { state in
            state.records.map { record in
                guard record.status.isOK, let plugin = record.manifest?.plugin, state.backends[plugin]?.isQuarantined == true else { return record }
                var quarantined = record
                quarantined.status = .refused("quarantined after \(configuration.crashLimit) crashes in a row")
                return quarantined
            }
        }
    }

    /// The callable tools, in plugin order (a quarantined plugin's left out).
    public var tools: [RegisteredTool] {
        loaded.withLock { state in
            state.records.filter(\.status.isOK).flatMap { record -> [RegisteredTool] in
                guard let manifest = record.manifest, state.backends[manifest.plugin]?.isQuarantined != true else { return [] }
                return manifest.tools.compactMap { tool in
                    state.toolsByName[manifest.registeredName(of: tool.name)].flatMap { $0.plugin == manifest.plugin ? $0 : nil }
                }
            }
        }
    }

    public func tool(named name: String) -> RegisteredTool? { loaded.withLock { $0.toolsByName[name] } }

    public func plugin(named name: String) -> PluginRecord? { plugins.first { $0.manifest?.plugin == name } }

    /// Calls a tool: validate the arguments, run it, validate the result.
    public func call(_ name: String, arguments: GeneratedContent) throws(ToolCallError) -> GeneratedContent {
        try result(of: name, arguments: arguments).get()
    }

    /// Calls a tool without blocking the caller's task: the (blocking) call runs on a Dispatch
    /// queue, so a slow tool never holds a thread of Swift's cooperative pool. Cancelling the
    /// task cancels the call (see `ToolCallCancellation`).
    public func call(_ name: String, arguments: GeneratedContent) async throws(ToolCallError) -> GeneratedContent {
        let cancellation = ToolCallCancellation()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: self.result(of: name, arguments: arguments, cancellation: cancellation))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try outcome.get()
    }

    /// Calls a tool and returns its outcome as a value; `cancellation` may stop it from another thread.
    public func result(of name: String, arguments: GeneratedContent, cancellation: ToolCallCancellation? = nil) -> Result<GeneratedContent, ToolCallError> {
        let (tool, backend) = loaded.withLock { state in
            (state.toolsByName[name], state.toolsByName[name].flatMap { state.backends[$0.plugin] })
        }
        guard let tool, let backend else {
            // A tool refused (alone, or with its plugin) is unavailable, with the reason, rather than unknown.
            for record in plugins where record.declaredTools.contains(name) {
                if case .refused(let reason) = record.status(ofTool: name) {
                    return .failure(.unavailable(tool: name, plugin: record.name, reason: "was refused: \(reason)"))
                }
            }
            return .failure(.unknownTool(name))
        }
        let violations = tool.manifest.arguments.validate(arguments)
        guard violations.isEmpty else { return .failure(.invalidArguments(tool: name, violations: violations)) }
        if cancellation?.isCancelled == true { return .failure(.cancelled(tool: name)) }
        let outcome = backend.call(tool: name, arguments: arguments, cancellation: cancellation)
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
        for backend in loaded.withLock({ Array($0.backends.values) }) { backend.shutdown() }
    }
}
