import Foundation
import TrailheadSupport
import TrailheadTools

/// `agent mcp`: Trailhead's tools for any MCP client.
struct MCPCommand: Command {
    static let configuration = CommandConfiguration(
        name: "mcp",
        summary: "Serve Trailhead's tools to MCP clients.",
        discussion: "To use an MCP server's tools in Trailhead instead, see `agent tools register --mcp`.",
        subcommands: [MCPServeCommand.self])
}

/// `agent mcp serve [--tools LIST] [--http PORT]`.
struct MCPServeCommand: Command {
    static let configuration = CommandConfiguration(
        name: "serve",
        summary: "Serve the registered tools as one MCP server, over stdio or Streamable HTTP on 127.0.0.1.",
        discussion: """
            Speaks the Model Context Protocol (revision 2025-11-25, and 2024-11-05 to 2025-06-18): \
            initialize, ping, tools/list (input and output schemas, annotations), tools/call \
            (structured content and its text; tool errors as isError), cancellation of a call in \
            flight, and notifications/tools/list_changed when a plugin is registered, changed, removed \
            or quarantined (the manifests folder is read again every second). Arguments are validated \
            and plugins isolated and restarted as in `agent plan`. Over stdio the protocol uses this \
            process's stdin and stdout (logs go to stderr) until stdin closes; with --http PORT it \
            listens on http://127.0.0.1:PORT/mcp (0 picks a free port; the URL is printed on stderr) \
            until interrupted.
            """)

    @Option(valueName: "LIST", help: "Plugins whose tools to serve, comma-separated (default: every registered plugin).")
    var tools: NameList?
    @Option(valueName: "PORT", in: PortNumber.any, help: "Serve Streamable HTTP on 127.0.0.1:PORT instead of stdio.")
    var http: PortNumber?
    @OptionGroup var pluginFolders: PluginFolderOptions

    func run(context: CommandContext) async throws -> ExitCode {
        let registry = ToolsCommand.registry(pluginFolders, context: context)
        defer { registry.shutdown() }
        let plugins = self.tools?.names
        for name in plugins ?? [] {
            guard let record = registry.plugin(named: name) else {
                let known = registry.plugins.compactMap(\.manifest?.plugin).joined(separator: ", ")
                throw CommandError("no tool plugin named '\(name)' (installed: \(known.isEmpty ? "none" : known))", exitCode: .usage)
            }
            if !record.status.isOK { context.stderr.line("agent mcp serve: plugin '\(name)' is \(record.status); serving it once it loads") }
        }
        for record in registry.plugins where !record.status.isOK && plugins?.contains(record.name) != true {
            context.stderr.line("agent mcp serve: plugin '\(record.name)' is \(record.status)")
        }
        let server = MCPToolServer(registry: registry, plugins: plugins)
        let tools = server.toolNames
        guard let port = http?.number else {
            context.stderr.line("agent mcp serve: \(tools.count) tools on stdio")
            do { try await onOwnThread { try server.serveStandardIO() } } catch let error as PluginLoadError { throw CommandError(error.message) }
            return .success
        }
        // Ctrl-C or SIGTERM stops the listener; the workers are stopped on the way out.
        let watches = try watchStopSignals { server.stop() }
        defer { watches.forEach { $0.stop() } }
        do {
            try await onOwnThread { try server.serveHTTP(port: port) { url in context.stderr.line("agent mcp serve: \(tools.count) tools on \(url)") } }
        } catch let error as HTTPError {
            throw CommandError(error.message)
        }
        return .success
    }
}
