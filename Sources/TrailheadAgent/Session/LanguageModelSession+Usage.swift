import TrailheadModels
import TrailheadSchema

extension LanguageModelSession {
    /// Tokens a response took, over all of its turns, as the model's server counted them: Foundation
    /// Models 27's `LanguageModelSession.Usage`, on a `Response`, on each `ResponseStream.Snapshot`
    /// (what the response has taken so far) and on the session (every response so far, failed ones
    /// too: their tokens were spent). A backend that cannot count (a scripted replay without
    /// recorded counts) adds nothing.
    public struct Usage: Sendable, Equatable, Codable {
        /// Tokens the model read.
        public struct Input: Sendable, Equatable, Codable {
            public var totalTokenCount: Int
            /// Of `totalTokenCount`, those served from the server's prompt cache (not read again).
            public var cachedTokenCount: Int

            public init(totalTokenCount: Int, cachedTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.cachedTokenCount = cachedTokenCount
            }
        }

        /// Tokens the model wrote.
        public struct Output: Sendable, Equatable, Codable {
            public var totalTokenCount: Int
            /// Of `totalTokenCount`, those it spent reasoning (a model with `.reasoning`).
            public var reasoningTokenCount: Int

            public init(totalTokenCount: Int, reasoningTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.reasoningTokenCount = reasoningTokenCount
            }
        }

        public var input: Input
        public var output: Output
        /// What the backend said about the generations besides counting tokens (the model that
        /// served them, llama.cpp's `timings`, a request id): the latest value of each key.
        public var metadata: [String: GeneratedContent]

        /// Input and output together.
        public var totalTokenCount: Int { input.totalTokenCount + output.totalTokenCount }

        public init(input: Input, output: Output, metadata: [String: GeneratedContent] = [:]) {
            self.input = input
            self.output = output
            self.metadata = metadata
        }

        /// Trailhead's shorthand: `Usage()` is nothing spent.
        public init(inputTokens: Int = 0, cachedInputTokens: Int = 0, outputTokens: Int = 0) {
            self.init(
                input: Input(totalTokenCount: inputTokens, cachedTokenCount: cachedInputTokens),
                output: Output(totalTokenCount: outputTokens, reasoningTokenCount: 0))
        }

        /// `input.totalTokenCount`, under the name Trailhead used before Foundation Models 27 had one.
        public var inputTokens: Int {
            get { input.totalTokenCount }
            set { input.totalTokenCount = newValue }
        }

        /// `input.cachedTokenCount`, under Trailhead's earlier name.
        public var cachedInputTokens: Int {
            get { input.cachedTokenCount }
            set { input.cachedTokenCount = newValue }
        }

        /// `output.totalTokenCount`, under Trailhead's earlier name.
        public var outputTokens: Int {
            get { output.totalTokenCount }
            set { output.totalTokenCount = newValue }
        }

        /// Adds one generation's tokens, and its metadata over what was there.
        mutating func add(_ usage: TokenUsage?, metadata: [String: GeneratedContent] = [:]) {
            self.metadata.merge(metadata) { $1 }
            guard let usage else { return }
            input.totalTokenCount += usage.promptTokens
            input.cachedTokenCount += usage.cachedPromptTokens ?? 0
            output.totalTokenCount += usage.completionTokens
            output.reasoningTokenCount += usage.reasoningTokens ?? 0
        }

        /// Both together: counts added, `other`'s metadata over this one's.
        func adding(_ other: Usage) -> Usage {
            var sum = self
            sum.input.totalTokenCount += other.input.totalTokenCount
            sum.input.cachedTokenCount += other.input.cachedTokenCount
            sum.output.totalTokenCount += other.output.totalTokenCount
            sum.output.reasoningTokenCount += other.output.reasoningTokenCount
            sum.metadata.merge(other.metadata) { $1 }
            return sum
        }
    }
}

/// `LanguageModelSession.Usage`, by the name Trailhead gave it before Foundation Models 27 nested it.
public typealias Usage = LanguageModelSession.Usage
