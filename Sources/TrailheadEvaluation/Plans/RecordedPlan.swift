import TrailheadSchema
import TripPlanner

/// One plan another agent made, as it recorded it (`agent eval --recorded`, one JSON line each),
/// to judge with the same checks as Trailhead's.
public struct RecordedPlan: Decodable {
    public var request: GeneratedContent?
    public var itinerary: Partial<Itinerary>?
    public var wallSeconds: Double?
    public var turns: Int?
    public var tokensOut: Int?
    public var uncachedTokensIn: Int?
    public var serverPromptMs: Double?
    public var serverDecodeMs: Double?
    public var toolOutputs: [ToolOutput]?
    public var error: String?

    public struct ToolOutput: Decodable {
        public var tool: String
        public var result: GeneratedContent?
    }

    /// What the recorded tools returned.
    public var facts: ToolFacts {
        var facts = ToolFacts()
        for output in toolOutputs ?? [] {
            if let result = output.result { facts.add(tool: output.tool, result: result) }
        }
        return facts
    }
}
