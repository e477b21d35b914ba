import Foundation
import TrailheadModels

/// The spans of a session's response, named and described as OpenTelemetry's GenAI semantic
/// conventions say: `invoke_agent {agent}` for the response, `chat {model}` for a model turn (a
/// client span: the model is another service), `execute_tool {tool}` for a call.
extension Telemetry {
    /// The `invoke_agent` span of one response; its name is `gen_ai.agent.name` when the
    /// telemetry's attributes give one.
    func startResponse(model: String, tools: [String]) -> OpenSpan {
        let agent: String
        if case .string(let name)? = attributes["gen_ai.agent.name"] { agent = name } else { agent = "agent" }
        var all: [String: SpanAttribute] = [
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": .string(agent), "gen_ai.request.model": .string(model),
            "gen_ai.provider.name": .string(Self.provider(model)),
        ]
        if !tools.isEmpty { all["trailhead.tools"] = .strings(tools) }
        for (name, value) in attributes { all[name] = value }
        return start("invoke_agent \(agent)", attributes: all)
    }

    /// A model turn, from the backend's own timing of it.
    func recordTurn(_ reply: ModelResponse) {
        let end = Date()
        var attributes: [String: SpanAttribute] = [
            "gen_ai.operation.name": "chat", "gen_ai.request.model": .string(reply.modelID), "gen_ai.response.model": .string(reply.modelID),
            "gen_ai.provider.name": .string(Self.provider(reply.modelID)),
        ]
        if let usage = reply.usage {
            attributes["gen_ai.usage.input_tokens"] = .int(usage.promptTokens)
            attributes["gen_ai.usage.output_tokens"] = .int(usage.completionTokens)
            if let cached = usage.cachedPromptTokens { attributes["gen_ai.usage.cache_read.input_tokens"] = .int(cached) }
        }
        if let reason = reply.finishReason { attributes["gen_ai.response.finish_reasons"] = .strings([reason]) }
        record("chat \(reply.modelID)", kind: .client, from: end.addingTimeInterval(-reply.timings.total), to: end, attributes: attributes)
    }

    /// A question the loop asked the model's probabilities (`ToolDecision`: a call's share before a
    /// turn, or another link's at a chain's end): a one-token completion, with the share it gave or
    /// why it gave none.
    func recordDecision(_ decision: String, model: String, from start: Date, share: Double?, error: String?) {
        var attributes: [String: SpanAttribute] = [
            "gen_ai.operation.name": "text_completion", "gen_ai.request.model": .string(model),
            "gen_ai.provider.name": .string(Self.provider(model)), "trailhead.decision": .string(decision),
        ]
        if let share { attributes["trailhead.decision.share"] = .double(share) }
        record("text_completion \(model)", kind: .client, from: start, to: Date(), attributes: attributes, error: error)
    }

    /// A tool call; a failed call's span has the error as its status.
    func recordToolCall(_ tool: String, id: String, from start: Date, to end: Date, error: String?) {
        var attributes: [String: SpanAttribute] = [
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": .string(tool), "gen_ai.tool.call.id": .string(id), "gen_ai.tool.type": "function",
        ]
        if error != nil { attributes["error.type"] = "tool_error" }
        record("execute_tool \(tool)", from: start, to: end, attributes: attributes, error: error)
    }

    /// `gen_ai.provider.name` for a model id: the local default is llama.cpp's server, an
    /// OpenAI-compatible endpoint speaks OpenAI's API.
    static func provider(_ model: String) -> String {
        if model.hasPrefix("local:") { return "llama.cpp" }
        if model.hasPrefix("scripted") { return "trailhead.scripted" }
        return "openai"
    }
}

extension OpenSpan {
    /// Ends a response's span with what the run cost and how it ended.
    func finish(_ run: AgentLoop.Run) {
        set("gen_ai.usage.input_tokens", .int(run.usage.inputTokens))
        set("gen_ai.usage.output_tokens", .int(run.usage.outputTokens))
        if let model = run.modelID { set("gen_ai.response.model", .string(model)) }
        switch run.outcome {
        case .finished(_, let turns):
            set("trailhead.turns", .int(turns))
            end()
        case .failed(let message):
            set("error.type", "response_failed")
            end(error: message)
        case .cancelled:
            set("error.type", "cancelled")
            end(error: "cancelled")
        }
    }
}
