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
        discussion: "With --json, prints one JSON document {\"entries\": […], \"truncated\": BOOL} instead.",
        options: [
            .flag("json", help: "Print the entries as one JSON document."),
            .flag("full", help: "Do not shorten long texts and results."),
        ],
        positionals: [.required("FILE", help: "A transcript written by `agent plan` (JSON Lines).")])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let path = context.absolutePath(arguments.positional("FILE")!)
        let (entries, truncated): ([TranscriptEntry], Bool)
        do {
            (entries, truncated) = try TranscriptReader.read(path: path)
        } catch {
            throw CommandError(error.message)
        }
        if arguments.flag("json") {
            let document: GeneratedContent = ["entries": .array(entries.map(\.content)), "truncated": .bool(truncated)]
            context.stdout.line(document.jsonString)
            return .success
        }
        let renderer = TranscriptRenderer(context: context, limit: arguments.flag("full") ? nil : 160)
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

    func render(_ entry: TranscriptEntry) -> String {
        switch entry.kind {
        case .instructions:
            let tools = entry["tools"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ", ") ?? ""
            return heading("instructions") + "  tools: \(tools)\n" + indent(short(entry["text"]?.stringValue ?? ""))
        case .prompt:
            return heading("prompt") + "\n" + indent(entry["text"]?.stringValue ?? "")
        case .modelTurn:
            var cost: [String] = [entry["model"]?.stringValue ?? "model"]
            if let tokensIn = entry["tokensIn"]?.intValue, let tokensOut = entry["tokensOut"]?.intValue {
                cost.append("\(tokensIn) → \(tokensOut) tokens")
            }
            if let ms = entry["latencyMs"]?.doubleValue { cost.append(Self.duration(ms)) }
            let parsed = entry["parsed"] == nil ? context.styled(" (not JSON)", .red) : ""
            return heading("turn \(entry["turn"]?.intValue ?? 0)") + context.styled(cost.joined(separator: ", "), .dim) + parsed + "\n"
                + indent(short(entry["text"]?.stringValue ?? ""))
        case .toolCall:
            let mark = entry["valid"]?.boolValue == false ? context.styled("invalid: ", .red) + (entry["violations"]?.arrayValue?.compactMap(\.stringValue).joined(separator: "; ") ?? "") : ""
            return "  " + context.styled("→ \(entry["tool"]?.stringValue ?? "?")", .cyan) + " \(short(entry["arguments"]?.jsonString ?? "{}")) \(mark)\n"
        case .toolOutput:
            let ms = entry["latencyMs"]?.doubleValue.map(Self.duration) ?? ""
            if let error = entry["error"]?.stringValue {
                return "  " + context.styled("✗ \(entry["tool"]?.stringValue ?? "?") failed", .red) + " (\(ms)): \(short(error))\n"
            }
            return "  " + context.styled("← \(entry["tool"]?.stringValue ?? "?")", .green) + " (\(ms)) \(short(entry["result"]?.jsonString ?? "null"))\n"
        case .repair:
            return "  " + context.styled("↺ repair:", .yellow) + " \(short(entry["message"]?.stringValue ?? ""))\n"
        case .response:
            return heading("response") + "\n" + indent(entry["content"]?.prettyJSONString ?? "")
        case .error:
            return heading("error") + "\n" + indent(context.styled(entry["message"]?.stringValue ?? "", .red))
        case .cancelled:
            return heading("cancelled") + "\n" + indent("at turn \(entry["turn"]?.intValue ?? 0)")
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
