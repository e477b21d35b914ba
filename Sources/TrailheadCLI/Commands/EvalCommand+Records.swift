import TrailheadSchema
import TripPlanner

/// The files `agent eval` reads and the report it writes, as Swift types: JSON only where it is
/// read or written.
extension EvalCommand {
    /// One line of a requests file (or a recorded plan's `request`).
    struct RequestLine: Decodable {
        var landmark: String?
        var days: Int?
        var from: String?
        var to: String?
        var tools: Names?
        var companions: Names?

        func request(line: Int, in path: String) throws -> (TripRequest, [String]) {
            guard let landmark, !landmark.isEmpty else { throw CommandError("\(path):\(line): a request needs a \"landmark\"", exitCode: .usage) }
            let request = TripRequest(landmark: landmark, days: days ?? 3, from: from, to: to, companions: companions?.names ?? [])
            if let problem = request.problem { throw CommandError("\(path):\(line): \(problem)", exitCode: .usage) }
            return (request, tools?.names ?? ["poi", "calendar", "contacts"])
        }
    }

    /// Names written as a list, or as one comma-separated string ("poi, calendar").
    struct Names: Decodable {
        var names: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            } else {
                names = try container.decode([String].self)
            }
        }
    }

    /// One plan another agent made, to judge with the same checks (`--recorded`).
    struct RecordedPlan: Decodable {
        var request: GeneratedContent?
        var itinerary: Partial<Itinerary>?
        var wallSeconds: Double?
        var turns: Int?
        var tokensOut: Int?
        var uncachedTokensIn: Int?
        var serverPromptMs: Double?
        var serverDecodeMs: Double?
        var toolOutputs: [ToolOutput]?
        var error: String?

        struct ToolOutput: Decodable {
            var tool: String
            var result: GeneratedContent?
        }

        /// What the recorded tools returned.
        var facts: ToolFacts {
            var facts = ToolFacts()
            for output in toolOutputs ?? [] {
                if let result = output.result { facts.add(tool: output.tool, result: result) }
            }
            return facts
        }
    }

    /// `--json`: every run, then the totals.
    struct Report: Encodable {
        var runs: [RunReport]
        var summary: Summary
    }

    struct RunReport: Encodable {
        var agent: String
        var request: String
        var run: Int
        var tools: [String]
        var succeeded: Bool
        var passed: Bool
        var wallSeconds: Double?
        var floorSeconds: Double
        var turns: Int
        var tokensOut: Int
        var uncachedTokensIn: Int
        var error: String?
        var checks: [PlanEvaluation.Check]?

        init(_ run: Run) {
            agent = run.label
            request = EvalCommand.title(run.request)
            self.run = run.index
            tools = run.tools
            succeeded = run.succeeded
            passed = run.passed
            wallSeconds = run.wallSeconds.isFinite ? run.wallSeconds : nil
            floorSeconds = run.floorSeconds
            turns = run.turns
            tokensOut = run.tokensOut
            uncachedTokensIn = run.uncachedTokensIn
            error = run.error
            checks = run.evaluation?.checks
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(agent, forKey: .agent)
            try container.encode(request, forKey: .request)
            try container.encode(run, forKey: .run)
            try container.encode(tools, forKey: .tools)
            try container.encode(succeeded, forKey: .succeeded)
            try container.encode(passed, forKey: .passed)
            try container.encode(wallSeconds, forKey: .wallSeconds)  // null when not measured
            try container.encode(floorSeconds, forKey: .floorSeconds)
            try container.encode(turns, forKey: .turns)
            try container.encode(tokensOut, forKey: .tokensOut)
            try container.encode(uncachedTokensIn, forKey: .uncachedTokensIn)
            try container.encodeIfPresent(error, forKey: .error)
            try container.encodeIfPresent(checks, forKey: .checks)
        }

        enum CodingKeys: CodingKey {
            case agent, request, run, tools, succeeded, passed, wallSeconds, floorSeconds, turns, tokensOut, uncachedTokensIn, error, checks
        }
    }

    /// The totals of a report; a rate that could not be measured is NaN (null in JSON).
    struct Summary: Encodable {
        var decodeTokensPerSecond: Double
        var medianWallOverFloor: Double
        var medianWallSeconds: Double
        var passed: Int
        var promptTokensPerSecond: Double
        var runs: Int
        var succeeded: Int

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            func measured(_ value: Double) -> Double? { value.isFinite ? value : nil }
            try container.encode(measured(decodeTokensPerSecond), forKey: .decodeTokensPerSecond)
            try container.encode(measured(medianWallOverFloor), forKey: .medianWallOverFloor)
            try container.encode(measured(medianWallSeconds), forKey: .medianWallSeconds)
            try container.encode(passed, forKey: .passed)
            try container.encode(measured(promptTokensPerSecond), forKey: .promptTokensPerSecond)
            try container.encode(runs, forKey: .runs)
            try container.encode(succeeded, forKey: .succeeded)
        }

        enum CodingKeys: CodingKey {
            case decodeTokensPerSecond, medianWallOverFloor, medianWallSeconds, passed, promptTokensPerSecond, runs, succeeded
        }
    }
}
