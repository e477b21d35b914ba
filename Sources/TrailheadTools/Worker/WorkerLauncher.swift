import Foundation
import TrailheadSchema
import TrailheadSupport

/// What differs between the peers a `WorkerClient` talks to (an `agent-tool-host` worker, an
/// MCP server): how one is started, what its `initialize` must say, how its results read.
protocol WorkerLauncher: Sendable {
    /// Names the peer at the start of load errors (`libX.so`, `MCP server 'python3 x.py'`).
    var label: String { get }
    /// How a crash report names it (`its worker`, `its server`).
    var peer: String { get }
    /// Checks pins, then starts a new peer.
    func launch() throws(PluginLoadError) -> any WorkerChannel
    /// Checks the peer's answer to `initialize`, and may ask it more through `request` (an MCP
    /// server's `tools/list`); throws a `PluginLoadError` to refuse it.
    func accept(initializeResult: GeneratedContent, request: (String, GeneratedContent) throws -> GeneratedContent) throws -> WorkerHandshake
    /// A `tools/call` result as the tool's outcome.
    func outcome(tool: String, result: GeneratedContent) -> Result<GeneratedContent, ToolCallError>
    /// What must change for a quarantine to lift; `nil` when nothing can (it lasts until the
    /// plugin is loaded again).
    func fingerprint() -> LibraryFile.Fingerprint?
}

/// What a peer told about itself when it started.
struct WorkerHandshake: Sendable {
    /// The plugin name the library gives, or the MCP server's `serverInfo.name`.
    var name: String
    var version: String?
    /// An MCP server's `tools/list` (every page); empty for a plugin worker.
    var tools: [GeneratedContent] = []
}

/// Starts `agent-tool-host LIBRARY`, whose `initialize` must name the manifest's plugin.
struct ToolHostLauncher: WorkerLauncher {
    let plugin: String
    let executable: String
    let library: LibraryFile
    let arguments: [String]
    let config: [UInt8]

    init(plugin: String, executable: String, library: LibraryFile, manifestPath: String?, config: GeneratedContent) {
        self.plugin = plugin
        self.executable = executable
        self.library = library
        // The config goes on descriptor 3, not the command line: one argument may not exceed
        // 128 KB, and a manifest's config may hold a large table.
        self.config = Array(config.jsonString.utf8)
        var arguments = [library.path, "--config-fd", "3", "--arguments-validated"]
        if let manifestPath { arguments += ["--manifest", manifestPath] }
        self.arguments = arguments
    }

    var label: String { library.fileName }
    var peer: String { "its worker" }

    func launch() throws(PluginLoadError) -> any WorkerChannel {
        try library.verify()
        let configFD: Int32
        do { configFD = try ChildProcess.descriptor(holding: config, name: "trailhead-config") } catch {
            throw PluginLoadError(error.description)
        }
        defer { close(configFD) }
        return try WorkerProcess(executable: executable, arguments: arguments, descriptors: [configFD])
    }

    func accept(initializeResult result: GeneratedContent, request: (String, GeneratedContent) throws -> GeneratedContent) throws -> WorkerHandshake {
        let info = result["trailhead"] ?? [:]
        let name = info["plugin"]?.stringValue ?? result["serverInfo"]?["name"]?.stringValue ?? ""
        guard name == plugin else {
            throw PluginLoadError("\(library.fileName): the library's plugin name is '\(name)' but its manifest says '\(plugin)'")
        }
        return WorkerHandshake(name: name, version: result["serverInfo"]?["version"]?.stringValue)
    }

    /// The worker sends the result as structured content (objects) or as JSON text, and tells
    /// what kind of tool error it was in `_meta`.
    func outcome(tool: String, result: GeneratedContent) -> Result<GeneratedContent, ToolCallError> {
        let text = result["content"]?.arrayValue?.first?["text"]?.stringValue
        if result["isError"]?.boolValue == true {
            let message = text ?? "no message"
            switch result["_meta"]?[JSONRPC.errorKindKey]?.stringValue {
            case "invalidResult": return .failure(.invalidResult(tool: tool, message: message))
            default: return .failure(.failed(tool: tool, message: message))
            }
        }
        if let structured = result["structuredContent"] { return .success(structured) }
        guard let text, let value = try? GeneratedContent(json: text) else {
            return .failure(.invalidResult(tool: tool, message: "the worker's reply carries no JSON result"))
        }
        return .success(value)
    }

    func fingerprint() -> LibraryFile.Fingerprint? { library.fingerprint() }
}
