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
    static func registry(_ options: PluginFolderOptions, context: CommandContext) -> ToolRegistry {
        let folders = options.resolved(context)
        return ToolRegistry(.init(
            pluginsFolder: folders.plugins, manifestsFolder: folders.manifests,
            home: CommonOptions.home(context: context), toolHost: toolHost(context: context)))
    }

    /// `$TRAILHEAD_TOOL_HOST`, else `agent-tool-host` beside the `agent` executable.
    static func toolHost(context: CommandContext) -> String {
        if let path = context.environment["TRAILHEAD_TOOL_HOST"], !path.isEmpty { return context.absolutePath(path) }
        return ((context.executablePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("agent-tool-host")
    }

    /// One row per tool a manifest declares, whether it loaded or not (under the name it is
    /// registered by), and one per manifest that could not be read at all.
    static func rows(_ registry: ToolRegistry) -> [GeneratedContent] {
        var rows: [GeneratedContent] = []
        for record in registry.plugins {
            let file = (record.manifestFile as NSString).lastPathComponent
            guard let manifest = record.manifest else {
                rows.append(["tool": .null, "plugin": .string(record.name), "manifest": .string(file), "status": .string(record.status.description)])
                continue
            }
            let descriptions = Dictionary(
                manifest.tools.map { (manifest.registeredName(of: $0.name), $0.description) }
                    + manifest.refusedTools.map { (manifest.registeredName(of: $0.name), $0.json["description"]?.stringValue ?? "") },
                uniquingKeysWith: { first, _ in first })
            for name in record.declaredTools {
                var status = record.status(ofTool: name).description
                if status == "ok", registry.tool(named: name)?.plugin != manifest.plugin { status = "refused: its name is taken by another plugin" }
                rows.append([
                    "tool": .string(name), "plugin": .string(manifest.plugin), "manifest": .string(file),
                    "description": .string(descriptions[name] ?? ""), "isolation": .string(runsIn(manifest)),
                    "status": .string(status),
                ])
            }
        }
        return rows
    }

    /// Where a plugin's tools run: `process` or `inProcess` for a library, `mcp stdio` or `mcp http` for a server.
    static func runsIn(_ manifest: Manifest) -> String {
        switch manifest.source {
        case .library: manifest.isolation.rawValue
        case .server(let server): if case .http = server.transport { "mcp http" } else { "mcp stdio" }
        }
    }
}

/// `agent tools list [--json]`.
struct ToolsListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        summary: "List every tool with its plugin, isolation and status (ok, or refused with the reason).")

    @Flag(help: "Print a JSON document instead of a table.") var json: Bool
    @OptionGroup var pluginFolders: PluginFolderOptions

    func run(context: CommandContext) async throws -> ExitCode {
        let registry = ToolsCommand.registry(pluginFolders, context: context)
        defer { registry.shutdown() }
        let rows = ToolsCommand.rows(registry)
        if json {
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
        summary: "Show a tool's description, schemas, annotations, binding and status.")

    @Flag(help: "Print a JSON document.") var json: Bool
    @OptionGroup var pluginFolders: PluginFolderOptions
    @Argument("NAME", help: "The tool's name.") var name: String

    func run(context: CommandContext) async throws -> ExitCode {
        let registry = ToolsCommand.registry(pluginFolders, context: context)
        defer { registry.shutdown() }
        let candidates = registry.plugins.compactMap { record -> (PluginRecord, GeneratedContent)? in
            guard let manifest = record.manifest, record.declaredTools.contains(name) else { return nil }
            let entry = manifest.json["tools"]?.arrayValue?.first { manifest.registeredName(of: $0["name"]?.stringValue ?? "") == name }
            return entry.map { (record, $0) }
        }
        // The loaded one first; else the first refused plugin that declares it.
        guard let (record, entry) = candidates.first(where: { registry.tool(named: name)?.plugin == $0.0.manifest?.plugin }) ?? candidates.first,
            let manifest = record.manifest
        else {
            throw CommandError("unknown tool '\(name)' (see `agent tools list`)")
        }
        let loaded = registry.tool(named: name)?.plugin == manifest.plugin
        let status = loaded ? "ok" : record.status(ofTool: name).description
        var document: JSONObject = [
            "tool": .string(name), "plugin": .string(manifest.plugin), "version": .string(manifest.version),
        ]
        switch manifest.source {
        case .library(let library): document["library"] = .string(library)
        case .server(let server):
            document["server"] = .string(server.summary)
            if let prefix = server.toolPrefix { document["serverToolName"] = .string(String(name.dropFirst(prefix.count))) }
        }
        document["manifest"] = .string(record.manifestFile)
        document["isolation"] = .string(ToolsCommand.runsIn(manifest))
        document["timeoutMs"] = .number(Double(manifest.timeoutMs))
        document["status"] = .string(status)
        for (key, value) in entry.objectValue ?? [:] where key != "name" { document[key] = value }
        if json {
            context.stdout.line(GeneratedContent.object(document).prettyJSONString)
            return .success
        }
        context.stdout.line(context.styled(name, .bold) + "  (plugin \(manifest.plugin) \(manifest.version), \(ToolsCommand.runsIn(manifest)), timeout \(manifest.timeoutMs) ms)")
        context.stdout.line("status: " + (loaded ? context.styled(status, .green) : context.styled(status, .red)))
        switch manifest.source {
        case .library(let library): context.stdout.line("library: \(library)")
        case .server(let server): context.stdout.line("MCP server: \(server.summary)")
        }
        context.stdout.line("")
        context.stdout.line(entry["description"]?.stringValue ?? "")
        for key in ["arguments", "output", "annotations", "binding"] {
            guard let value = document[key] else { continue }
            context.stdout.line("")
            context.stdout.line(context.styled("\(key):", .bold))
            context.stdout.line(value.prettyJSONString)
        }
        if entry["needsApproval"]?.boolValue == true { context.stdout.line("\nneeds the user's approval before each call") }
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
            """)

    @Option(valueName: "JSON", help: "The arguments, a JSON object (default {}).") var args = "{}"
    @Flag(help: "Indent the result.") var pretty: Bool
    @OptionGroup var pluginFolders: PluginFolderOptions
    @Argument("NAME", help: "The tool's name.") var name: String

    func run(context: CommandContext) async throws -> ExitCode {
        let toolArguments: GeneratedContent
        do { toolArguments = try GeneratedContent(json: args) } catch {
            throw CommandError("--args is not JSON: \(error)", exitCode: .usage)
        }
        let registry = ToolsCommand.registry(pluginFolders, context: context)
        defer { registry.shutdown() }
        switch registry.result(of: name, arguments: toolArguments) {
        case .success(let result):
            context.stdout.line(pretty ? result.prettyJSONString : result.jsonString)
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
