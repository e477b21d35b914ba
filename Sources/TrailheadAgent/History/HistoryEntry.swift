import TrailheadModels
import TrailheadSchema

/// One message the model reads, with what it came from: what a `HistoryTransform` shapes.
///
/// The session keeps these beside its transcript: the transcript records everything, these are
/// the words the model was shown (the prompt with its schema and prefetched results, tool
/// results as the loop rendered them), so a transform can leave a message out or rewrite it
/// without the transcript losing anything.
public struct HistoryEntry: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// The system message: instructions and tools.
        case instructions
        /// A prompt (with its schema and prefetched results, when the response had them).
        case prompt
        /// A turn of the model; `final` when it gave the response's answer.
        case modelTurn(final: Bool)
        /// The results of one turn's calls.
        case toolOutputs([ToolOutput])
        /// What the loop told the model about an answer it could not use.
        case repair
    }

    /// One call and what it gave, whole (the message may hold a summary).
    public struct ToolOutput: Sendable, Equatable {
        public var tool: String
        public var arguments: GeneratedContent
        public var result: GeneratedContent?
        public var error: String?

        public init(tool: String, arguments: GeneratedContent, result: GeneratedContent?, error: String?) {
            self.tool = tool
            self.arguments = arguments
            self.result = result
            self.error = error
        }
    }

    public var message: ChatMessage
    public var source: Source
    /// The response of the session it belongs to, from 1 (0: the instructions).
    public var response: Int

    public init(message: ChatMessage, source: Source, response: Int) {
        self.message = message
        self.source = source
        self.response = response
    }
}

extension HistoryEntry {
    init(_ outcomes: [AgentStateMachine.ToolOutcome], response: Int, summarize: (String, GeneratedContent) -> GeneratedContent) {
        self.init(
            message: .user(AgentLoop.feedback(outcomes, summarize: summarize)),
            source: .toolOutputs(outcomes.map { .init(tool: $0.call.tool, arguments: $0.call.arguments, result: $0.result, error: $0.error) }),
            response: response)
    }

    /// The outcomes behind a `.toolOutputs` entry, in the loop's terms.
    var outcomes: [AgentStateMachine.ToolOutcome]? {
        guard case .toolOutputs(let outputs) = source else { return nil }
        return outputs.map { .init(call: ToolCallRequest(tool: $0.tool, arguments: $0.arguments), result: $0.result, error: $0.error) }
    }
}
