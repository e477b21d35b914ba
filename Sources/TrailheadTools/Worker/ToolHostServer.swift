import Foundation
import TrailheadSchema
import TrailheadSupport

/// The `agent-tool-host` worker: serves one plugin over newline-delimited JSON-RPC 2.0 on
/// stdin/stdout in the Model Context Protocol's shape, so it is also an MCP stdio server.
///
/// ```
/// agent-tool-host Plugins/libX.so [--manifest FILE] [--config JSON | --config-fd N] [--arguments-validated]
/// ```
///
/// Before the plugin is loaded the real stdout moves to a private descriptor and fd 1 points at
/// stderr: whatever a plugin prints lands on stderr and cannot corrupt the protocol.
public enum ToolHostServer {
    public static let usage = """
        usage: agent-tool-host LIBRARY [--manifest FILE] [--config JSON | --config-fd N] [--arguments-validated]
               agent-tool-host --describe LIBRARY
          Serves the plugin in LIBRARY as an MCP server over stdin/stdout (newline-delimited JSON-RPC 2.0).
          --manifest FILE        check the library against this manifest (required for native bindings);
                                 without it the manifest the plugin embeds is used
          --config JSON          the object handed to the plugin's open (default: the manifest's config)
          --config-fd N          the same, read from descriptor N (for a config too large for the command line)
          --arguments-validated  the client validated arguments already (the Trailhead registry does)
          --describe LIBRARY     print the plugin's name, ABI version and embedded manifest as JSON, and exit
        """

