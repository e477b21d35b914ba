import Foundation
import TrailheadAgent
import TrailheadEvaluation
import TrailheadModels
import TrailheadSchema
import TrailheadSupport
import TrailheadTools
import TripPlanner

/// `agent eval REQUESTS.jsonl`: plans every request (or judges a peer's recorded plans) and
/// reports, per run and in total, success, wall time, turns, tokens and the plan checks.
struct EvalCommand: Command {
    static let configuration = CommandConfiguration(
        name: "eval",
        summary: "Plan a file of trip requests and check every plan; report times, tokens and checks.",
        discussion: """
            REQUESTS is JSON Lines, one request a line: {"landmark": "Kyoto", "days": 2, "tools": "poi,calendar", \
            "companions": ["Ana"], "from": "2026-12-01", "to": "2026-12-31"} (days default 3, tools default \
            \(TripPlanner.plugins.joined(separator: ",")), no companions, the window from tomorrow for 60 days). Checks: the number of days, \
            dates inside the window, free in the calendar (when enabled) and consecutive where it allows, places \
            returned by the points-of-interest tool, companions found in contacts and named in the request, \
            activities a day, no place repeated, notes within their bound, and what a person reads: words well formed \
            (none glued or cut), texts that end a sentence, no note repeated, activities that are things to do (not lodging, \
            a town, an airport, the destination or another place the tool marks as a destination), and statements about a \
            place that agree with the tool (a kind of place, or a length or count, said next to its name). Beside each run: \
            its model-time floor \
            (the server's own prompt and decode time), so seconds can be compared across machines. \
            With --recorded, judges another agent's plans (JSON Lines of {"request", "itinerary", "wallSeconds", \
            "toolOutputs": [{"tool", "result"}]}) with the same checks. Exits 1 when a run fails or a check does.
            With --bfcl, evaluates tool calling on the Berkeley Function Calling Leaderboard instead: the CATEGORIES \
            (default simple_python,multiple,parallel,parallel_multiple,irrelevance) of BFCL v4, from the bfcl-eval wheel \
            (`Scripts/setup-python.sh` installs it), each case through a default session ending at its first tool \
            turn, and through two peers on a llama-server of their own (the same model, 16,384 tokens of context): \
            (a) native tools, (b) calls read out of the text. \
            Scored with BFCL's own AST checker; prints accuracy, median seconds and tokens per category and agent, and \
            the failures by kind. multi_turn_base is a conversation: every turn through one session whose calls run on \
            BFCL's executable backends (the peers driven as a framework drives a server), scored by BFCL's multi-turn checker.
            """,
        cancelsOnInterrupt: true)

    @Option(valueName: "MODEL", help: "The model (default local).") var model = "local"
    @Option(valueName: "N", in: 1..., help: "Runs of each request (default 1).") var runs = 1
    @Option(valueName: "FILE", help: "Judge these recorded plans instead of planning.") var recorded: String?
    @Option(valueName: "DIR", help: "Where to write each run's transcript (default: a temporary folder).") var transcripts: String?
    @Option(valueName: "NAME", help: "Who made the plans, for the report (default trailhead).") var label = "trailhead"
    @Flag(help: "Print one JSON object.") var json: Bool
    @Flag(help: "Evaluate tool calling on BFCL v4 cases instead of planning trips.") var bfcl: Bool
    @Option(valueName: "N", in: 1..., help: "With --bfcl: the first N cases of each category (default all; CATEGORY:N sets one category's).") var limit: Int?
    @Flag(help: "With --bfcl: Trailhead alone, without the peers.") var noPeers: Bool
    @Option(valueName: "N", in: 0..., help: "With --bfcl: add N functions of the other cases of the categories evaluated to each case's (Trailhead only).")
    var distractors: Int?
    @Option(valueName: "MODE", help: "With --bfcl: always, never or automatic (default) searchTools instead of listing the tools.")
    var toolSearch: ToolSearch.Mode?
    @Flag(help: "With --bfcl: search the tools with the prompt before the first turn (ToolSearch.searchesPrompt).") var searchPrompt: Bool
    @Flag(help: "With --bfcl: also through `agent serve` (started in this process) with the official openai client.") var serve: Bool
    @Option(valueName: "WHICH", help: "With --bfcl: bfcl (default: BFCL's system prompt for every agent) or none.")
    var instructions = BFCLInstructions.bfcl
    @Option(valueName: "WHICH", help: "With --bfcl, in conversations: what Trailhead reads of earlier turns: calls (default: their calls and outputs, shortened) or answers (request and answer only).")
    var history = BFCLHistory.calls
    @Option(valueName: "FILE", help: "With --bfcl: keep each case's results in FILE (JSON Lines) as it finishes; the cases FILE holds already (of the same run: the same options, model and agent binary) are not run again, so a run stopped goes on where it stopped.")
    var results: String?
    @OptionGroup var pluginFolders: PluginFolderOptions
    @Argument("REQUESTS", help: "A JSON Lines file of trip requests (with --bfcl: CATEGORIES, comma-separated).") var requests: String?

