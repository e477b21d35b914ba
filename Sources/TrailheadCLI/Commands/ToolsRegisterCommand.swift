import Foundation
import TrailheadSchema
import TrailheadTools

/// `agent tools register Plugins/libX.so` and `agent tools register --mcp -- COMMAND…`.
struct ToolsRegisterCommand: Command {
    static let configuration = CommandConfiguration(
        name: "register",
        summary: "Write a plugin's manifest into the manifests folder, pinned: a library's by sha256, an MCP server's by its tools.",
        discussion: """
            A library must already be in the plugins folder. Its manifest is written as \
            MANIFESTS/<plugin>.json with "library" set to the file name and "sha256" to its digest. \
            Registering the same library again (after a rebuild) updates its tools and pin and keeps \
            the existing isolation, timeoutMs, config and permissions; a manifest describing another \
            plugin or library is replaced only with --force.

            With --mcp, the words after -- are the command of an MCP server speaking stdio (or --url \
            names a Streamable HTTP endpoint): the server is started, its tools listed and written \
            with their schemas, pinned by a digest of the schemas (a server whose tools change is \
            refused until registered again). Tools whose schemas use keywords outside Trailhead's \
            subset are kept but refused, each with the keyword named. A tool whose name another \
            plugin has is refused, naming both, unless --prefix puts a prefix before the server's names.
            """)

    @Flag(help: "Replace an existing manifest entirely.") var force: Bool
    @Flag(help: "Register an MCP server (its command after --, or --url).") var mcp: Bool
    @Option(valueName: "URL", help: "With --mcp: the server's Streamable HTTP endpoint (http://…).") var url: String?
    @Option(valueName: "PLUGIN", help: "With --mcp: the plugin name (default: the server's own name).") var name: String?
    @Option(valueName: "PREFIX", help: "With --mcp: put PREFIX before each of the server's tool names.") var prefix: String?
    @Option(valueName: "KEY=VALUE", help: "With --mcp: an environment variable for the server.") var env: [String] = []
    @Option(valueName: "MS", in: 1...86_400_000, help: "With --mcp: the per-call timeout (default 5000).") var timeoutMs: Int?
    @OptionGroup var pluginFolders: PluginFolderOptions
    @Argument("LIBRARY|COMMAND", help: "The plugin library (Plugins/libX.so), or with --mcp the server's command.") var words: [String]

    func run(context: CommandContext) async throws -> ExitCode {
        if mcp { return try registerServer(context: context) }
        for (option, given) in [("url", url != nil), ("name", name != nil), ("prefix", prefix != nil), ("timeout-ms", timeoutMs != nil)] where given {
            throw CommandError("--\(option) applies to --mcp only", exitCode: .usage)
        }
        guard words.count == 1 else {
            throw CommandError(words.isEmpty ? "missing argument LIBRARY" : "register takes one library (an MCP server needs --mcp)", exitCode: .usage)
        }
        return try registerLibrary(context.absolutePath(words[0]), context: context)
    }

    private func registerLibrary(_ library: String, context: CommandContext) throws -> ExitCode {
        let folders = pluginFolders.resolved(context)
        guard FileManager.default.fileExists(atPath: library) else { throw CommandError("no such file: \(library)") }
        let folder = ((folders.plugins as NSString).resolvingSymlinksInPath as NSString).standardizingPath
        let containing = (((library as NSString).resolvingSymlinksInPath as NSString).deletingLastPathComponent as NSString).standardizingPath
        guard containing == folder else {
            throw CommandError("\(library) is not in the plugins folder \(folders.plugins); copy it there first")
        }
        let manifest: Manifest
        do { manifest = try PluginRegistration.manifest(forLibrary: library, toolHost: ToolsCommand.toolHost(context: context)) } catch {
            throw CommandError(error.message)
        }
        var written = manifest
        var verb = "registered"
        if let existing = try Self.existingManifest(for: manifest, folders: folders, force: force) {
            // Re-registering the same library (after a rebuild) refreshes its tools and pin but keeps
            // what a user tunes by hand.
            guard existing.library == manifest.library else {
                throw CommandError("\(Self.destination(manifest, folders)) exists and describes another plugin or library; pass --force to replace it")
            }
            written.isolation = existing.isolation
            written.timeoutMs = existing.timeoutMs
            written.config = existing.config
            written.permissions = existing.permissions
            verb = "updated"
        }
        try Self.write(written, folders: folders)
        context.stdout.line("\(verb) plugin '\(manifest.plugin)' (\(manifest.tools.count) tools) in \(Self.destination(manifest, folders)), sha256 \(manifest.sha256 ?? "")")
        return .success
    }

