/// The report `agent eval --json` writes: every run, then the totals.
public struct PlanReport: Encodable {
    var runs: [RunReport]
    var summary: Summary

    public init(_ runs: [PlanRun]) {
        self.runs = runs.map(RunReport.init)
        self.summary = Summary(runs)
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

        init(_ run: PlanRun) {
            agent = run.label
            request = PlanRun.title(run.request)
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
    public struct Summary: Encodable {
        public var decodeTokensPerSecond: Double
        public var medianWallOverFloor: Double
        public var medianWallSeconds: Double
        public var passed: Int
        public var promptTokensPerSecond: Double
        public var runs: Int
        public var succeeded: Int

        public init(_ runs: [PlanRun]) {
            let decodeTokens = runs.reduce(0) { $0 + $1.tokensOut }, decodeMs = runs.reduce(0.0) { $0 + $1.decodeMs }
            let promptTokens = runs.reduce(0) { $0 + $1.uncachedTokensIn }, promptMs = runs.reduce(0.0) { $0 + $1.promptMs }
            let walls = runs.map(\.wallSeconds).sorted()
            let ratios = runs.filter { $0.floorSeconds > 0 }.map { $0.wallSeconds / $0.floorSeconds }.sorted()
            decodeTokensPerSecond = decodeMs > 0 ? Double(decodeTokens) / decodeMs * 1000 : .nan
            medianWallOverFloor = ratios.isEmpty ? .nan : ratios[ratios.count / 2]
            medianWallSeconds = walls.isEmpty ? .nan : walls[walls.count / 2]
            passed = runs.filter(\.passed).count
            promptTokensPerSecond = promptMs > 0 ? Double(promptTokens) / promptMs * 1000 : .nan
            self.runs = runs.count
            succeeded = runs.filter(\.succeeded).count
        }

        public func encode(to encoder: any Encoder) throws {
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
