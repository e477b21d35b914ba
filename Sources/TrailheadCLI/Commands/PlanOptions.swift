import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TripPlanner

/// `agent plan`'s options: a bad value is a usage error naming the option, before anything runs.
struct PlanOptions: ParsableArguments {
    @Option(valueName: "N", in: TripRequest.dayRange, help: "Number of days (default 3).") var days = 3
    @Option(valueName: "DATE", help: "First day to consider, YYYY-MM-DD (default tomorrow).") var from: CalendarDay?
    @Option(valueName: "DATE", help: "Last day to consider, YYYY-MM-DD (default 60 days on).") var to: CalendarDay?
    @Option(valueName: "LIST", help: "Tool plugins (or single tools) to enable, comma-separated (default \(TripPlanner.plugins.joined(separator: ","))).")
    var tools = NameList(TripPlanner.plugins)
    @Option(name: "with", valueName: "NAMES", help: "Companions, comma-separated (\"Ana, Ben\").") var companions: NameList = []
    @OptionGroup var models: ModelOptions
    @Option(valueName: "FORMAT", help: "text, markdown, json, ics or geojson (default text).") var format = ItineraryFormat.text
    @Option(valueName: "FILE", help: "Where to write the transcript (default runs/<time>-<landmark>.jsonl).") var transcript: String?
    @Option(valueName: "FILE", help: "Also write a Chrome trace-event file (opens in Perfetto).") var trace: String?
    @Option(valueName: "N", in: 1...50, help: "Most model turns (default 10).") var maxTurns = 10
    @Option(valueName: "T", in: 0.0...2.0, help: "Sampling temperature (default 0.2).") var temperature = 0.2
    @Option(valueName: "N", help: "Sampling seed.") var seed: Int?
    @Flag(help: "Copy the tool schemas into the prompt (off: output is constrained anyway).") var includeSchema: Bool
    @Flag(help: "Print only the finished itinerary.") var noStream: Bool
    @OptionGroup var pluginFolders: PluginFolderOptions

    /// The trip to `landmark`, checked before any tool or model is asked: a plan from an empty
    /// landmark or a window too short for the trip could only be made up.
    func request(to landmark: String) throws(UsageError) -> TripRequest {
        let request = TripRequest(landmark: landmark, days: days, from: from?.text, to: to?.text, companions: companions.names)
        if let problem = request.problem { throw UsageError(problem) }
        return request
    }

    /// No token limit: the session sets each turn's from its schema's longest answer.
    var generation: GenerationOptions { GenerationOptions(temperature: temperature, seed: seed) }

    /// The transcript's path: as given, or a new file in the runs folder.
    func transcriptPath(for request: TripRequest, context: CommandContext) -> String {
        transcript.map(context.absolutePath) ?? CommonOptions.newTranscriptPath(home: CommonOptions.home(context: context), naming: request.landmark)
    }
}

/// A calendar day written YYYY-MM-DD (`--from 2026-12-01`).
struct CalendarDay: ArgumentValue {
    var text: String

    init?(argument word: String) {
        guard word.count == 10, ItineraryFormat.parseDay(word) != nil else { return nil }
        text = word
    }

    static var expectation: String { "a date YYYY-MM-DD" }
    var argumentText: String { text }
}

extension ItineraryFormat: ArgumentValue {}