    /// Runs the worker until stdin closes; returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        if arguments.first == "--describe", arguments.count == 2 { return describe(arguments[1]) }
        guard let options = Options(arguments) else {
            writeAll(2, usage + "\n")
            return arguments.contains("--help") ? 0 : 2
        }
        guard let protocolFD = claimStandardOutput() else {
            writeAll(2, "agent-tool-host: cannot redirect stdout: \(String(cString: strerror(errno)))\n")
            return 1
        }
        let source = PluginSource(loading: options)
        if let reason = source.unavailableReason { writeAll(2, "agent-tool-host: \(reason)\n") }
        // After loading: confining needs the process to have one thread.
        HostWatch.start()
        // One call at a time, answered in order: the plugin's calls are serialised anyway, and
        // this is every isolated call's hot path (no queue hop, no lock).
        var session = MCPServerSession(source: source)
        let cancellation = ToolCallCancellation()
        var reader = LineReader(fd: 0)
        while let line = reader.next() {
            var text: String
            switch session.handle(line) {
            case .reply(let reply), .initialized(let reply): text = reply
            case .call(let id, let tool, let arguments):
                text = MCPServerSession.reply(to: id, with: source.call(tool, arguments: arguments, cancellation: cancellation))
            case .cancel, .none: continue
            }
            text.append("\n")
            writeAll(protocolFD, text)
        }
        if case .success(let plugin) = source.plugin { plugin.close() }
        return 0
    }

    /// `agent-tool-host --describe LIBRARY`: prints one line `{"plugin", "abiVersion",
    /// "embeddedManifest"}` (or `{"error"}`) without opening the plugin, for `agent tools register`.
    static func describe(_ library: String) -> Int32 {
        let protocolFD = dup(1)
        _ = dup2(2, 1)
        let report: GeneratedContent
        do {
            try PluginSandbox.confineToLibrary(library)
            let descriptor = try PluginDescriptor.load(from: try SharedLibrary.open(library), expectedName: nil)
            report = [
                "plugin": .string(descriptor.name), "abiVersion": .number(Double(descriptor.abiVersion)),
                "embeddedManifest": descriptor.embeddedManifest.map { .string($0) } ?? .null,
            ]
        } catch {
            report = ["error": .string(error.message)]
        }
        writeAll(protocolFD, report.jsonString + "\n")
        return report["error"] == nil ? 0 : 1
    }

    struct Options {
        var library: String
        var manifest: String?
        var config: GeneratedContent?
        var argumentsValidated = false

        init?(_ arguments: [String]) {
            var library: String?
            var iterator = arguments.makeIterator()
            while let argument = iterator.next() {
                switch argument {
                case "--manifest": guard let value = iterator.next() else { return nil }; manifest = value
                case "--config":
                    guard let value = iterator.next(), let parsed = try? GeneratedContent(json: value), case .object = parsed else { return nil }
                    config = parsed
                case "--config-fd":
                    guard let value = iterator.next(), let fd = Int32(value), let bytes = ChildProcess.readAll(fd),
                        let parsed = try? GeneratedContent(json: bytes), case .object = parsed
                    else { return nil }
                    close(fd)
                    config = parsed
                case "--arguments-validated": argumentsValidated = true
                default:
                    guard library == nil, !argument.hasPrefix("-") else { return nil }
                    library = argument
                }
            }
            guard let library else { return nil }
            self.library = library
        }
    }

    /// One plugin, loaded (or why not), as the tools an MCP session serves.
    struct PluginSource: MCPToolSource {
        let plugin: Result<LoadedPlugin, PluginLoadError>
        let argumentsValidated: Bool

        init(loading options: Options) {
            argumentsValidated = options.argumentsValidated
            plugin = Result { () throws(PluginLoadError) -> LoadedPlugin in
                var manifest: Manifest?
                if let path = options.manifest {
                    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                        throw PluginLoadError("cannot read the manifest \(path)")
                    }
                    do { manifest = try Manifest(jsonText: text) } catch { throw PluginLoadError("\(path): \(error)") }
                }
                // Standalone, the installation folder is the one holding Plugins/.
                let absolute = options.library.hasPrefix("/") ? options.library : FileManager.default.currentDirectoryPath + "/" + options.library
                let home = ((absolute as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
                // Confined before the library runs any code; standalone, once its embedded manifest is read.
                let grantsHome = options.config?["$home"]?.stringValue ?? home
                if let manifest { try PluginSandbox.confine(manifest, library: options.library, home: grantsHome) }
                return try LoadedPlugin(
                    libraryPath: options.library, manifest: manifest, config: options.config, home: home,
                    beforeOpen: manifest != nil ? nil : { embedded throws(PluginLoadError) in
                        try PluginSandbox.confine(embedded, library: options.library, home: grantsHome)
                    })
            }
        }

        var serverInfo: GeneratedContent {
            guard case .success(let plugin) = plugin else { return ["name": "agent-tool-host", "version": "1"] }
            return ["name": .string(plugin.manifest.plugin), "version": .string(plugin.manifest.version)]
        }

        var toolsCanChange: Bool { false }

        var initializeExtras: JSONObject {
            guard case .success(let plugin) = plugin else { return [:] }
            let embedded = plugin.descriptor?.embeddedManifest.flatMap { try? GeneratedContent(json: $0) } ?? .null
            return [
                "trailhead": [
                    "plugin": .string(plugin.manifest.plugin),
                    "abiVersion": plugin.descriptor.map { .number(Double($0.abiVersion)) } ?? .null,
                    "embeddedManifest": embedded,
                ]
            ]
        }

        var unavailableReason: String? {
            if case .failure(let error) = plugin { error.message } else { nil }
        }

        func listedTools() -> [(name: String, tool: ToolManifest)] {
            guard case .success(let plugin) = plugin else { return [] }
            return plugin.manifest.tools.map { ($0.name, $0) }
        }

        func serves(_ name: String) -> Bool {
            guard case .success(let plugin) = plugin else { return false }
            return plugin.tool(named: name) != nil
        }

        func call(_ name: String, arguments: GeneratedContent, cancellation: ToolCallCancellation) -> Result<LoadedPlugin.TextResult, ToolCallError> {
            guard case .success(let plugin) = plugin, let tool = plugin.tool(named: name) else { return .failure(.unknownTool(name)) }
            if !argumentsValidated {
                let violations = tool.arguments.validate(arguments)
                if !violations.isEmpty { return .failure(.invalidArguments(tool: name, violations: violations)) }
            }
            return plugin.callReturningText(tool: name, arguments: arguments)
        }
    }
}

/// Moves the real stdout to a private descriptor (returned, close-on-exec) and points fd 1 at
/// stderr, so whatever a plugin prints lands on stderr and cannot corrupt a protocol on stdout.
/// `nil` when the descriptors cannot be duplicated.
func claimStandardOutput() -> Int32? {
    let protocolFD = dup(1)
    guard protocolFD >= 0, dup2(2, 1) >= 0 else { return nil }
    _ = fcntl(protocolFD, F_SETFD, FD_CLOEXEC)
    return protocolFD
}

/// Writes all of `text` to `fd`, retrying short writes.
func writeAll(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
