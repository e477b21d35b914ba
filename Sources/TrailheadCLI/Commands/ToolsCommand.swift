import Foundation
import TrailheadSchema
import TrailheadTools

/// `agent tools`: the plugins and tools in the plugin folders.
struct ToolsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "tools",
        summary: "List, inspect, call and register tools.",
        discussion: """
            Tools come from plugins: a library in the plugins folder and its manifest in the \
            manifests folder. Isolated plugins (the default) run in agent-tool-host workers.
            """,
        subcommands: [ToolsListCommand.self, ToolsInspectCommand.self, ToolsCallCommand.self, ToolsRegisterCommand.self])

    /// Loads the registry for the folders the command line names.
    static func registry(_ arguments: ParsedArguments, context: CommandContext) -> ToolRegistry {
        let folders = CommonOptions.folders(arguments, context: context)
        return ToolRegistry(.init(
            pluginsFolder: folders.plugins, manifestsFolder: folders.manifests,
            home: CommonOptions.home(context: context), toolHost: toolHost(context: context)))
    }

    /// `$TRAILHEAD_TOOL_HOST`, else `agent-tool-host` beside the `agent` executable.
    static func toolHost(context: CommandContext) -> String {
        if let path = context.environment["TRAILHEAD_TOOL_HOST"], !path.isEmpty { return context.absolutePath(path) }
        return ((context.executablePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("agent-tool-host")
    }

    /// One row per tool a manifest declares, whether its plugin loaded or not, and one per
    /// manifest that could not be read at all.
    static func rows(_ registry: ToolRegistry) -> [GeneratedContent] {
        var rows: [GeneratedContent] = []
        for record in registry.plugins {
            let file = (record.manifestFile as NSString).lastPathComponent
            guard let manifest = record.manifest else {
                rows.append(["tool": .null, "plugin": .string(record.name), "manifest": .string(file), "status": .string(record.status.description)])
                continue
            }
            for tool in manifest.tools {
                let status =
                    if record.status.isOK, registry.tool(named: tool.name)?.plugin == manifest.plugin { "ok" } else { record.status.description }
                rows.append([
                    "tool": .string(tool.name), "plugin": .string(manifest.plugin), "manifest": .string(file),
                    "description": .string(tool.description), "isolation": .string(manifest.isolation.rawValue),
                    "status": .string(status),
                ])
            }
        }
        return rows
    }
}

/// `agent tools list [--json]`.
struct ToolsListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        summary: "List every tool with its plugin, isolation and status (ok, or refused with the reason).",
        options: [.flag("json", help: "Print a JSON document instead of a table."), CommonOptions.plugins, CommonOptions.manifests])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let registry = ToolsCommand.registry(arguments, context: context)
        defer { registry.shutdown() }
        let rows = ToolsCommand.rows(registry)
        if arguments.flag("json") {
            context.stdout.line(GeneratedContent.object(["tools": .array(rows)]).prettyJSONString)
            return .success
        }
        if rows.isEmpty {
            context.stdout.line("no tools (no manifests in \(registry.configuration.manifestsFolder))")
            return .success
        }
        let columns = ["TOOL", "PLUGIN", "ISOLATION", "STATUS", "DESCRIPTION"]
        let cells = rows.map { row in
            [row["tool"]?.stringValue ?? "(\(row["manifest"]?.stringValue ?? ""))", row["plugin"]?.stringValue ?? "",
             row["isolation"]?.stringValue ?? "", row["status"]?.stringValue ?? "", row["description"]?.stringValue ?? ""]
        }
        // Pad the columns; a long refusal reason is not padded to (it would push every description away).
        var widths: [Int] = columns.map(\.count)
        for row in cells {
            for index in 0..<4 where index < 3 || row[index].count <= 24 { widths[index] = max(widths[index], row[index].count) }
        }
        func line(_ values: [String]) -> String {
            (0..<4).map { values[$0].padding(toLength: max(widths[$0], values[$0].count), withPad: " ", startingAt: 0) }.joined(separator: "  ")
                + (values[4].isEmpty ? "" : "  " + values[4])
        }
        context.stdout.line(context.styled(line(columns), .bold))
        for row in cells {
            let text = line(row)
            context.stdout.line(row[3] == "ok" ? text : context.styled(text, .red))
        }
        return .success
    }
}

