import Foundation
import TrailheadAgent
import TrailheadPostgres
import TrailheadServer
import TrailheadSupport
import TrailheadTools

/// `agent worker --store postgresql://… [--concurrency N] [--agents FILE] [--model MODEL]`: runs
/// background responses queued by `agent serve` replicas sharing the database, until SIGINT or
/// SIGTERM. Give it the replicas' --agents and --model.
struct WorkerCommand: Command {
    static let configuration = CommandConfiguration(
        name: "worker",
        summary: "Run background responses (POST /v1/responses with background: true) from a PostgreSQL store.",
        discussion: """
            Claims queued runs (and runs whose worker's lease lapsed) from the database of --store, \
            N at a time (--concurrency, default 1), with the agents of --agents and the model of \
            --model, as agent serve would. agent serve runs one such worker in-process unless \
            started with --no-worker. A worker killed mid-run loses nothing recorded: another takes \
            the run over once its lease lapses (TRAILHEAD_WORKER_LEASE_SECONDS, default 10) and \
            repeats no model turn and no tool call.
            """,
        options: [
            .option("store", valueName: "URL", help: "postgresql://USER@HOST:PORT/DB, shared with the agent serve replicas."),
            .option("concurrency", valueName: "N", help: "Runs at once (default 1)."),
            .option("agents", valueName: "FILE", help: "The agents file (JSON)."),
            .option("model", valueName: "MODEL", help: "The model (default local), or A,B,… a fleet of endpoints."),
            .option("model-api-key-env", valueName: "VAR", help: "Variable holding the API key of HTTP model endpoints."),
            CommonOptions.plugins, CommonOptions.manifests,
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let url = arguments.value(of: "store"), url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw CommandError("--store postgresql://… is required: background runs live in PostgreSQL", exitCode: .usage)
        }
        var settings = ServeCommand.workerConfiguration(context)
        if let text = arguments.value(of: "concurrency") {
            guard let count = Int(text), (1...256).contains(count) else { throw CommandError("--concurrency must be from 1 to 256", exitCode: .usage) }
            settings.concurrency = count
        }
        let agents: [AgentSpec]
        if let path = arguments.value(of: "agents") {
            do { agents = try AgentSpec.load(path: context.absolutePath(path)) } catch { throw CommandError(error.message, exitCode: .usage) }
        } else {
            agents = [.tripPlanner]
        }
        let home = CommonOptions.home(context: context)
        let store = try ServeCommand.makeStore(url, home: home, context: context)
        guard let runs = try ServeCommand.makeRuns(store) else { throw CommandError("--store: not a PostgreSQL store", exitCode: .usage) }
        let models = try ServeCommand.makeModels(arguments.value(of: "model") ?? "local", apiKeyVariable: arguments.value(of: "model-api-key-env"))
        let folders = CommonOptions.folders(arguments, context: context)
        let registry = ToolRegistry(.init(pluginsFolder: folders.plugins, manifestsFolder: folders.manifests, home: home))
        defer { registry.shutdown() }
        for agent in agents {
            do { _ = try registry.sessionTools(plugins: agent.tools) } catch {
                throw CommandError("agent '\(agent.name)': \(error.message)", exitCode: .usage)
            }
        }
        let worker = BackgroundWorker(configuration: settings, runs: runs, agents: agents, registry: registry, store: store, models: models)
        let stopped = DispatchSemaphore(value: 0)
        let watches: [SignalWatch]
        do { watches = try [SIGINT, SIGTERM].map { try SignalWatch($0) { _ in stopped.signal() } } } catch { throw CommandError("\(error)") }
        defer { watches.forEach { $0.stop() } }
        worker.start()
        context.stderr.line("agent worker: \(settings.concurrency) at a time from \(runs.description) (\(settings.owner); model \(models.description))")
        stopped.wait()
        worker.stop()
        return .success
    }
}
