import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TripPlanner

/// `agent plan`'s options, checked: a bad value is a usage error naming the option.
struct PlanOptions {
    var request: TripRequest
    var toolPlugins: [String]
    var modelSpec: String
    var apiKeyEnvironmentVariable: String?
    var format: ItineraryFormat
    var transcript: String?
    var tracePath: String?
    var maximumTurns: Int
    var generation: GenerationOptions
    var includeSchema: Bool
    var stream: Bool
    var folders: PluginFolders

    init(_ arguments: ParsedArguments, context: CommandContext) throws {
        let days = try Self.integer(arguments, "days", default: 3, in: 1...14)
        let from = try Self.date(arguments, "from")
        let to = try Self.date(arguments, "to")
        if let from, let to, from > to { throw UsageError("--from \(from) is after --to \(to)") }
        let companions = (arguments.value(of: "with") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        request = TripRequest(landmark: arguments.positional("LANDMARK")!, days: days, from: from, to: to, companions: companions)
        // Before any tool or model is asked: a plan from an empty landmark or a window too short
        // for the trip could only be made up.
        if let problem = request.problem { throw UsageError(problem) }
        toolPlugins = (arguments.value(of: "tools") ?? "poi,calendar,contacts").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        modelSpec = arguments.value(of: "model") ?? "local"
        if let fallback = arguments.value(of: "fallback") { modelSpec += "," + fallback }
        apiKeyEnvironmentVariable = arguments.value(of: "api-key-env")
        let formatName = arguments.value(of: "format") ?? "text"
        guard let format = ItineraryFormat(rawValue: formatName) else {
            throw UsageError("--format must be one of \(ItineraryFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(formatName)'")
        }
        self.format = format
        transcript = arguments.value(of: "transcript").map(context.absolutePath)
        tracePath = arguments.value(of: "trace")
        maximumTurns = try Self.integer(arguments, "max-turns", default: 10, in: 1...50)
        let temperature = try arguments.value(of: "temperature").map { text in
            guard let value = Double(text), (0...2).contains(value) else { throw UsageError("--temperature must be a number from 0 to 2, not '\(text)'") }
            return value
        } ?? 0.2
        let seed = try arguments.value(of: "seed").map { text in
            guard let value = Int(text) else { throw UsageError("--seed must be an integer, not '\(text)'") }
            return value
        }
        // No token limit: the session sets each turn's from its schema's longest answer.
        generation = GenerationOptions(temperature: temperature, seed: seed)
        includeSchema = arguments.flag("include-schema")
        stream = !arguments.flag("no-stream")
        folders = CommonOptions.folders(arguments, context: context)
    }

    func makeModel() throws -> any LanguageModel {
        do {
            return try ModelSpecifier.model(modelSpec, apiKeyEnvironmentVariable: apiKeyEnvironmentVariable)
        } catch {
            throw CommandError("\(error)", exitCode: .usage)
        }
    }

    /// The transcript's path: as given, or a new file in the runs folder.
    func transcriptPath(home: String) -> String {
        transcript ?? CommonOptions.newTranscriptPath(home: home, naming: request.landmark)
    }

    private static func integer(_ arguments: ParsedArguments, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = arguments.value(of: name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("--\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    private static func date(_ arguments: ParsedArguments, _ name: String) throws -> String? {
        guard let text = arguments.value(of: name) else { return nil }
        guard ItineraryFormat.parseDay(text) != nil, text.count == 10 else {
            throw UsageError("--\(name) must be a date YYYY-MM-DD, not '\(text)'")
        }
        return text
    }
}