    private func registerServer(context: CommandContext) throws -> ExitCode {
        let folders = pluginFolders.resolved(context)
        let command = words
        var environment: [String: String] = [:]
        for pair in env {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CommandError("--env \(pair): expected KEY=VALUE", exitCode: .usage)
            }
            environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let transport: MCPServerSpec.Transport
        switch (url, command.isEmpty) {
        case (let url?, true):
            guard environment.isEmpty else { throw CommandError("--env applies to a server command, not to --url", exitCode: .usage) }
            transport = .http(url: url)
        case (nil, false): transport = .stdio(command: command, environment: environment, directory: context.currentDirectory)
        default: throw CommandError("--mcp needs the server's command after -- or its --url (not both)", exitCode: .usage)
        }
        if let prefix, !ToolManifest.isValidName(prefix) { throw CommandError("--prefix '\(prefix)' must match [A-Za-z0-9_.-]{1,64}", exitCode: .usage) }
        if let name, !ToolManifest.isValidName(name) {
            throw CommandError("--name '\(name)' must match [A-Za-z0-9_.-]{1,64}", exitCode: .usage)
        }
        var manifest: Manifest
        do {
            manifest = try MCPServerRegistration.manifest(
                for: MCPServerSpec(transport: transport, toolPrefix: prefix), plugin: name,
                timeoutMs: timeoutMs ?? Manifest.defaultTimeoutMs)
        } catch { throw CommandError(error.message) }
        var verb = "registered"
        if let existing = try Self.existingManifest(for: manifest, folders: folders, force: force) {
            guard case .server(let old) = existing.source else {
                throw CommandError("\(Self.destination(manifest, folders)) exists and describes a library plugin; pass --force to replace it")
            }
            // Registering again (the server's tools changed) keeps what a user tuned.
            if timeoutMs == nil { manifest.timeoutMs = existing.timeoutMs }
            if prefix == nil, case .server(var server) = manifest.source {
                server.toolPrefix = old.toolPrefix
                manifest.source = .server(server)
            }
            manifest.permissions = existing.permissions
            verb = "updated"
        }
        try refuseClashes(manifest, context: context)
        try Self.write(manifest, folders: folders)
        var line = "\(verb) MCP server '\(manifest.plugin)' (\(manifest.tools.count) tools"
        if !manifest.refusedTools.isEmpty { line += ", \(manifest.refusedTools.count) refused" }
        context.stdout.line(line + ") in \(Self.destination(manifest, folders)), pinned sha256 \(manifest.sha256 ?? "")")
        for tool in manifest.refusedTools { context.stdout.line("  refused \(tool.name): \(tool.reason)") }
        return .success
    }

    /// A tool name another loaded plugin already has is refused now, naming both, rather than at every load.
    private func refuseClashes(_ manifest: Manifest, context: CommandContext) throws {
        let registry = ToolsCommand.registry(pluginFolders, context: context)
        defer { registry.shutdown() }
        let clashes = manifest.tools.compactMap { tool -> String? in
            let name = manifest.registeredName(of: tool.name)
            guard let other = registry.tool(named: name), other.plugin != manifest.plugin else { return nil }
            return "tool '\(name)' of MCP server '\(manifest.plugin)' clashes with tool '\(name)' of plugin '\(other.plugin)'"
        }
        guard clashes.isEmpty else {
            throw CommandError(clashes.joined(separator: "; ") + "; pass --prefix (e.g. --prefix \(manifest.plugin)_) to register the server's tools under other names")
        }
    }

    /// The manifest already written for this plugin, `nil` when there is none or `force` replaces it.
    private static func existingManifest(for manifest: Manifest, folders: PluginFolders, force: Bool) throws -> Manifest? {
        let path = destination(manifest, folders)
        guard !force, FileManager.default.fileExists(atPath: path) else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let existing = try? Manifest(jsonText: text), existing.plugin == manifest.plugin else {
            throw CommandError("\(path) exists and describes another plugin or library; pass --force to replace it")
        }
        return existing
    }

    private static func destination(_ manifest: Manifest, _ folders: PluginFolders) -> String {
        (folders.manifests as NSString).appendingPathComponent("\(manifest.plugin).json")
    }

    private static func write(_ manifest: Manifest, folders: PluginFolders) throws {
        let path = destination(manifest, folders)
        do {
            try FileManager.default.createDirectory(atPath: folders.manifests, withIntermediateDirectories: true)
            try (manifest.json.prettyJSONString + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw CommandError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
