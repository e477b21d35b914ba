import Foundation
import TrailheadSchema

/// A plugin loaded into this process: its library, its descriptor (when it has one) and its
/// native functions. The registry uses it for `inProcess` plugins, and `agent-tool-host` for the
/// one plugin it serves. Calls are serialised, as trailhead_tool.h promises plugins.
final class LoadedPlugin: @unchecked Sendable {
    /// Results above this size are refused rather than handed to a model.
    static let maximumResultBytes = 1 << 20

    let manifest: Manifest
    let descriptor: PluginDescriptor?
    private let natives: [String: NativeFunction]
    private let toolsByName: [String: ToolManifest]
    private let lock = NSLock()

    /// Loads `libraryPath` and opens the plugin.
    ///
    /// - Parameters:
    ///   - manifest: the manifest to check the library against; `nil` takes the manifest the
    ///     library embeds (how `agent-tool-host Plugins/libX.so` runs standalone).
    ///   - config: handed to `open`; `nil` takes the manifest's `config`.
    ///   - home: added to the config as `$home` when it has none.
    ///   - beforeOpen: runs with the resolved manifest before any of the plugin's functions is
    ///     called (the worker confines itself there when it learns the permissions only now).
    init(
        libraryPath: String, manifest: Manifest?, config: GeneratedContent?, home: String? = nil,
        beforeOpen: ((Manifest) throws(PluginLoadError) -> Void)? = nil
    ) throws(PluginLoadError) {
        let library = try SharedLibrary.open(libraryPath)
        var descriptor: PluginDescriptor?
        // A plain C library whose tools are all native needs no descriptor; one that exports it anyway is checked.
        if manifest?.isNativeOnly != true || library.symbol(TRAILHEAD_PLUGIN_SYMBOL_NAME) != nil {
            descriptor = try PluginDescriptor.load(from: library, expectedName: manifest?.plugin)
        }
        let resolved: Manifest
        if let manifest {
            resolved = manifest
        } else {
            guard let text = descriptor?.embeddedManifest else {
                throw PluginLoadError("\(library.fileName): the plugin embeds no manifest; pass one with --manifest")
            }
            resolved = try Self.embedded(text, library: library)
        }
        if manifest != nil, let exported = descriptor?.embeddedManifest {
            try Self.checkExported(resolved, embedded: exported, library: library)
        }
        try beforeOpen?(resolved)
        var natives: [String: NativeFunction] = [:]
        for tool in resolved.tools {
            if case .native(let signature) = tool.binding { natives[tool.name] = try NativeFunction(signature, in: library) }
        }
        var members = (config ?? resolved.config).objectValue ?? [:]
        if members["$home"] == nil, let home { members["$home"] = .string(home) }
        try descriptor?.open(config: .object(members))
        self.manifest = resolved
        self.descriptor = descriptor
        self.natives = natives
        self.toolsByName = Dictionary(resolved.tools.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads a library's embedded manifest, which leaves out `library` (the file it is in).
    private static func embedded(_ text: String, library: SharedLibrary) throws(PluginLoadError) -> Manifest {
        do {
            guard case .object(var members) = try GeneratedContent(json: text) else {
                throw PluginLoadError("\(library.fileName): the embedded manifest is not a JSON object")
            }
            if members["library"] == nil { members["library"] = .string(library.fileName) }
            return try Manifest(json: .object(members))
        } catch let error as PluginLoadError {
            throw error
        } catch {
            throw PluginLoadError("\(library.fileName): the embedded manifest is invalid: \(error)")
        }
    }

    /// A manifest may only promise tools the library exports (its embedded manifest lists them):
    /// otherwise `agent tools list` would show a tool "ok" whose every call fails.
    private static func checkExported(_ manifest: Manifest, embedded text: String, library: SharedLibrary) throws(PluginLoadError) {
        // Native tools are checked by symbol; a library whose embedded manifest cannot be read
        // lists nothing to check against.
        guard let tools = (try? GeneratedContent(json: text))?["tools"]?.arrayValue else { return }
        let exported = tools.compactMap { $0["name"]?.stringValue }
        let missing = manifest.tools.filter { tool in
            if case .json = tool.binding { !exported.contains(tool.name) } else { false }
        }
        guard !missing.isEmpty else { return }
        let names = missing.map { "'\($0.name)'" }.joined(separator: ", ")
        let what = missing.count == 1 ? "tool \(names) is" : "tools \(names) are"
        throw PluginLoadError(
            "\(library.fileName): the manifest's \(what) not exported by \(library.fileName) (it exports "
                + (exported.isEmpty ? "no tools" : exported.map { "'\($0)'" }.joined(separator: ", ")) + ")")
    }

    func tool(named name: String) -> ToolManifest? { toolsByName[name] }

    /// Calls one tool with already validated arguments.
    func call(tool name: String, arguments: GeneratedContent) -> Result<GeneratedContent, ToolCallError> {
        callReturningText(tool: name, arguments: arguments).map(\.value)
    }

    /// A result with compact JSON text for it: the plugin's own text when it is one line (JSON
    /// strings cannot hold a raw newline, so such text can be spliced into a protocol line as is),
    /// which spares the worker re-encoding every result.
    struct TextResult {
        var value: GeneratedContent
        var text: String
    }

    func callReturningText(tool name: String, arguments: GeneratedContent) -> Result<TextResult, ToolCallError> {
        lock.lock()
        defer { lock.unlock() }
        guard let tool = toolsByName[name] else { return .failure(.unknownTool(name)) }
        switch tool.binding {
        case .native:
            do {
                let value = try natives[name]!.call(arguments)
                let text = value.jsonString
                guard text.utf8.count <= Self.maximumResultBytes else {
                    return .failure(.invalidResult(tool: name, message: "\(text.utf8.count) bytes, more than the \(Self.maximumResultBytes) allowed"))
                }
                return .success(TextResult(value: value, text: text))
            } catch {
                return .failure(.failed(tool: name, message: error.message))
            }
        case .json:
            guard let descriptor else { return .failure(.failed(tool: name, message: "the plugin has no descriptor")) }
            let (status, text) = descriptor.call(tool: name, argumentsJSON: arguments.jsonString)
            return Self.outcome(tool: name, status: status, text: text).map { value in
                let oneLine = text.map { !$0.utf8.contains(0x0A) && !$0.utf8.contains(0x0D) } ?? false
                return TextResult(value: value, text: oneLine ? text! : value.jsonString)
            }
        }
    }

    /// Turns what `call` returned into a result or a tool error.
    static func outcome(tool: String, status: Int32, text: String?) -> Result<GeneratedContent, ToolCallError> {
        if let text, text.utf8.count > maximumResultBytes {
            return .failure(.invalidResult(tool: tool, message: "\(text.utf8.count) bytes, more than the \(maximumResultBytes) allowed"))
        }
        var parsed: GeneratedContent?
        var syntaxError: JSONSyntaxError?
        if let text {
            do { parsed = try GeneratedContent(json: text) } catch { syntaxError = error }
        }
        guard status == 0 else {
            let message = parsed?["error"]?.stringValue ?? text ?? "no message (status \(status))"
            return .failure(.failed(tool: tool, message: message))
        }
        guard let parsed else {
            let reason = syntaxError.map { "not JSON (\($0))" } ?? "no result document"
            return .failure(.invalidResult(tool: tool, message: reason))
        }
        return .success(parsed)
    }

    /// Calls the plugin's `close`; after this no call may be made.
    func close() {
        lock.lock()
        defer { lock.unlock() }
        descriptor?.close()
    }
}

/// `TRAILHEAD_PLUGIN_SYMBOL` as a Swift string (the macro imports, but this reads plainly).
let TRAILHEAD_PLUGIN_SYMBOL_NAME = "trailhead_plugin_v1"
