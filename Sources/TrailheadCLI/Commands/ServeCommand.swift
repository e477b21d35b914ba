import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadPostgres
import TrailheadServer
import TrailheadSupport
import TrailheadTools

/// `agent serve [--port P] [--agents FILE] [--store URL]`: agents behind OpenAI-compatible HTTP.
struct ServeCommand: Command {
    static let configuration = CommandConfiguration(
        name: "serve",
        summary: "Serve agents over OpenAI-compatible HTTP (chat completions, responses), sessions in a store.",
        discussion: """
            POST /v1/chat/completions and POST /v1/responses, the request's "model" naming an agent, \
            or "local" (the served model, plain, with the request's instructions) — GET /v1/models lists \
            both; the agents' tool calls run here. A request's own "tools" (functions) are offered \
            under the step schema but not run: the response ends with their tool_calls (function_call \
            items), and the client sends their outputs back (role "tool", function_call_output). \
            stream: true sends the answer and the calls as server-sent events while they are written. previous_response_id continues a conversation \
            from the store, on any replica sharing it. Agents come from --agents (JSON; the trip \
            planner alone by default). --store is a folder of JSON Lines transcripts (default \
            runs/sessions) or postgresql://USER@HOST:PORT/DB, shared by replicas. Listens on \
            127.0.0.1; another --host needs an API key in the variable --api-key-env names (default \
            TRAILHEAD_API_KEY), which every request must then send as Authorization: Bearer KEY. \
            --model is one model, or several comma-separated endpoints served as a fleet. A store that \
            cannot be reached is waited for TRAILHEAD_STORE_TIMEOUT_SECONDS (default 30): then a \
            response fails with 503, and a background response's stream ends with an error event.
            """)

    @Option(valueName: "P", in: PortNumber.any, help: "Port (default 8090; 0 picks a free one, printed on stderr).")
    var port = PortNumber(8090)
    @Option(valueName: "ADDR", help: "IPv4 address to listen on (default 127.0.0.1).") var host = "127.0.0.1"
    @Option(valueName: "FILE", help: "The agents file (JSON).") var agents: String?
    @Option(valueName: "URL", help: "Session store: a folder, or postgresql://…") var store: String?
    @Option(valueName: "MODEL", help: "The model (default local), or A,B,… a fleet of endpoints.") var model = "local"
    @Option(valueName: "VAR", help: "Variable holding the API key clients must send (default TRAILHEAD_API_KEY).")
    var apiKeyEnv = "TRAILHEAD_API_KEY"
    @Option(valueName: "VAR", help: "Variable holding the API key of HTTP model endpoints.") var modelApiKeyEnv: String?
    @Flag(help: "Run no background responses here (agent worker processes do); with a postgresql:// store.") var noWorker: Bool
    @Flag(help: "Open the web app in the desktop's browser (xdg-open) once serving.") var open: Bool
    @OptionGroup var pluginFolders: PluginFolderOptions

    func run(context: CommandContext) async throws -> ExitCode {
        let agents = try Self.loadAgents(self.agents, context: context)
        let home = CommonOptions.home(context: context)
        let store = try Self.makeStore(self.store, home: home, context: context)
        let models = try Self.makeModels(model, apiKeyVariable: modelApiKeyEnv)
        let apiKey = context.environment[apiKeyEnv].flatMap { $0.isEmpty ? nil : $0 }

        let folders = pluginFolders.resolved(context)
        let registry = try Self.makeRegistry(for: agents, folders: folders, home: home)
        defer { registry.shutdown() }
        let runs = try Self.makeRuns(store)
        let server: AgentServer
        do {
            server = try AgentServer(
                configuration: .init(
                    host: host, port: port.number, apiKey: apiKey, agents: agents, store: store, models: models,
                    storeTimeout: Self.storeTimeout(context), runs: runs,
                    worker: noWorker ? nil : Self.workerConfiguration(context)),
                registry: registry)
        } catch {
            throw CommandError("\(error)", exitCode: .usage)
        }
        let watches = try watchStopSignals { server.stop() }
        defer { watches.forEach { $0.stop() } }
        context.stderr.line(
            "agent serve: \(agents.map(\.name).joined(separator: ", ")) on \(server.url) (store \(store.description)\(runs == nil ? "" : "; background runs"); model \(models.description)\(apiKey == nil ? "" : "; API key required"))")
        context.stderr.line("agent serve: open the web app at \(server.pageURL)")
        if open { Self.openInBrowser(server.pageURL, context: context) }
        try await onOwnThread { server.run() }
        return .success
    }

