import TripPlanner

/// One plan `agent eval` judged, Trailhead's own or one a peer recorded: how it went (delivered or
/// not, wall time, turns, tokens, the server's own model time) and the checks' verdict.
public struct PlanRun {
    public var request: TripRequest
    public var tools: [String]
    /// Who made the plan (`--label`).
    public var label: String
    /// Which run of its request (1 for the first).
    public var index: Int
    public var succeeded: Bool
    public var error: String?
    public var wallSeconds: Double
    public var turns = 0
    public var tokensOut = 0
    public var uncachedTokensIn = 0
    public var promptMs = 0.0
    public var decodeMs = 0.0
    public var evaluation: PlanEvaluation?

    public init(request: TripRequest, tools: [String], label: String, index: Int, succeeded: Bool, wallSeconds: Double) {
        self.request = request
        self.tools = tools
        self.label = label
        self.index = index
        self.succeeded = succeeded
        self.wallSeconds = wallSeconds
    }

    /// The model time alone (the server's prompt and decode time), so seconds can be compared across machines.
    public var floorSeconds: Double { (promptMs + decodeMs) / 1000 }
    public var passed: Bool { succeeded && evaluation?.passed == true }

    /// How the report names a request: "Kyoto, 2 d with Ana".
    public static func title(_ request: TripRequest) -> String {
        "\(request.landmark), \(request.days) d" + (request.companions.isEmpty ? "" : " with \(request.companions.joined(separator: ", "))")
    }
}
