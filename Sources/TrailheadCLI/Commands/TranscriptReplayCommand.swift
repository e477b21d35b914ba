import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadTools
import TripPlanner

/// `agent transcript replay FILE`: runs a recorded plan again with the recorded model outputs
/// and the live tools, and reports every difference (a tool that now answers otherwise, a turn
/// the loop now judges differently, another final answer).
struct TranscriptReplayCommand: Command {
    static let configuration = CommandConfiguration(
        name: "replay",
        summary: "Re-run a transcript with its recorded model outputs and live tools; report differences.",
        discussion: "Exits 0 when the replay matches the recording, 1 when anything differs.",
        cancelsOnInterrupt: true)

    @Option(valueName: "FILE", help: "Where to write the replay's own transcript (default: a temporary file).")
    var out: String?
    @OptionGroup var pluginFolders: PluginFolderOptions
    @Argument("FILE", help: "A transcript written by `agent plan`.") var file: String

    func run(context: CommandContext) async throws -> ExitCode {
        let path = context.absolutePath(file)
        let recorded: [Transcript.Entry]
        do { recorded = try TranscriptReader.read(path: path).entries } catch { throw CommandError(error.description) }
        guard case .instructions(let session)? = recorded.first(where: { $0.kind == .instructions }),
              let recording = try? session.request?.decode(as: PlanRecording.self)
        else { throw CommandError("\(path) has no recorded request (an instructions entry with \"request\"): it cannot be replayed") }

        let folders = pluginFolders.resolved(context)
        let registry = ToolRegistry(.init(pluginsFolder: folders.plugins, manifestsFolder: folders.manifests, home: CommonOptions.home(context: context)))
        defer { registry.shutdown() }
        let plugins = recording.plugins
        let tools: [PluginTool]
        do {
            tools = try registry.sessionTools(plugins: plugins).filter { plugins != nil || session.tools.contains($0.name) }
        } catch { throw CommandError("the recording's tools are not available now: \(error)") }
        for name in session.tools where !tools.contains(where: { $0.name == name }) {
            throw CommandError("the tool '\(name)' of the recording is not available now")
        }
        let model: ScriptedModel
        do { model = try ScriptedModel(path: path) } catch { throw CommandError("\(error)") }
        let out = self.out.map(context.absolutePath)
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-replay-\(UUID().uuidString).jsonl").path
        let transcript: TranscriptWriter
        do { transcript = try TranscriptWriter(path: out) } catch { throw CommandError(error.description) }
        let planner = TripPlanner(request: recording.request, includeSchemaInPrompt: recording.includeSchema, maximumTurns: recording.maximumTurns)
        let run = TripPlanRun(
            planner: planner, model: model, tools: tools, options: recording.generationOptions, transcript: transcript,
            trace: nil, recording: recording)
        _ = await run.run()

        let replayed: [Transcript.Entry]
        do { replayed = try TranscriptReader.read(path: out).entries } catch { throw CommandError(error.description) }
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
    static func differences(recorded: [Transcript.Entry], replayed: [Transcript.Entry]) -> [String] {
        let a = inCallOrder(recorded).compactMap(signature)
        let b = inCallOrder(replayed).compactMap(signature)
        var found: [String] = []
        for index in 0..<max(a.count, b.count) {
            let left = index < a.count ? a[index] : "(nothing)"
            let right = index < b.count ? b[index] : "(nothing)"
            if left != right { found.append("step \(index + 1): recorded \(short(left)), now \(short(right))") }
        }
        return found
    }

    /// Concurrent calls record their outputs as they arrive: consecutive outputs are compared in
    /// the order of their calls.
    private static func inCallOrder(_ entries: [Transcript.Entry]) -> [Transcript.Entry] {
        var ordered: [Transcript.Entry] = []
        var outputs: [Transcript.ToolOutput] = []
        func flush() {
            ordered += outputs.sorted { ($0.id.count, $0.id) < ($1.id.count, $1.id) }.map { .toolOutput($0) }
            outputs = []
        }
        for entry in entries {
            if case .toolOutput(let output) = entry { outputs.append(output) } else { flush(); ordered.append(entry) }
        }
        flush()
        return ordered
    }

    private static func signature(_ entry: Transcript.Entry) -> String? {
        switch entry {
        case .prompt(let prompt): "prompt \(prompt.text)"
        case .toolCall(let call): "call \(call.tool) \(call.arguments.jsonString)"
        case .toolOutput(let output): "output \(output.tool) " + (output.result?.jsonString ?? "error: " + (output.error ?? ""))
        case .repair(let repair): "repair \(repair.message)"
        case .response(let response): "response \(response.content.jsonString)"
        case .error(let failure): "error \(failure.message)"
        case .instructions, .modelTurn, .cancelled: nil
        }
    }

    private static func short(_ text: String) -> String { text.count > 200 ? String(text.prefix(200)) + "…" : text }
}