    /// `--open`: the desktop's browser via xdg-open; where there is none (a server, a container), the
    /// URL printed above is the way in, and this says so.
    static func openInBrowser(_ url: String, context: CommandContext) {
        let opener = Process()
        opener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        opener.arguments = ["xdg-open", url]
        opener.standardOutput = FileHandle.nullDevice
        opener.standardError = FileHandle.nullDevice
        do {
            try opener.run()
            opener.waitUntilExit()
            if opener.terminationStatus == 0 { return }
        } catch {}
        context.stderr.line("agent serve: --open: no desktop browser to open here (xdg-open failed); open \(url) in one")
    }

    /// The agents of `--agents FILE`, or the trip planner.
    static func loadAgents(_ path: String?, context: CommandContext) throws(CommandError) -> [AgentSpec] {
        guard let path else { return [.tripPlanner] }
        do { return try AgentSpec.load(path: context.absolutePath(path)) } catch { throw CommandError(error.message, exitCode: .usage) }
    }

    /// The registry of the plugin folders, refusing an agent whose tools it does not have.
    static func makeRegistry(for agents: [AgentSpec], folders: PluginFolders, home: String) throws(CommandError)
        -> ToolRegistry
    {
        let registry = ToolRegistry(.init(pluginsFolder: folders.plugins, manifestsFolder: folders.manifests, home: home))
        for agent in agents {
            do { _ = try registry.sessionTools(plugins: agent.tools) } catch {
                registry.shutdown()
                throw CommandError("agent '\(agent.name)': \(error.message)", exitCode: .usage)
            }
        }
        return registry
    }

    static func makeStore(_ text: String?, home: String, context: CommandContext) throws(CommandError) -> any SessionStore {
        let text = text ?? "\(home)/runs/sessions"
        do {
            if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") {
                let store = try PostgresSessionStore(url: text)
                try store.migrate()
                return store
            }
            return try FileSessionStore(folder: context.absolutePath(text))
        } catch {
            throw CommandError("--store: \(error.message)", exitCode: .usage)
        }
    }

    /// The in-process worker's settings; `TRAILHEAD_WORKER_LEASE_SECONDS` shortens its lease (tests
    /// of a takeover wait for one to lapse).
    static func workerConfiguration(_ context: CommandContext) -> BackgroundWorker.Configuration {
        var configuration = BackgroundWorker.Configuration()
        if let seconds = seconds("TRAILHEAD_WORKER_LEASE_SECONDS", in: 0.5...3600, context) { configuration.leaseSeconds = seconds }
        return configuration
    }

    /// How long a response, or a background response's stream, waits for a store that cannot be
    /// reached: `TRAILHEAD_STORE_TIMEOUT_SECONDS` (1–3600), else 30.
    static func storeTimeout(_ context: CommandContext) -> Double { seconds("TRAILHEAD_STORE_TIMEOUT_SECONDS", in: 1...3600, context) ?? 30 }

    /// The number of seconds `variable` holds, when it is one within `range`.
    private static func seconds(_ variable: String, in range: ClosedRange<Double>, _ context: CommandContext) -> Double? {
        guard let text = context.environment[variable], let seconds = Double(text), range.contains(seconds) else { return nil }
        return seconds
    }

    /// Background responses live beside a PostgreSQL store's sessions (none with a folder store).
    static func makeRuns(_ store: any SessionStore) throws(CommandError) -> PostgresRunStore? {
        guard let postgres = store as? PostgresSessionStore else { return nil }
        do {
            let runs = try PostgresRunStore(url: postgres.url)
            try runs.migrate()
            return runs
        } catch {
            throw CommandError("--store: \(error.message)", exitCode: .usage)
        }
    }

    /// One model, or a fleet: `A,B,…`, each `SPEC` or `SPEC*SLOTS` (the managed local model's
    /// slots are its own; an HTTP endpoint has 4 unless told).
    static func makeModels(_ text: String, apiKeyVariable: String?) throws(CommandError) -> ModelSource {
        do {
            if text.hasPrefix("scripted:") { return .scripted(try ScriptedModel(path: String(text.dropFirst("scripted:".count)))) }
            let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            var members: [ModelFleet.Member] = []
            for part in parts {
                var spec = part
                var slots: Int?
                if let star = part.lastIndex(of: "*") {
                    guard let count = Int(part[part.index(after: star)...]), (1...256).contains(count) else {
                        throw CommandError("--model: '\(part)': the slots after * must be a number from 1 to 256", exitCode: .usage)
                    }
                    slots = count
                    spec = String(part[..<star])
                }
                let model = try ModelSpecifier.model(spec, apiKeyEnvironmentVariable: apiKeyVariable)
                members.append(.init(model, slots: slots ?? (model as? LocalModel)?.configuration.parallelSlots ?? 4))
            }
            guard members.count > 1 else { return .shared(members[0].model) }
            return .shared(ModelFleet(members))
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError("--model: \(error)", exitCode: .usage)
        }
    }
}
