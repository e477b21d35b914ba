import Foundation
import TrailheadAgent
import TrailheadEvaluation
import TrailheadModels
import TrailheadSchema
import TrailheadServer
import TrailheadSupport
import TrailheadTools

extension EvalCommand {
    /// `agent eval --bfcl [CATEGORIES] [--limit N] [--model M] [--no-peers] [--serve] [--instructions bfcl|none] [--history calls|answers] [--results FILE] [--json] [--transcripts DIR]`;
    /// a category written `NAME:N` takes its first N cases whatever `--limit` says.
    /// The evaluation's own failures (no worker, a case that cannot load) are the command's, said as it says them.
    func runBFCL(context: CommandContext) async throws -> ExitCode {
        do { return try await evaluateBFCL(context: context) } catch let error as BFCLError { throw CommandError(error.message) }
    }

    private func evaluateBFCL(context: CommandContext) async throws -> ExitCode {
        let limits = try categoryLimits()
        let categories = limits.map(\.category)
        let model: any LanguageModel
        do { model = try ModelSpecifier.model(self.model) } catch { throw CommandError("\(error)", exitCode: .usage) }
        if case .unavailable(let reason) = await model.availability {
            context.stderr.line("agent: no model available: \(reason)")
            return .noModel
        }
        // Every agent a server of its own, started cold (`ownServer`). One that an interrupted run
        // left in its folder still holds that run's prompts in its cache: it is stopped first.
        let sessionModel = Self.ownServer(for: model, folder: "bfcl-session")
        let peerModel = noPeers ? nil : Self.ownServer(for: model, folder: "bfcl-peers", contextSize: Self.peerContext, slots: 1)
        let endpointModel = serve ? Self.ownServer(for: model, folder: "bfcl-serve") : nil
        let ownServers = [sessionModel, endpointModel, peerModel].compactMap { $0 as? LocalModel }
        for own in ownServers { await own.stop() }
        var peers: String?
        if let peerModel { peers = try await Self.peerEndpoint(of: peerModel) }
        let worker = try BFCLWorker(home: CommonOptions.home(context: context), python: ModelAssets().cacheDirectory + "/venv/bin/python")
        let transcripts = self.transcripts.map(context.absolutePath)
        if let transcripts { try? FileManager.default.createDirectory(atPath: transcripts, withIntermediateDirectories: true) }
        var evaluation = BFCLEvaluation(worker: worker, model: sessionModel, peerEndpoint: peers, transcripts: transcripts)
        evaluation.usesBFCLInstructions = instructions == .bfcl
        evaluation.historyTransform = history.transform
        var server: AgentServer?
        // The servers load before the first case, so no agent's first time holds a model load.
        for local in [sessionModel, endpointModel].compactMap({ $0 as? LocalModel }) { try await Self.start(local) }
        if let endpointModel {
            server = try Self.startServer(serving: endpointModel, context: context)
            evaluation.serveEndpoint = server?.url
        }
        defer { server?.stop() }
        var cases: [BFCLCase] = []
        for (category, limit) in limits { cases += try evaluation.cases([category], limit: limit) }
        try configureToolCount(&evaluation, categories: categories)
        var kept = try self.results.map { path in
            try BFCLResultsFile(path: context.absolutePath(path), run: runIdentity(model: model, toolSearch: evaluation.toolSearch.mode, worker: worker))
        }
        var results: [BFCLEvaluation.CaseResult] = []
        var rates = BFCLEvaluation.ModelRates()
        // Ctrl-C cuts the case in progress short: it is neither kept nor counted (its agents'
        // turns were cancelled, not wrong), and a run given the same --results does it again. The
        // cases done are reported, and the command ends as an interrupted one does (130).
        var interrupted = false
        for (number, item) in cases.enumerated() {
            if let done = kept?.done[item.id], let first = done.first {
                results += done
                rates.add(first.rates)
                continue
            }
            // The worker a case waits on (peers, checker) is stopped two seconds after the Ctrl-C (`runAsync`).
            var answered: [BFCLEvaluation.CaseResult] = []
            do { answered = try await evaluation.evaluate(item, serveFirst: number % 2 == 1) } catch { guard Task.isCancelled else { throw error } }
            if Task.isCancelled {
                interrupted = true
                context.stderr.line("[\(number + 1)/\(cases.count)] \(item.id): interrupted; not counted\(kept == nil ? "" : " nor kept")")
                break
            }
            try kept?.append(case: item.id, answered)
            results += answered
            rates.add(answered[0].rates)
            let verdicts = answered.map { "\($0.agent.short) \($0.valid ? "ok" : "no")" }
            context.stderr.line(context.styled(
                "[\(number + 1)/\(cases.count)] \(item.id): \(verdicts.joined(separator: ", ")) (\(String(format: "%.1f", answered[0].seconds)) s)"
                    + (answered[0].valid || answered[0].error.isEmpty ? "" : " — \(answered[0].error.prefix(160))"), .dim))
        }
        if json {
            context.stdout.line(GeneratedContent.object(["results": .array(results.map(\.json)), "modelRates": .string(rates.description)]).jsonString)
        } else {
            context.stdout.line(BFCLEvaluation.table(results, categories: categories))
            context.stdout.line(BFCLEvaluation.failureKinds(results, categories: categories))
            let served = BFCLEvaluation.servedAgainstSession(results, categories: categories)
            if !served.isEmpty { context.stdout.line(served) }
            context.stdout.line("model \(model.id), \(rates.description) (Trailhead's turns, as the server timed them); load average \(Self.loadAverage())")
        }
        // Only the managed local model gets servers of its own (`ownServer`); they end with the run.
        for own in ownServers { await own.stop() }
        return interrupted ? ExitCode(130) : .success
    }

