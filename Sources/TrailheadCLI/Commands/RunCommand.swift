import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadSupport
import TrailheadTools

/// `agent run PROMPT`: any agent from the shell — a default session with the named plugin and
/// MCP tools, answering in text or in JSON under a schema file.
struct RunCommand: Command {
    static let configuration = CommandConfiguration(
        name: "run",
        summary: "Answer a prompt with a session over plugin and MCP tools; text, or JSON under a schema.",
        discussion: """
            The model calls the enabled tools on its own (several at once when the prompt asks for several \
            things), then answers: in text, streamed as it is written on a terminal, or, with --schema, in JSON \
            that matches the schema file. Progress goes to stderr; the transcript is always written (runs/ by \
            default) and its path printed on stderr. --tool-calling required makes the model call a tool before \
            it answers, none forbids calls, and a tool's name makes that tool the first turn's call. \
            --ground FIELD=TOOL:VALUES (with --schema; repeatable) makes the values a tool returned the only ones a \
            field of the answer may take, each at most once in a list ("/viewpoints/*=findPointsOfInterest:/results/*/name"): \
            no answer is offered until the tool has returned enough of them, and if it never does the run fails \
            saying what the tool said, instead of the model inventing them.
            """,
        cancelsOnInterrupt: true)

    /// What `--format` prints.
    enum AnswerFormat: String, CaseIterable, ArgumentValue {
        case text, json
    }

    @Option(valueName: "LIST", help: "Tool plugins (or single tools) to enable, comma-separated (default none).") var tools: NameList = []
    @Option(valueName: "FILE", help: "A JSON Schema file the answer must match (default: a text answer).") var schema: String?
    @Option(valueName: "FIELD=TOOL:VALUES", help: "Answer field whose values come only from a tool's results (JSON pointers, * for every item).")
    var ground: [String] = []
    @Option(valueName: "MODE", help: "allowed (default), required, none, or a tool's name.") var toolCalling: String?
    @Option(valueName: "TEXT", help: "What the agent is for, before the tools (default none).") var instructions: String?
    @OptionGroup var models: ModelOptions
    @Option(valueName: "FORMAT", help: "text (default) or json (the answer with its turns, tokens and transcript).") var format = AnswerFormat.text
    @Option(valueName: "FILE", help: "Where to write the transcript (default runs/<time>-run.jsonl).") var transcript: String?
    @Option(valueName: "FILE", help: "Also write a Chrome trace-event file (opens in Perfetto).") var trace: String?
    @Option(valueName: "N", in: 1...50, help: "Most model turns (default 10).") var maxTurns: Int?
    @Option(valueName: "T", in: 0.0...2.0, help: "Sampling temperature (default: the model's).") var temperature: Double?
    @Flag(help: "Print only the finished answer.") var noStream: Bool
    @OptionGroup var pluginFolders: PluginFolderOptions
    @Argument("PROMPT", help: "What to ask.") var prompt: String

