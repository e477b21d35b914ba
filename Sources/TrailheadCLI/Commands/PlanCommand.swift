import Foundation
import PointsOfInterestTypes
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadTools
import TripPlanner

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
            and its path printed on stderr. Never a plan from nothing: when the tools cannot back one (an unknown
            landmark, too few places), it exits 1 with what the tool said; an empty landmark, or a window (or
            its free days, with the calendar on) shorter than the trip, is a usage error (2), before any model
            turn. Without an available model, prints why and what to do,
            then the landmark's offline description, and exits 3.
            Models: local (default), local:test, http://HOST:PORT/v1#NAME, scripted:FILE; --fallback
            adds a second one used when the first is unavailable or fails.
            """,
        cancelsOnInterrupt: true)

    @OptionGroup var options: PlanOptions
    @Argument("LANDMARK", help: "Where to go (\"Joshua Tree National Park\").") var landmark: String

    func run(context: CommandContext) async throws -> ExitCode {
        let request = try options.request(to: landmark)
        let folders = options.pluginFolders.resolved(context)
        let registry = ToolRegistry(.init(pluginsFolder: folders.plugins, manifestsFolder: folders.manifests, home: CommonOptions.home(context: context)))
        defer { registry.shutdown() }
        let toolPlugins = options.tools.names
        let tools: [PluginTool]
        do { tools = try registry.sessionTools(plugins: toolPlugins) } catch { throw CommandError(error.message, exitCode: .usage) }
        let model = try options.models.makeModel()
        let progress = Progress(context: context)

        let availability = await model.availability
        if case .unavailable(let reason) = availability {
            context.stderr.line("agent: no model available: \(reason)")
            if let fix = reason.fix { context.stderr.line("  to fix: \(fix)") }
            Self.printOfflineDescription(request.landmark, registry: registry, context: context)
            return .noModel
        }

        let transcriptPath = options.transcriptPath(for: request, context: context)
        let transcript: TranscriptWriter
        do { transcript = try TranscriptWriter(path: transcriptPath) } catch { throw CommandError(error.message) }
        let trace = try options.trace.map { path throws(CommandError) in
            do { return try Trace(path: context.absolutePath(path)) } catch { throw CommandError("\(error)") }
        }
        defer { trace?.finish() }
        context.stderr.line(context.styled("transcript: \(transcriptPath)", .dim))

        let streaming = !options.noStream && context.stdout.isTerminal && options.format == .text
        let view = StreamView(enabled: streaming, output: context.stdout)
        let places = PlaceIndex()
        let planner = TripPlanner(request: request, includeSchemaInPrompt: options.includeSchema, maximumTurns: options.maxTurns)
        let run = TripPlanRun(
            planner: planner, model: model, tools: tools, options: options.generation, transcript: transcript, trace: trace,
            recording: PlanRecording(request: request, plugins: toolPlugins, includeSchema: options.includeSchema,
                                     maximumTurns: options.maxTurns, options: options.generation),
            onEvent: { event in
                progress.report(event)
                if case .entry(let entry) = event { places.record(entry) }
            },
            onSnapshot: { view.update($0) })
        let outcome = await run.run()
        progress.done()
        switch outcome {
        case .finished(let itinerary, let turns):
            if streaming {
                view.finish(itinerary)
            } else {
                context.stdout.write(options.format.render(itinerary, places: places.coordinates))
            }
            context.stderr.line(context.styled("planned in \(turns) turn\(turns == 1 ? "" : "s"); transcript: \(transcriptPath)", .dim))
            return .success
        case .failed(let message):
            context.stderr.line("agent: the plan failed: \(message)")
            context.stderr.line("  transcript: \(transcriptPath)")
            return .failure
        case .unusable(let message):
            context.stderr.line("agent: \(message)")
            context.stderr.line("  transcript: \(transcriptPath)")
            return .usage
        case .cancelled:
            context.stderr.line("agent: cancelled; transcript: \(transcriptPath)")
            return ExitCode(130)
        }
    }

    /// With no model, the landmark's offline description from the points-of-interest data.
    static func printOfflineDescription(_ landmark: String, registry: ToolRegistry, context: CommandContext) {
        guard registry.tool(named: "describeLandmark") != nil else {
            context.stderr.line("  (enable the poi plugin to see an offline description of \(landmark))")
            return
        }
        switch registry.result(of: "describeLandmark", arguments: ["landmark": .string(landmark)]) {
        case .success(let result):
            let about = ToolResults.decode(LandmarkDescription.self, from: result)
            context.stdout.line(context.styled(about?.name ?? landmark, .bold) + (about?.country.map { " (\($0))" } ?? ""))
            if let description = about?.description { context.stdout.line(description) }
        case .failure(let error):
            context.stderr.line("  no offline description: \(error)")
        }
    }
}
