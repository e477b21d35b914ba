import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadTools

/// `agent transcript replay FILE`: runs a recorded plan again with the recorded model outputs
/// and the live tools, and reports every difference (a tool that now answers otherwise, a turn
/// the loop now judges differently, another final answer).
struct TranscriptReplayCommand: Command {
    static let configuration = CommandConfiguration(
        name: "replay",
        summary: "Re-run a transcript with its recorded model outputs and live tools; report differences.",
        discussion: "Exits 0 when the replay matches the recording, 1 when anything differs.",
        options: [
            .option("out", valueName: "FILE", help: "Where to write the replay's own transcript (default: a temporary file)."),
            CommonOptions.plugins, CommonOptions.manifests,
        ],
        positionals: [.required("FILE", help: "A transcript written by `agent plan`.")])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let path = context.absolutePath(arguments.positional("FILE")!)
        let recorded: [TranscriptEntry]
        do { recorded = try TranscriptReader.read(path: path).entries } catch { throw CommandError(error.message) }
        guard let session = recorded.first(where: { $0.kind == .instructions }), let requestContent = session["request"],
              let request = TripRequest(content: requestContent)
        else { throw CommandError("\(path) has no recorded request (an instructions entry with \"request\"): it cannot be replayed") }

        let folders = CommonOptions.folders(arguments, context: context)
        let registry = ToolRegistry(.init(pluginsFolder: folders.plugins, manifestsFolder: folders.manifests, home: CommonOptions.home(context: context)))
        defer { registry.shutdown() }
        let recordedTools = session["tools"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var tools: [TripPlanner.ToolInfo] = []
        for name in recordedTools {
            guard let tool = registry.tool(named: name) else { throw CommandError("the tool '\(name)' of the recording is not available now") }
            tools.append(.init(name: name, description: tool.manifest.description, arguments: tool.manifest.arguments))
        }
        let planner = TripPlanner(request: request, tools: tools,
                                  includeSchemaInPrompt: requestContent["includeSchema"]?.boolValue ?? false,
                                  maximumTurns: requestContent["maxTurns"]?.intValue ?? 10)
        let model: ScriptedModel
        do { model = try ScriptedModel(path: path) } catch { throw CommandError("\(error)") }
        let out = arguments.value(of: "out").map(context.absolutePath)
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-replay-\(UUID().uuidString).jsonl").path
        let transcript: TranscriptWriter
        do { transcript = try TranscriptWriter(path: out) } catch { throw CommandError(error.message) }
        transcript.append(.instructions(planner.instructions, tools: recordedTools, outputSchema: planner.outputSchema, request: requestContent))
        var loop = AgentLoop(model: model, tools: RegistryToolRunner(registry: registry, places: PlaceIndex()), transcript: transcript)
        loop.summarize = TripPlanner.summarize
        let runner = loop
        _ = runAsync { await runner.run(instructions: planner.instructions, prompt: planner.prompt, machine: planner.makeStateMachine()) }

        let replayed: [TranscriptEntry]
        do { replayed = try TranscriptReader.read(path: out).entries } catch { throw CommandError(error.message) }
        let differences = TranscriptComparison.differences(recorded: recorded, replayed: replayed)
        let turns = replayed.filter { $0.kind == .modelTurn }.count
        let calls = replayed.filter { $0.kind == .toolCall }.count
        context.stdout.line("replayed \(turns) model turns and \(calls) tool calls; replay transcript: \(out)")
        if differences.isEmpty {
            context.stdout.line(context.styled("no differences", .green))
            return .success
        }
        for difference in differences { context.stdout.line(context.styled("differs: ", .red) + difference) }
        return .failure
    }
}

/// What a replay compares: the prompt, the calls and their outputs, repairs, and the outcome —
/// in order, ignoring timestamps, latencies and models.
enum TranscriptComparison {
    static func differences(recorded: [TranscriptEntry], replayed: [TranscriptEntry]) -> [String] {
        let a = recorded.compactMap(signature)
        let b = replayed.compactMap(signature)
        var found: [String] = []
        for index in 0..<max(a.count, b.count) {
            let left = index < a.count ? a[index] : "(nothing)"
            let right = index < b.count ? b[index] : "(nothing)"
            if left != right { found.append("step \(index + 1): recorded \(short(left)), now \(short(right))") }
        }
        return found
    }

    private static func signature(_ entry: TranscriptEntry) -> String? {
        switch entry.kind {
        case .prompt: "prompt \(entry["text"]?.stringValue ?? "")"
        case .toolCall: "call \(entry["tool"]?.stringValue ?? "") \(entry["arguments"]?.jsonString ?? "")"
        case .toolOutput: "output \(entry["tool"]?.stringValue ?? "") " + (entry["result"]?.jsonString ?? "error: " + (entry["error"]?.stringValue ?? ""))
        case .repair: "repair \(entry["message"]?.stringValue ?? "")"
        case .response: "response \(entry["content"]?.jsonString ?? "")"
        case .error: "error \(entry["message"]?.stringValue ?? "")"
        case .instructions, .modelTurn, .cancelled: nil
        }
    }

    private static func short(_ text: String) -> String { text.count > 200 ? String(text.prefix(200)) + "…" : text }
}
