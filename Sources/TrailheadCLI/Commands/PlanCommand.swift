import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadTools

/// `agent plan LANDMARK`: plans a trip with the enabled tool plugins and a model.
struct PlanCommand: Command {
    static let configuration = CommandConfiguration(
        name: "plan",
        summary: "Plan a trip to a landmark with tools and a model, and print the itinerary.",
        discussion: """
            The model calls the enabled tools (points of interest, calendar, contacts) on its own,
            then answers with an itinerary whose dates are free days from the calendar and whose
            places come from the points-of-interest tool. On a terminal the itinerary streams as it
            is written; progress goes to stderr. The transcript is always written (runs/ by default)
            and its path printed on stderr. Without an available model, prints why and what to do,
            then the landmark's offline description, and exits 3.
            Models: local (default), local:test, http://HOST:PORT/v1#NAME, scripted:FILE; --fallback
            adds a second one used when the first is unavailable or fails.
            """,
        options: [
            .option("days", valueName: "N", help: "Number of days (default 3)."),
            .option("from", valueName: "DATE", help: "First day to consider, YYYY-MM-DD (default tomorrow)."),
            .option("to", valueName: "DATE", help: "Last day to consider, YYYY-MM-DD (default 60 days on)."),
            .option("tools", valueName: "LIST", help: "Tool plugins to enable, comma-separated (default poi,calendar,contacts)."),
            .option("with", valueName: "NAMES", help: "Companions, comma-separated (\"Ana, Ben\")."),
            .option("model", valueName: "MODEL", help: "The model (default local)."),
            .option("fallback", valueName: "MODEL", help: "A model to fall back to."),
            .option("api-key-env", valueName: "VAR", help: "Environment variable holding the API key of an HTTP model."),
            .option("format", valueName: "FORMAT", help: "text, markdown, json, ics or geojson (default text)."),
            .option("transcript", valueName: "FILE", help: "Where to write the transcript (default runs/<time>-<landmark>.jsonl)."),
            .option("trace", valueName: "FILE", help: "Also write a Chrome trace-event file (opens in Perfetto)."),
            .option("max-turns", valueName: "N", help: "Most model turns (default 10)."),
            .option("temperature", valueName: "T", help: "Sampling temperature (default 0.2)."),
            .option("seed", valueName: "N", help: "Sampling seed."),
            .flag("include-schema", help: "Copy the tool schemas into the prompt (off: output is constrained anyway)."),
            .flag("no-stream", help: "Print only the finished itinerary."),
            CommonOptions.plugins, CommonOptions.manifests,
        ],
        positionals: [.required("LANDMARK", help: "Where to go (\"Joshua Tree National Park\").")])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let options = try PlanOptions(arguments, context: context)
        let registry = ToolRegistry(.init(pluginsFolder: options.folders.plugins, manifestsFolder: options.folders.manifests,
                                          home: CommonOptions.home(context: context)))
        defer { registry.shutdown() }
        let tools = try enabledTools(options.toolPlugins, registry: registry)
        let model = try options.makeModel()
        let progress = Progress(context: context)

        let availability = runAsync { await model.availability }
        if case .unavailable(let reason) = availability {
            context.stderr.line("agent: no model available: \(reason)")
            if let fix = reason.fix { context.stderr.line("  to fix: \(fix)") }
            printOfflineDescription(options.request.landmark, registry: registry, context: context)
            return .noModel
        }

