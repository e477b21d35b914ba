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
            """,
        options: [
            .flag("force", help: "Replace an existing manifest entirely."),
            .flag("mcp", help: "Register an MCP server (its command after --, or --url)."),
            .option("url", valueName: "URL", help: "With --mcp: the server's Streamable HTTP endpoint (http://…)."),
            .option("name", valueName: "PLUGIN", help: "With --mcp: the plugin name (default: the server's own name)."),
            .option("prefix", valueName: "PREFIX", help: "With --mcp: put PREFIX before each of the server's tool names."),
            .option("env", valueName: "KEY=VALUE", repeatable: true, help: "With --mcp: an environment variable for the server."),
            .option("timeout-ms", valueName: "MS", help: "With --mcp: the per-call timeout (default 5000)."),
            CommonOptions.plugins, CommonOptions.manifests,
        ],
        positionals: [.variadic("LIBRARY|COMMAND", help: "The plugin library (Plugins/libX.so), or with --mcp the server's command.")])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        if arguments.flag("mcp") { return try registerServer(arguments, context: context) }
        for option in ["url", "name", "prefix", "timeout-ms"] where arguments.value(of: option) != nil {
            throw CommandError("--\(option) applies to --mcp only", exitCode: .usage)
        }
        let words = arguments.positionals("LIBRARY|COMMAND")
        guard words.count == 1 else {
            throw CommandError(words.isEmpty ? "missing argument LIBRARY" : "register takes one library (an MCP server needs --mcp)", exitCode: .usage)
        }
        return try registerLibrary(context.absolutePath(words[0]), arguments: arguments, context: context)
    }

    private static func registerLibrary(_ library: String, arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let folders = CommonOptions.folders(arguments, context: context)
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
        if let existing = try existingManifest(for: manifest, folders: folders, force: arguments.flag("force")) {
            // Re-registering the same library (after a rebuild) refreshes its tools and pin but keeps
            // what a user tunes by hand.
            guard existing.library == manifest.library else {
                throw CommandError("\(destination(manifest, folders)) exists and describes another plugin or library; pass --force to replace it")
            }
            written.isolation = existing.isolation
            written.timeoutMs = existing.timeoutMs
            written.config = existing.config
            written.permissions = existing.permissions
            verb = "updated"
        }
        try write(written, folders: folders)
        context.stdout.line("\(verb) plugin '\(manifest.plugin)' (\(manifest.tools.count) tools) in \(destination(manifest, folders)), sha256 \(manifest.sha256 ?? "")")
        return .success
    }

    private static func registerServer(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let folders = CommonOptions.folders(arguments, context: context)
        let command = arguments.positionals("LIBRARY|COMMAND")
        var environment: [String: String] = [:]
        for pair in arguments.values(of: "env") {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CommandError("--env \(pair): expected KEY=VALUE", exitCode: .usage)
            }
            environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let transport: MCPServerSpec.Transport
        switch (arguments.value(of: "url"), command.isEmpty) {
        case (let url?, true):
            guard environment.isEmpty else { throw CommandError("--env applies to a server command, not to --url", exitCode: .usage) }
            transport = .http(url: url)
        case (nil, false): transport = .stdio(command: command, environment: environment, directory: context.currentDirectory)
        default: throw CommandError("--mcp needs the server's command after -- or its --url (not both)", exitCode: .usage)
        }
        let prefix = arguments.value(of: "prefix")
        if let prefix, !ToolManifest.isValidName(prefix) { throw CommandError("--prefix '\(prefix)' must match [A-Za-z0-9_.-]{1,64}", exitCode: .usage) }
        if let name = arguments.value(of: "name"), !ToolManifest.isValidName(name) {
            throw CommandError("--name '\(name)' must match [A-Za-z0-9_.-]{1,64}", exitCode: .usage)
        }
        let timeoutMs = try arguments.value(of: "timeout-ms").map { text throws(CommandError) -> Int in
            guard let value = Int(text), (1...86_400_000).contains(value) else { throw CommandError("--timeout-ms must be an integer from 1 to 86400000", exitCode: .usage) }
            return value
        }
        var manifest: Manifest
        do {
            manifest = try MCPServerRegistration.manifest(
                for: MCPServerSpec(transport: transport, toolPrefix: prefix), plugin: arguments.value(of: "name"),
                timeoutMs: timeoutMs ?? Manifest.defaultTimeoutMs)
        } catch { throw CommandError(error.message) }
        var verb = "registered"
        if let existing = try existingManifest(for: manifest, folders: folders, force: arguments.flag("force")) {
            guard case .server(let old) = existing.source else {
                throw CommandError("\(destination(manifest, folders)) exists and describes a library plugin; pass --force to replace it")
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
        try refuseClashes(manifest, arguments: arguments, context: context)
        try write(manifest, folders: folders)
        var line = "\(verb) MCP server '\(manifest.plugin)' (\(manifest.tools.count) tools"
        if !manifest.refusedTools.isEmpty { line += ", \(manifest.refusedTools.count) refused" }
        context.stdout.line(line + ") in \(destination(manifest, folders)), pinned sha256 \(manifest.sha256 ?? "")")
        for tool in manifest.refusedTools { context.stdout.line("  refused \(tool.name): \(tool.reason)") }
        return .success
    }

    /// A tool name another loaded plugin already has is refused now, naming both, rather than at every load.
    private static func refuseClashes(_ manifest: Manifest, arguments: ParsedArguments, context: CommandContext) throws {
        let registry = ToolsCommand.registry(arguments, context: context)
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
