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
    var recording: GeneratedContent
    var onEvent: @Sendable (SessionEvent) -> Void = { _ in }
    var onSnapshot: @Sendable (GeneratedContent) -> Void = { _ in }

    enum Outcome: Sendable {
        case finished(GeneratedContent, turns: Int)
        case failed(String)
        case cancelled
    }

    func run() -> Outcome {
        let session = planner.makeSession(model: model, tools: tools)
        var configuration = session.configuration
        configuration.transcriptFile = transcript
        configuration.trace = trace
        configuration.request = recording
        configuration.onEvent = onEvent
        session.configuration = configuration
        let planner = planner, options = options, trace = trace, onSnapshot = onSnapshot
        return runAsync {
            let start = trace?.now() ?? 0
            session.prewarm()
            let stream = planner.plan(with: session, options: options)
            do {
                // Snapshots come from the answer turn, after every tool has answered.
                var facts: PlanEvaluation.ToolFacts?
                for try await snapshot in stream {
                    if facts == nil { facts = PlanEvaluation.ToolFacts(transcript: session.transcript.entries) }
                    onSnapshot(planner.itinerary(from: snapshot.rawContent, facts: facts!))
                }
                try Task.checkCancellation()
                let response = try await stream.collect()
                trace?.span("plan", category: "agent", track: "agent", start: start, end: trace?.now() ?? 0)
                return .finished(planner.itinerary(from: response.rawContent, transcript: session.transcript.entries), turns: response.turns)
            } catch {
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

    /// `recording` for a request made with these settings.
    static func recording(request: TripRequest, plugins: [String], includeSchema: Bool, maximumTurns: Int, options: GenerationOptions) -> GeneratedContent {
        var fields = request.content.objectValue ?? [:]
        fields["plugins"] = .array(plugins.map { .string($0) })
        fields["includeSchema"] = .bool(includeSchema)
        fields["maxTurns"] = .number(Double(maximumTurns))
        var recorded = JSONObject()
        if let t = options.temperature { recorded["temperature"] = .number(t) }
        if let s = options.seed { recorded["seed"] = .number(Double(s)) }
        if let m = options.maxTokens { recorded["maxTokens"] = .number(Double(m)) }
        fields["options"] = .object(recorded)
        return .object(fields)
    }

    /// The generation options a recording was made with.
    static func options(recordedIn recording: GeneratedContent) -> GenerationOptions {
        let recorded = recording["options"]
        return GenerationOptions(
            temperature: recorded?["temperature"]?.doubleValue, seed: recorded?["seed"]?.intValue, maxTokens: recorded?["maxTokens"]?.intValue)
    }
}