        let planner = TripPlanner(
            request: options.request,
            tools: tools.map { .init(name: $0.name, description: $0.manifest.description, arguments: $0.manifest.arguments) },
            includeSchemaInPrompt: options.includeSchema, maximumTurns: options.maximumTurns)
        let transcriptPath = options.transcriptPath(home: CommonOptions.home(context: context))
        let transcript: TranscriptWriter
        do { transcript = try TranscriptWriter(path: transcriptPath) } catch { throw CommandError(error.message) }
        let trace = try options.tracePath.map { path throws(CommandError) in
            do { return try Trace(path: context.absolutePath(path)) } catch { throw CommandError("\(error)") }
        }
        defer { trace?.finish() }
        context.stderr.line(context.styled("transcript: \(transcriptPath)", .dim))
        var recorded = options.request.content
        if case .object(var fields) = recorded {
            fields["plugins"] = .array(options.toolPlugins.map { .string($0) })
            fields["includeSchema"] = .bool(options.includeSchema)
            fields["maxTurns"] = .number(Double(options.maximumTurns))
            recorded = .object(fields)
        }
        transcript.append(.instructions(planner.instructions, tools: tools.map(\.name), outputSchema: planner.outputSchema, request: recorded))

        let streaming = options.stream && context.stdout.isTerminal && options.format == .text
        let view = StreamView(enabled: streaming, output: context.stdout)
        let places = PlaceIndex()
        var loop = AgentLoop(
            model: model, options: options.generation, tools: RegistryToolRunner(registry: registry, places: places),
            transcript: transcript, trace: trace,
            progress: { progress.report($0) },
            onText: { turn, delta in view.append(turn: turn, delta) })
        loop.summarize = TripPlanner.summarize
        let runner = loop

        let outcome = runAsync {
            if let trace {
                try? await trace.measure("prewarm", category: "model", track: "model") {
                    try await model.prewarm(prefix: [.system(planner.instructions)])
                }
            } else {
                try? await model.prewarm(prefix: [.system(planner.instructions)])
            }
            return await runner.run(instructions: planner.instructions, prompt: planner.prompt, machine: planner.makeStateMachine())
        }
        progress.done()
        switch outcome {
        case .finished(let itinerary, let turns):
            if streaming {
                view.finish(itinerary)
            } else {
                context.stdout.write(options.format.render(itinerary, places: places.coordinates))
            }
            context.stderr.line(context.styled("planned in \(turns) turns; transcript: \(transcriptPath)", .dim))
            return .success
        case .failed(let message):
            context.stderr.line("agent: the plan failed: \(message)")
            context.stderr.line("  transcript: \(transcriptPath)")
            return .failure
        case .cancelled:
            context.stderr.line("agent: cancelled; transcript: \(transcriptPath)")
            return ExitCode(130)
        }
    }

    /// The tools of the plugins named by --tools; an unknown or refused plugin is an error.
    static func enabledTools(_ names: [String], registry: ToolRegistry) throws -> [RegisteredTool] {
        var tools: [RegisteredTool] = []
        for name in names {
            guard let record = registry.plugin(named: name) else {
                let known = registry.plugins.compactMap(\.manifest?.plugin).joined(separator: ", ")
                throw CommandError("no tool plugin named '\(name)' (installed: \(known.isEmpty ? "none" : known))", exitCode: .usage)
            }
            guard record.status.isOK else { throw CommandError("plugin '\(name)' is \(record.status)") }
            tools += registry.tools.filter { $0.plugin == name && !$0.manifest.needsApproval && !TripPlanner.unusedTools.contains($0.name) }
        }
        return tools
    }

    /// With no model, the landmark's offline description from the points-of-interest data.
    static func printOfflineDescription(_ landmark: String, registry: ToolRegistry, context: CommandContext) {
        guard registry.tool(named: "describeLandmark") != nil else {
            context.stderr.line("  (enable the poi plugin to see an offline description of \(landmark))")
            return
        }
        switch registry.result(of: "describeLandmark", arguments: ["landmark": .string(landmark)]) {
        case .success(let about):
            let name = about["name"]?.stringValue ?? landmark
            context.stdout.line(context.styled(name, .bold) + (about["country"]?.stringValue.map { " (\($0))" } ?? ""))
            if let description = about["description"]?.stringValue { context.stdout.line(description) }
        case .failure(let error):
            context.stderr.line("  no offline description: \(error)")
        }
    }
}
