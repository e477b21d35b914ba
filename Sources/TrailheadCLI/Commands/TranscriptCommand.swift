import Foundation
import TrailheadAgent
import TrailheadSchema

/// `agent transcript show | replay`.
struct TranscriptCommand: Command {
    static let configuration = CommandConfiguration(
        name: "transcript",
        summary: "Read and replay the JSON Lines transcript of a run.",
        subcommands: [TranscriptShowCommand.self, TranscriptReplayCommand.self])
}

/// `agent transcript show FILE [--json]`: a transcript for people, or for programs.
struct TranscriptShowCommand: Command {
    static let configuration = CommandConfiguration(
        name: "show",
        summary: "Render a transcript: prompt, model turns, tool calls and outputs, the response.",
        discussion: "With --json, prints one JSON document {\"entries\": […], \"truncated\": BOOL} instead.")

    @Flag(help: "Print the entries as one JSON document.") var json: Bool
    @Flag(help: "Do not shorten long texts and results.") var full: Bool
    @Argument("FILE", help: "A transcript written by `agent plan` (JSON Lines).") var file: String

    func run(context: CommandContext) async throws -> ExitCode {
        let path = context.absolutePath(file)
        let (entries, truncated): ([Transcript.Entry], Bool)
        do {
            (entries, truncated) = try TranscriptReader.read(path: path)
        } catch {
            throw CommandError(error.description)
        }
        if json {
            let document: GeneratedContent = ["entries": .array(entries.map(\.content)), "truncated": .bool(truncated)]
            context.stdout.line(document.jsonString)
            return .success
        }
        let renderer = TranscriptRenderer(context: context, limit: full ? nil : 160)
        for entry in entries { context.stdout.write(renderer.render(entry)) }
        if truncated { context.stdout.line(context.styled("(the last entry was cut short: the run was interrupted)", .yellow)) }
        return .success
    }
}

/// Turns entries into a few readable lines each.
struct TranscriptRenderer {
    var context: CommandContext
    /// Longest text shown before "…"; nil shows everything.
    var limit: Int?

    func render(_ entry: Transcript.Entry) -> String {
        switch entry {
        case .instructions(let instructions):
            return heading("instructions") + "  tools: \(instructions.tools.joined(separator: ", "))\n" + indent(short(instructions.text))
        case .prompt(let prompt):
            return heading("prompt") + "\n" + indent(prompt.text)
        case .modelTurn(let turn):
            var cost: [String] = [turn.model]
            if let tokensIn = turn.tokensIn, let tokensOut = turn.tokensOut {
                cost.append("\(tokensIn)\(turn.cachedTokensIn.map { " (\($0) cached)" } ?? "") → \(tokensOut) tokens")
            }
            cost.append(Self.duration(turn.latencyMs))
            if turn.finishReason == "length" { cost.append(context.styled("cut at the token limit", .red)) }
            let parsed = turn.parsed == nil ? context.styled(" (not JSON)", .red) : ""
            return heading("turn \(turn.turn)") + context.styled(cost.joined(separator: ", "), .dim) + parsed + "\n" + indent(short(turn.text))
        case .toolCall(let call):
            let origin = call.prefetched == true ? context.styled(" (from the request)", .dim) : ""
            return "  " + context.styled("→ \(call.tool)", .cyan) + " \(short(call.arguments.jsonString))\(origin)\n"
        case .toolOutput(let output):
            let ms = Self.duration(output.latencyMs)
            if let error = output.error {
                return "  " + context.styled("✗ \(output.tool) failed", .red) + " (\(ms)): \(short(error))\n"
            }
            return "  " + context.styled("← \(output.tool)", .green) + " (\(ms)) \(short(output.result?.jsonString ?? "null"))\n"
        case .repair(let repair):
            return "  " + context.styled("↺ repair:", .yellow) + " \(short(repair.message))\n"
        case .response(let response):
            return heading("response") + "\n" + indent(response.content.prettyJSONString)
        case .error(let failure):
            return heading("error") + "\n" + indent(context.styled(failure.message, .red))
        case .cancelled(let cancellation):
            return heading("cancelled") + "\n" + indent("at turn \(cancellation.turn)")
        }
    }

    private func heading(_ title: String) -> String { context.styled(title, .bold) + "  " }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") + "\n"
    }

    private func short(_ text: String) -> String {
        guard let limit, text.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }

    static func duration(_ ms: Double) -> String {
        ms >= 1000 ? String(format: "%.1f s", ms / 1000) : String(format: "%.1f ms", ms)
    }
}