    /// What makes this run the run a results file holds: every option that changes a result (not
    /// which cases), the model, the experiment variables of `ToolDecision`, the `agent` binary
    /// itself and the BFCL worker's script (their sha256: the peers and the checks are the
    /// script's), so a resumed run is the same programs throughout.
    private func runIdentity(model: any LanguageModel, toolSearch: ToolSearch.Mode, worker: BFCLWorker) -> GeneratedContent {
        let binary = (try? SHA256.hex(ofFileAt: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return [
            "model": .string(model.id), "agent": .string(binary), "worker": .string(worker.scriptSHA256), "peers": .bool(!noPeers), "serve": .bool(serve),
            "instructions": .string(instructions.rawValue), "history": .string(history.rawValue), "toolSearch": .string(toolSearch.rawValue),
            "searchPrompt": .bool(searchPrompt), "distractors": .number(Double(distractors ?? 0)),
            "toolDecision": .string("\(ToolDecision.fromEnvironment())"),
        ]
    }

    /// The categories asked for, each with its number of cases: `NAME:N`, or `--limit` (nil: all).
    private func categoryLimits() throws -> [(category: String, limit: Int?)] {
        let names = requests.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            ?? BFCLEvaluation.defaultCategories
        return try names.map { name in
            let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return (name, limit) }
            guard let count = Int(parts[1]), count > 0 else {
                throw CommandError("--bfcl: '\(name)' is not CATEGORY:N with N a number of cases from 1", exitCode: .usage)
            }
            return (parts[0], count)
        }
    }

    /// `--distractors N` (functions of the categories' other cases added to each case's) and
    /// `--tool-search always|never|automatic`, `--search-prompt`.
    func configureToolCount(_ evaluation: inout BFCLEvaluation, categories: [String]) throws {
        if let toolSearch { evaluation.toolSearch = ToolSearch(mode: toolSearch) }
        evaluation.toolSearch.searchesPrompt = searchPrompt
        guard let count = distractors else { return }
        evaluation.distractorCount = count
        if count > 0 { evaluation.distractors = BFCLDistractors(cases: try evaluation.cases(categories, limit: nil)) }
    }

    /// The model the session, `agent serve` (`--serve`) or the peers talk to. The managed local
    /// model gets a llama-server of its own for each (the same model in a run directory of its own,
    /// started cold, stopped when the run ends), so no agent finds another's prompt in a cache, nor
    /// one an earlier run left: each reads only what it sent itself, and the session's and
    /// endpoint's times compare case by case, median against median (llama-server's host-memory
    /// prompt cache keeps a server's earlier prompts for hours: docs/TOOL-CALLING.md has what a
    /// shared or leftover server did to the medians). Any other model is used as it is (session and
    /// endpoint then alternate going first).
    /// No idle shutdown: the peers' requests go to llama-server directly, never through
    /// `LocalModel`, so its watchdog saw 10 minutes without use and stopped their server mid-run
    /// (every peer request after it failed at once); a peer's conversation alone can outlast it too.
    static func ownServer(for model: any LanguageModel, folder: String, contextSize: Int? = nil, slots: Int? = nil) -> any LanguageModel {
        guard let local = model as? LocalModel else { return model }
        var configuration = local.configuration
        configuration.runDirectory += "/" + folder
        configuration.idleShutdownSeconds = nil
        if let contextSize { configuration.contextSize = contextSize }
        if let slots { configuration.parallelSlots = slots }
        return LocalModel(configuration: configuration)
    }

    /// The peers' context on the managed local model: their prompts hold every tool as Qwen's template
    /// writes it and every earlier turn whole, and at the runtime's 4,096 tokens half of BFCL's
    /// `multi_turn_base` conversations failed at their first request (2,939–5,206 tokens with the
    /// case's 18–35 functions; llama-server's 400 "exceeds the available context size"). With 16,384
    /// the peers are measured on their calls, not on their prompt's length; the session keeps 4,096.
    static let peerContext = 16384

    /// `agent serve` in this process on a free port of 127.0.0.1, serving `model` as "local" (a plain
    /// model with each request's tools), for `--serve`: the official `openai` client drives it.
    static func startServer(serving model: any LanguageModel, context: CommandContext) throws -> AgentServer {
        let home = CommonOptions.home(context: context)
        let sessions = FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-bfcl-\(getpid())").path
        let server: AgentServer
        do {
            let registry = ToolRegistry(.init(pluginsFolder: home + "/Plugins", manifestsFolder: home + "/Manifests", home: home))
            server = try AgentServer(
                configuration: .init(store: try FileSessionStore(folder: sessions), models: .shared(model)), registry: registry)
        } catch {
            throw CommandError("--serve: agent serve did not start: \(error)")
        }
        let thread = Thread { server.run() }
        thread.start()
        context.stderr.line("agent serve (for the openai client) on \(server.url)")
        return server
    }

    /// Where the peers send their requests: the managed local model's server, or the HTTP model's
    /// own endpoint; nil for a model the peers cannot reach (scripted, say).
    static func peerEndpoint(of model: any LanguageModel) async throws -> String? {
        if let local = model as? LocalModel { return try await start(local).endpoint }
        if let remote = model as? OpenAICompatibleModel { return remote.configuration.endpoint.baseURL.absoluteString }
        return nil
    }

    @discardableResult
    static func start(_ local: LocalModel) async throws -> LocalServerRecord {
        do { return try await local.start() } catch { throw CommandError("the local model did not start: \(error)") }
    }

    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
