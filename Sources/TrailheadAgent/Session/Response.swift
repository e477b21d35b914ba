import TrailheadModels
import TrailheadSchema

extension LanguageModelSession {
    /// The answer to one `respond`: the typed content, the JSON it came from, the transcript
    /// entries the response added, what it cost and which model answered.
    public struct Response<Content> {
        public var content: Content
        public var rawContent: GeneratedContent
        public var transcriptEntries: ArraySlice<Transcript.Entry>
        /// The tokens the response took, over all of its turns (Foundation Models 27's `usage`).
        public var usage: Usage
        /// The id of the model that answered (for a hybrid, the one that actually did).
        public var model: String
        /// Model turns the response took (tool calls, repairs, the answer).
        public var turns: Int
    }
}

extension LanguageModelSession.Response: Sendable where Content: Sendable {}