    func run(context: CommandContext) async throws -> ExitCode {
        let prompt = prompt, format = format
        let schema = try self.schema.map { try SchemaCheckCommand.loadSchema($0, context: context) }
        let mode = toolCalling.map(ToolCallingMode.init(parsing:))
        let rules = try ground.map { try Self.groundingRule($0, answer: schema) }
        let plugins = tools.names

        let folders = pluginFolders.resolved(context)
        let home = CommonOptions.home(context: context)
        let registry = ToolRegistry(.init(pluginsFolder: folders.plugins, manifestsFolder: folders.manifests, home: home))
        defer { registry.shutdown() }
        let tools: [PluginTool]
        do { tools = plugins.isEmpty ? [] : try registry.sessionTools(plugins: plugins) } catch { throw CommandError(error.message, exitCode: .usage) }
        if case .named(let name) = mode?.kind, !tools.contains(where: { $0.name == name }) {
            throw UsageError("--tool-calling names \(name), which is not one of the enabled tools (\(tools.map(\.name).joined(separator: ", ")))")
        }
        let model = try models.makeModel()
        if case .unavailable(let reason) = await model.availability {
            context.stderr.line("agent: no model available: \(reason)")
            if let fix = reason.fix { context.stderr.line("  to fix: \(fix)") }
            return .noModel
        }

        let transcriptPath = transcript.map(context.absolutePath) ?? CommonOptions.newTranscriptPath(home: home, naming: "run")
        let transcript: TranscriptWriter
        do { transcript = try TranscriptWriter(path: transcriptPath) } catch { throw CommandError(error.message) }
        let trace = try self.trace.map { path throws(CommandError) in
            do { return try Trace(path: context.absolutePath(path)) } catch { throw CommandError("\(error)") }
        }
        defer { trace?.finish() }
        context.stderr.line(context.styled("transcript: \(transcriptPath)", .dim))

        let session = LanguageModelSession(
            model: model, tools: tools, instructions: instructions.map { Instructions($0) }, grounding: Grounding(rules))
        let progress = Progress(context: context)
        var configuration = session.configuration
        configuration.transcriptFile = transcript
        configuration.trace = trace
        configuration.onEvent = { progress.report($0) }
        if let maxTurns { configuration.limits.maximumTurns = maxTurns }
        configuration.request = ["prompt": .string(prompt), "tools": .array(plugins.map { .string($0) })]
        session.configuration = configuration
        let options = GenerationOptions(temperature: temperature, toolCallingMode: mode)
        let streaming = !noStream && context.stdout.isTerminal && format == .text && schema == nil

        let outcome: Result<Answer, any Error> = await {
            session.prewarm()
            do {
                if let schema {
                    let response = try await session.respond(to: Prompt(prompt), schema: schema, includeSchemaInPrompt: true, options: options)
                    return .success(Answer(content: response.content, turns: response.turns, usage: response.usage, model: response.model))
                }
                let stream = session.streamResponse(to: Prompt(prompt), options: options)
                var shown = 0
                for try await snapshot in stream where streaming {
                    let text = snapshot.content
                    if text.count > shown { context.stdout.write(String(text.dropFirst(shown))) }
                    shown = max(shown, text.count)
                }
                let response = try await stream.collect()
                if streaming {
                    if response.content.count > shown { context.stdout.write(String(response.content.dropFirst(shown))) }
                    context.stdout.line("")
                }
                return .success(Answer(content: .string(response.content), turns: response.turns, usage: response.usage, model: response.model, streamed: streaming))
            } catch {
                return .failure(error)
            }
        }()
        progress.done()
        switch outcome {
        case .success(let answer):
            if format == .json {
                context.stdout.line(GeneratedContent.object([
                    "answer": answer.content, "turns": .number(Double(answer.turns)), "model": .string(answer.model),
                    "tokensIn": .number(Double(answer.usage.inputTokens)), "tokensOut": .number(Double(answer.usage.outputTokens)),
                    "transcript": .string(transcriptPath),
                ]).jsonString)
            } else if !answer.streamed {
                context.stdout.line(answer.content.stringValue ?? answer.content.jsonString)
            }
            context.stderr.line(context.styled("answered in \(answer.turns) turn\(answer.turns == 1 ? "" : "s"); transcript: \(transcriptPath)", .dim))
            return .success
        case .failure(let error):
            if error is CancellationError {
                context.stderr.line("agent: cancelled; transcript: \(transcriptPath)")
                return ExitCode(130)
            }
            context.stderr.line("agent: the run failed: \(error)")
            context.stderr.line("  transcript: \(transcriptPath)")
            return .failure
        }
    }

    /// A `--ground FIELD=TOOL:VALUES` rule. A list field ("/viewpoints/*") takes each value at
    /// most once and needs as many as the schema's `minItems` of that list; another field needs one.
    static func groundingRule(_ text: String, answer: GenerationSchema?) throws -> Grounding.Rule {
        guard let answer else { throw UsageError("--ground needs --schema: it grounds fields of a JSON answer") }
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let source = parts.count == 2 ? parts[1].split(separator: ":", maxSplits: 1).map(String.init) : []
        guard parts.count == 2, source.count == 2, parts[0].hasPrefix("/"), source[1].hasPrefix("/"), !source[0].isEmpty else {
            throw UsageError("--ground must be FIELD=TOOL:VALUES with JSON pointers (/viewpoints/*=findPointsOfInterest:/results/*/name), not '\(text)'")
        }
        let (field, tool, values) = (parts[0], source[0], source[1])
        guard field.hasSuffix("/*") else { return .field(field, from: tool, at: values, atLeast: 1) }
        let lists = JSONPath(String(field.dropLast(2)))?.schemas(in: answer.json) ?? []
        let fewest = lists.compactMap { $0["minItems"]?.intValue }.max() ?? 1
        return .field(field, from: tool, at: values, atLeast: max(1, fewest), distinct: true)
    }

    struct Answer: Sendable {
        var content: GeneratedContent
        var turns: Int
        var usage: TrailheadAgent.Usage
        var model: String
        var streamed = false
    }
}
