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
        let protocolFD = dup(1)
        guard protocolFD >= 0, dup2(2, 1) >= 0 else {
            writeAll(2, "agent-tool-host: cannot redirect stdout: \(String(cString: strerror(errno)))\n")
            return 1
        }
        _ = fcntl(protocolFD, F_SETFD, FD_CLOEXEC)
        var session = Session(loading: options)
        if case .failure(let error) = session.plugin { writeAll(2, "agent-tool-host: \(error.message)\n") }
        HostWatch.start()
        var reader = LineReader(fd: 0)
        while let line = reader.next() {
            guard var text = session.handle(line) else { continue }
            text.append("\n")
            writeAll(protocolFD, text)
        }
        if case .success(let plugin) = session.plugin { plugin.close() }
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

    /// The protocol state of one worker: the loaded plugin (or why it is not) and its answers.
    struct Session {
        let plugin: Result<LoadedPlugin, PluginLoadError>
        let argumentsValidated: Bool
        private var schemas: [String: GenerationSchema] = [:]

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

        /// Answers one request line with one reply line (without its newline); `nil` for notifications.
        mutating func handle(_ line: [UInt8]) -> String? {
            let message: GeneratedContent
            do { message = try GeneratedContent(json: line) } catch {
                return JSONRPC.error(id: .null, code: JSONRPC.parseError, message: "parse error: \(error)").jsonString
            }
            guard case .string(let method) = message["method"] ?? .null else {
                return JSONRPC.error(id: message["id"] ?? .null, code: JSONRPC.invalidRequest, message: "missing method").jsonString
            }
            guard let id = message["id"] else { return nil }
            let params = message["params"] ?? [:]
            switch method {
            case "initialize": return initialize(id: id, params: params).jsonString
            case "ping": return JSONRPC.result(id: id, [:]).jsonString
            case "tools/list": return listTools(id: id).jsonString
            case "tools/call": return callTool(id: id, params: params)
            default: return JSONRPC.error(id: id, code: JSONRPC.methodNotFound, message: "unknown method '\(method)'").jsonString
            }
        }

        private func initialize(id: GeneratedContent, params: GeneratedContent) -> GeneratedContent {
            let plugin: LoadedPlugin
            switch self.plugin {
            case .failure(let error): return JSONRPC.error(id: id, code: JSONRPC.pluginUnavailable, message: error.message)
            case .success(let loaded): plugin = loaded
            }
            let embedded = plugin.descriptor?.embeddedManifest.flatMap { try? GeneratedContent(json: $0) } ?? .null
            return JSONRPC.result(id: id, [
                "protocolVersion": .string(JSONRPC.negotiatedVersion(params["protocolVersion"]?.stringValue)),
                "capabilities": ["tools": ["listChanged": false]],
                "serverInfo": ["name": .string(plugin.manifest.plugin), "version": .string(plugin.manifest.version)],
                "trailhead": [
                    "plugin": .string(plugin.manifest.plugin),
                    "abiVersion": plugin.descriptor.map { .number(Double($0.abiVersion)) } ?? .null,
                    "embeddedManifest": embedded,
                ],
            ])
        }

        private func listTools(id: GeneratedContent) -> GeneratedContent {
            guard case .success(let plugin) = self.plugin else { return unavailable(id) }
            let tools: [GeneratedContent] = plugin.manifest.tools.map { tool in
                var entry: JSONObject = ["name": .string(tool.name), "description": .string(tool.description), "inputSchema": tool.arguments.json]
                if let output = tool.output { entry["outputSchema"] = output.json }
                var hints: JSONObject = [:]
                for (key, value) in tool.annotations.objectValue ?? [:] {
                    // MCP spells them readOnlyHint, destructiveHint, idempotentHint, openWorldHint.
                    hints[["readOnly", "destructive", "idempotent", "openWorld"].contains(key) ? key + "Hint" : key] = value
                }
                entry["annotations"] = .object(hints)
                return .object(entry)
            }
            return JSONRPC.result(id: id, ["tools": .array(tools)])
        }

        private mutating func callTool(id: GeneratedContent, params: GeneratedContent) -> String {
            guard case .success(let plugin) = self.plugin else { return unavailable(id).jsonString }
            guard case .string(let name) = params["name"] ?? .null else {
                return JSONRPC.error(id: id, code: JSONRPC.invalidParams, message: "tools/call needs params.name").jsonString
            }
            guard let tool = plugin.tool(named: name) else {
                return JSONRPC.error(id: id, code: JSONRPC.invalidParams, message: "unknown tool '\(name)'").jsonString
            }
            let arguments = params["arguments"] ?? [:]
            if !argumentsValidated {
                let violations = tool.arguments.validate(arguments)
                if !violations.isEmpty {
                    return JSONRPC.result(id: id, JSONRPC.toolError(.invalidArguments(tool: name, violations: violations))).jsonString
                }
            }
            switch plugin.callReturningText(tool: name, arguments: arguments) {
            case .success(let result): return JSONRPC.toolResultLine(id: id, result.value, text: result.text)
            case .failure(let error): return JSONRPC.result(id: id, JSONRPC.toolError(error)).jsonString
            }
        }

        private func unavailable(_ id: GeneratedContent) -> GeneratedContent {
            let message = if case .failure(let error) = plugin { error.message } else { "unavailable" }
            return JSONRPC.error(id: id, code: JSONRPC.pluginUnavailable, message: message)
        }
    }
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