    func run(context: CommandContext) async throws -> ExitCode {
        if bfcl { return try await runBFCL(context: context) }
        guard let requestsPath = self.requests else { throw UsageError("missing REQUESTS (a JSON Lines file of trip requests)") }
        let path = context.absolutePath(requestsPath)
        let requests = try Self.readRequests(path)
        var runs: [PlanRun] = []
        if let recorded {
            runs = try Self.judgeRecorded(context.absolutePath(recorded), label: label)
        } else {
            let folders = pluginFolders.resolved(context)
            let registry = ToolRegistry(.init(pluginsFolder: folders.plugins, manifestsFolder: folders.manifests, home: CommonOptions.home(context: context)))
            defer { registry.shutdown() }
            let model: any LanguageModel
            do { model = try ModelSpecifier.model(self.model) } catch { throw CommandError("\(error)", exitCode: .usage) }
            if case .unavailable(let reason) = await model.availability {
                context.stderr.line("agent: no model available: \(reason)")
                return .noModel
            }
            let folder = transcripts.map(context.absolutePath)
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-eval-\(UUID().uuidString)").path
            // Ctrl-C stops after the run in progress (itself cancelled); the runs done are reported.
            for round in 1...self.runs where !Task.isCancelled {
                for (number, (request, tools)) in requests.enumerated() where !Task.isCancelled {
                    let transcriptPath = "\(folder)/\(number + 1)-\(round).jsonl"
                    let result = try await Self.plan(
                        request, tools: tools, model: model, registry: registry, transcript: transcriptPath, index: round, label: label)
                    context.stderr.line(context.styled("\(PlanRun.title(request)) run \(round): \(result.passed ? "ok" : "FAILED") in \(String(format: "%.1f", result.wallSeconds)) s (floor \(String(format: "%.1f", result.floorSeconds)) s); transcript \(transcriptPath)", .dim))
                    runs.append(result)
                }
            }
        }
        if json {
            context.stdout.line(Self.report(runs).jsonString)
        } else {
            Self.printTable(runs, context: context)
        }
        return runs.allSatisfy(\.passed) ? .success : .failure
    }

    // MARK: - Planning and judging

    static func plan(
        _ request: TripRequest, tools names: [String], model: any LanguageModel, registry: ToolRegistry, transcript path: String, index: Int, label: String
    ) async throws -> PlanRun {
        let tools: [PluginTool]
        do { tools = try registry.sessionTools(plugins: names) } catch { throw CommandError(error.message, exitCode: .usage) }
        let writer: TranscriptWriter
        do { writer = try TranscriptWriter(path: path) } catch { throw CommandError(error.description) }
        let options = GenerationOptions(temperature: 0.2)
        let planner = TripPlanner(request: request)
        let started = monotonicSeconds()
        let outcome = await TripPlanRun(
            planner: planner, model: model, tools: tools, options: options, transcript: writer, trace: nil,
            recording: PlanRecording(request: request, plugins: names, includeSchema: false, maximumTurns: planner.maximumTurns, options: options)
        ).run()
        var run = PlanRun(request: request, tools: names, label: label, index: index, succeeded: false, wallSeconds: monotonicSeconds() - started)
        let entries = (try? TranscriptReader.read(path: path).entries) ?? []
        for entry in entries {
            guard case .modelTurn(let turn) = entry else { continue }
            run.turns += 1
            run.tokensOut += turn.tokensOut ?? 0
            run.uncachedTokensIn += turn.uncachedTokensIn ?? 0
            run.promptMs += turn.serverPromptMs ?? 0
            run.decodeMs += turn.serverDecodeMs ?? 0
        }
        switch outcome {
        case .finished(let itinerary, _):
            run.succeeded = true
            run.evaluation = PlanEvaluation(
                itinerary: itinerary, request: request, facts: .init(transcript: entries), plugins: names, activitiesPerDay: planner.activitiesPerDay)
        case .failed(let message), .unusable(let message): run.error = message
        case .cancelled: run.error = "cancelled"
        }
        return run
    }

