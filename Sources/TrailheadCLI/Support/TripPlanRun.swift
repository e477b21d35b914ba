import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadTools
import TripPlanner
import TrailheadSupport

/// One plan, the one path `agent plan` and `agent transcript replay` share: the trip planner's
/// session over the model and the plugins' tools, prewarmed, recording its transcript (and
/// trace), streaming the itinerary.
struct TripPlanRun {
    var planner: TripPlanner
    var model: any LanguageModel
    var tools: [any Tool]
    var options: GenerationOptions
    var transcript: TranscriptWriter
    var trace: Trace?
    /// What the transcript records to replay the plan: the request, the plugins and the settings.
    var recording: PlanRecording
    var onEvent: @Sendable (SessionEvent) -> Void = { _ in }
    /// The itinerary so far, each time the draft has grown (its last member, which may still
    /// grow, left out).
    var onSnapshot: @Sendable (Partial<Itinerary>) -> Void = { _ in }

    enum Outcome: Sendable {
        case finished(Partial<Itinerary>, turns: Int)
        case failed(String)
        /// The request cannot be planned, as the tools found (fewer free days than the trip).
        case unusable(String)
        case cancelled
    }

    /// Plans; when the task is cancelled (Ctrl-C), ends as `.cancelled` with the transcript whole.
    func run() async -> Outcome {
        let session = planner.makeSession(model: model, tools: tools)
        var configuration = session.configuration
        configuration.transcriptFile = transcript
        configuration.trace = trace
        configuration.request = recording.content
        configuration.onEvent = onEvent
        session.configuration = configuration
        let start = trace?.now() ?? 0
        session.prewarm()
        let stream = planner.plan(with: session, options: options)
        do {
            // Snapshots come from the answer turn, after every tool has answered.
            var facts: ToolFacts?
            for try await snapshot in stream {
                if facts == nil { facts = ToolFacts(transcript: session.transcript.entries) }
                let finished = Partial<TripPlanner.Draft>(StreamingItinerary.droppingLastLeaf(snapshot.rawContent))
                onSnapshot(planner.itinerary(from: finished, facts: facts!))
            }
            try Task.checkCancellation()
            let response = try await stream.collect()
            trace?.span("plan", category: "agent", track: "agent", start: start, end: trace?.now() ?? 0)
            let known = ToolFacts(transcript: session.transcript.entries)
            return .finished(planner.itinerary(from: response.content, facts: known), turns: response.turns)
        } catch {
            if case LanguageModelSession.GenerationError.ungrounded(let failure) = error, let problem = planner.requestProblem(failure) {
                return .unusable(problem)
            }
            guard error is CancellationError || Task.isCancelled else { return .failed("\(error)") }
            // Interrupted: stop the generation first, then the workers its calls wait on (in
            // that order the session records a cancellation, not a failed call), and wait
            // until it has recorded it, so the transcript ends with it.
            stream.cancel()
            ChildProcess.interruptAll()
            _ = try? await stream.collect()
            return .cancelled
        }
    }
}

/// What a plan's transcript records to replay it (the instructions entry's `request`): the
/// request's members, then the plugins and the settings.
struct PlanRecording: Codable, Sendable {
    var request: TripRequest
    /// The plugins the plan enabled (older recordings list only their tools).
    var plugins: [String]?
    var includeSchema: Bool
    var maximumTurns: Int
    var options: Options

    struct Options: Codable, Sendable {
        var temperature: Double?
        var seed: Int?
        var maxTokens: Int?
    }

    init(request: TripRequest, plugins: [String], includeSchema: Bool, maximumTurns: Int, options: GenerationOptions) {
        self.request = request
        self.plugins = plugins
        self.includeSchema = includeSchema
        self.maximumTurns = maximumTurns
        self.options = Options(temperature: options.temperature, seed: options.seed, maxTokens: options.maxTokens)
    }

    /// The generation options it was made with.
    var generationOptions: GenerationOptions {
        GenerationOptions(temperature: options.temperature, seed: options.seed, maxTokens: options.maxTokens)
    }

    var content: GeneratedContent { (try? GeneratedContent(encoding: self)) ?? [:] }

    private enum CodingKeys: String, CodingKey { case plugins, includeSchema, maximumTurns = "maxTurns", options }

    init(from decoder: any Decoder) throws {
        request = try TripRequest(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        plugins = try container.decodeIfPresent([String].self, forKey: .plugins)
        includeSchema = try container.decodeIfPresent(Bool.self, forKey: .includeSchema) ?? false
        maximumTurns = try container.decodeIfPresent(Int.self, forKey: .maximumTurns) ?? 10
        options = try container.decodeIfPresent(Options.self, forKey: .options) ?? Options()
    }

    func encode(to encoder: any Encoder) throws {
        try request.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(plugins, forKey: .plugins)
        try container.encode(includeSchema, forKey: .includeSchema)
        try container.encode(maximumTurns, forKey: .maximumTurns)
        try container.encode(options, forKey: .options)
    }
}