/// `agent tools inspect NAME [--json]`.
struct ToolsInspectCommand: Command {
    static let configuration = CommandConfiguration(
        name: "inspect",
        summary: "Show a tool's description, schemas, annotations, binding and status.",
        options: [.flag("json", help: "Print a JSON document."), CommonOptions.plugins, CommonOptions.manifests],
        positionals: [.required("NAME", help: "The tool's name.")])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let name = arguments.positional("NAME")!
        let registry = ToolsCommand.registry(arguments, context: context)
        defer { registry.shutdown() }
        let candidates = registry.plugins.compactMap { record in
            record.manifest?.tools.first { $0.name == name }.map { (record, $0) }
        }
        // The loaded one first; else the first refused plugin that declares it.
        guard let (record, tool) = candidates.first(where: { registry.tool(named: name)?.plugin == $0.0.manifest?.plugin }) ?? candidates.first,
            let manifest = record.manifest
        else {
            throw CommandError("unknown tool '\(name)' (see `agent tools list`)")
        }
        let loaded = registry.tool(named: name)?.plugin == manifest.plugin
        let status = loaded ? "ok" : record.status.description
        var document: JSONObject = [
            "tool": .string(tool.name), "plugin": .string(manifest.plugin), "version": .string(manifest.version),
            "library": .string(manifest.library), "manifest": .string(record.manifestFile),
            "isolation": .string(manifest.isolation.rawValue), "timeoutMs": .number(Double(manifest.timeoutMs)),
            "status": .string(status),
        ]
        for (key, value) in manifest.json["tools"]?.arrayValue?.first(where: { $0["name"]?.stringValue == name })?.objectValue ?? [:]
        where key != "name" {
            document[key] = value
        }
        if arguments.flag("json") {
            context.stdout.line(GeneratedContent.object(document).prettyJSONString)
            return .success
        }
        context.stdout.line(context.styled(tool.name, .bold) + "  (plugin \(manifest.plugin) \(manifest.version), \(manifest.isolation.rawValue), timeout \(manifest.timeoutMs) ms)")
        context.stdout.line("status: " + (loaded ? context.styled(status, .green) : context.styled(status, .red)))
        context.stdout.line("library: \(manifest.library)")
        context.stdout.line("")
        context.stdout.line(tool.description)
        for key in ["arguments", "output", "annotations", "binding"] {
            guard let value = document[key] else { continue }
            context.stdout.line("")
            context.stdout.line(context.styled("\(key):", .bold))
            context.stdout.line(value.prettyJSONString)
        }
        if tool.needsApproval { context.stdout.line("\nneeds the user's approval before each call") }
        return .success
    }
}

/// `agent tools call NAME --args JSON`.
struct ToolsCallCommand: Command {
    static let configuration = CommandConfiguration(
        name: "call",
        summary: "Call a tool with JSON arguments and print its JSON result.",
        discussion: """
            Prints the result on stdout. Exits 1 when the tool fails, crashes or times out (the \
            error on stderr), 2 when the arguments do not match the tool's schema (each violation \
            on stderr) or are not JSON.
            """,
        options: [
            .option("args", valueName: "JSON", help: "The arguments, a JSON object (default {})."),
            .flag("pretty", help: "Indent the result."),
            CommonOptions.plugins, CommonOptions.manifests,
        ],
        positionals: [.required("NAME", help: "The tool's name.")])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let name = arguments.positional("NAME")!
        let text = arguments.value(of: "args") ?? "{}"
        let toolArguments: GeneratedContent
        do { toolArguments = try GeneratedContent(json: text) } catch {
            throw CommandError("--args is not JSON: \(error)", exitCode: .usage)
        }
        let registry = ToolsCommand.registry(arguments, context: context)
        defer { registry.shutdown() }
        switch registry.result(of: name, arguments: toolArguments) {
        case .success(let result):
            context.stdout.line(arguments.flag("pretty") ? result.prettyJSONString : result.jsonString)
            return .success
        case .failure(.invalidArguments(let tool, let violations)):
            context.stderr.line("agent: invalid arguments for '\(tool)':")
            for violation in violations { context.stderr.line("  \(violation)") }
            return .usage
        case .failure(let error):
            context.stderr.line("agent: \(error)")
            return .failure
        }
    }
}

/// `agent tools register Plugins/libX.so`.
struct ToolsRegisterCommand: Command {
    static let configuration = CommandConfiguration(
        name: "register",
        summary: "Write the manifest a plugin library embeds into the manifests folder, pinned by sha256.",
        discussion: """
            The library must already be in the plugins folder. The manifest is written as \
            MANIFESTS/<plugin>.json with "library" set to the file name and "sha256" to its digest. \
            Registering the same library again (after a rebuild) updates its tools and pin and keeps \
            the existing isolation, timeoutMs, config and permissions; a manifest describing another \
            plugin or library is replaced only with --force.
            """,
        options: [.flag("force", help: "Replace an existing manifest entirely."), CommonOptions.plugins, CommonOptions.manifests],
        positionals: [.required("LIBRARY", help: "The plugin library, e.g. Plugins/libX.so.")])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let library = context.absolutePath(arguments.positional("LIBRARY")!)
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
        let destination = (folders.manifests as NSString).appendingPathComponent("\(manifest.plugin).json")
        var written = manifest
        var verb = "registered"
        if FileManager.default.fileExists(atPath: destination) && !arguments.flag("force") {
            // Re-registering the same library (after a rebuild) refreshes its tools and pin but keeps
            // what a user tunes by hand; a manifest of another plugin or library is not overwritten.
            guard let text = try? String(contentsOfFile: destination, encoding: .utf8), let existing = try? Manifest(jsonText: text),
                existing.plugin == manifest.plugin, existing.library == manifest.library
            else {
                throw CommandError("\(destination) exists and describes another plugin or library; pass --force to replace it")
            }
            written.isolation = existing.isolation
            written.timeoutMs = existing.timeoutMs
            written.config = existing.config
            written.permissions = existing.permissions
            verb = "updated"
        }
        do {
            try FileManager.default.createDirectory(atPath: folders.manifests, withIntermediateDirectories: true)
            try (written.json.prettyJSONString + "\n").write(toFile: destination, atomically: true, encoding: .utf8)
        } catch {
            throw CommandError("cannot write \(destination): \(error.localizedDescription)")
        }
        context.stdout.line("\(verb) plugin '\(manifest.plugin)' (\(manifest.tools.count) tools) in \(destination), sha256 \(manifest.sha256 ?? "")")
        return .success
    }
}