    static func judgeRecorded(_ path: String, label: String) throws -> [PlanRun] {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandError("cannot read \(path)") }
        var runs: [PlanRun] = []
        var counts: [String: Int] = [:]
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() where !line.isEmpty {
            let record: RecordedPlan
            do { record = try GeneratedContentDecoder(lenient: true).decode(RecordedPlan.self, from: try GeneratedContent(json: String(line))) } catch {
                throw CommandError("\(path):\(number + 1): not a recorded plan: \(error)")
            }
            guard let requestContent = record.request, let (request, tools) = try? parse(requestContent, line: number + 1, in: path) else {
                throw CommandError("\(path):\(number + 1): no valid \"request\"")
            }
            counts[PlanRun.title(request), default: 0] += 1
            var run = PlanRun(request: request, tools: tools, label: label, index: counts[PlanRun.title(request)]!, succeeded: false,
                          wallSeconds: record.wallSeconds ?? .nan)
            run.turns = record.turns ?? 0
            run.tokensOut = record.tokensOut ?? 0
            run.uncachedTokensIn = record.uncachedTokensIn ?? 0
            run.promptMs = record.serverPromptMs ?? 0
            run.decodeMs = record.serverDecodeMs ?? 0
            if let itinerary = record.itinerary {
                run.succeeded = true
                run.evaluation = PlanEvaluation(itinerary: itinerary, request: request, facts: record.facts, plugins: tools)
            } else {
                run.error = record.error ?? "no itinerary"
            }
            runs.append(run)
        }
        return runs
    }

    // MARK: - Requests

    static func readRequests(_ path: String) throws -> [(TripRequest, [String])] {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandError("cannot read \(path)", exitCode: .usage) }
        var requests: [(TripRequest, [String])] = []
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let content: GeneratedContent
            do { content = try GeneratedContent(json: text) } catch { throw CommandError("\(path):\(number + 1): not JSON: \(error)", exitCode: .usage) }
            requests.append(try parse(content, line: number + 1, in: path))
        }
        guard !requests.isEmpty else { throw CommandError("\(path) holds no request", exitCode: .usage) }
        return requests
    }

    static func parse(_ content: GeneratedContent, line: Int, in path: String) throws -> (TripRequest, [String]) {
        // Leniently: a member of the wrong type is as good as absent (the defaults apply).
        let parsed = (try? GeneratedContentDecoder(lenient: true).decode(RequestLine.self, from: content)) ?? RequestLine()
        return try parsed.request(line: line, in: path)
    }

    // MARK: - Report

    static func report(_ runs: [PlanRun]) -> GeneratedContent {
        (try? GeneratedContent(encoding: PlanReport(runs))) ?? [:]
    }

    static func printTable(_ runs: [PlanRun], context: CommandContext) {
        context.stdout.line("| agent | request | run | ok | wall | model floor | wall/floor | turns | tokens out | prompt tokens read | checks |")
        context.stdout.line("|---|---|---|---|---|---|---|---|---|---|---|")
        for run in runs {
            let failed = run.evaluation?.checks.filter { !$0.passed } ?? []
            let checks = run.evaluation.map { failed.isEmpty ? "all \($0.checks.count) pass" : failed.map { "\($0.name): \($0.detail)" }.joined(separator: "; ") }
                ?? (run.error ?? "")
            let floor = run.floorSeconds > 0 ? String(format: "%.1f s", run.floorSeconds) : "–"
            let ratio = run.floorSeconds > 0 ? String(format: "%.2f", run.wallSeconds / run.floorSeconds) : "–"
            context.stdout.line(String(format: "| %@ | %@ | %d | %@ | %.1f s | %@ | %@ | %d | %d | %d | %@ |", run.label, PlanRun.title(run.request), run.index,
                                       run.passed ? "yes" : "NO", run.wallSeconds, floor, ratio, run.turns, run.tokensOut, run.uncachedTokensIn, checks))
        }
        let summary = PlanReport.Summary(runs)
        context.stdout.line(String(
            format: "%d runs: %d delivered, %d passed every check; median wall %.1f s, %.2f × the model-time floor; model read %.1f prompt tokens/s and decoded %.1f tokens/s",
            summary.runs, summary.succeeded, summary.passed, summary.medianWallSeconds, summary.medianWallOverFloor,
            summary.promptTokensPerSecond, summary.decodeTokensPerSecond))
    }
}

extension ToolSearch.Mode: ArgumentValue {}

/// `--instructions`: BFCL's system prompt for every agent, or none.
enum BFCLInstructions: String, CaseIterable, ArgumentValue {
    case bfcl, none
}

/// `--history`: what Trailhead's session reads of a conversation's earlier turns.
enum BFCLHistory: String, CaseIterable, ArgumentValue {
    case answers, calls

    var transform: HistoryTransform {
        switch self {
        case .answers: .droppingCompletedToolCalls
        case .calls: .summarizingCompletedToolCalls()
        }
    }
}
