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
            """)

    @Option(valueName: "URL", help: "postgresql://USER@HOST:PORT/DB, shared with the agent serve replicas.") var store: String?
    @Option(valueName: "N", in: 1...256, help: "Runs at once (default 1).") var concurrency = 1
    @Option(valueName: "FILE", help: "The agents file (JSON).") var agents: String?
    @Option(valueName: "MODEL", help: "The model (default local), or A,B,… a fleet of endpoints.") var model = "local"
    @Option(valueName: "VAR", help: "Variable holding the API key of HTTP model endpoints.") var modelApiKeyEnv: String?
    @OptionGroup var pluginFolders: PluginFolderOptions

    func run(context: CommandContext) async throws -> ExitCode {
        guard let url = store, url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw CommandError("--store postgresql://… is required: background runs live in PostgreSQL", exitCode: .usage)
        }
        var settings = ServeCommand.workerConfiguration(context)
        settings.concurrency = concurrency
        let agents = try ServeCommand.loadAgents(self.agents, context: context)
        let home = CommonOptions.home(context: context)
        let store = try ServeCommand.makeStore(url, home: home, context: context)
        guard let runs = try ServeCommand.makeRuns(store) else { throw CommandError("--store: not a PostgreSQL store", exitCode: .usage) }
        let models = try ServeCommand.makeModels(model, apiKeyVariable: modelApiKeyEnv)
        let folders = pluginFolders.resolved(context)
        let registry = try ServeCommand.makeRegistry(for: agents, folders: folders, home: home)
        defer { registry.shutdown() }
        let worker = BackgroundWorker(configuration: settings, runs: runs, agents: agents, registry: registry, store: store, models: models)
        let stopped = DispatchSemaphore(value: 0)
        let watches = try watchStopSignals { stopped.signal() }
        defer { watches.forEach { $0.stop() } }
        worker.start()
        context.stderr.line("agent worker: \(settings.concurrency) at a time from \(runs.description) (\(settings.owner); model \(models.description))")
        try await onOwnThread { stopped.wait() }
        worker.stop()
        return .success
    }
}
