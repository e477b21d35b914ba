import TrailheadModels

extension LanguageModel {
    /// The tokens the instructions take as the system message (Foundation Models 27's
    /// `tokenCount(for:)`; the tools' descriptions a session adds are counted by counting its
    /// transcript).
    public func tokenCount(for instructions: Instructions) async throws -> Int {
        try await tokenCount(for: [.system(instructions.text)])
    }

    /// The tokens a prompt takes as one user message.
    public func tokenCount(for prompt: Prompt) async throws -> Int {
        try await tokenCount(for: [.user(prompt.text)])
    }

    /// The tokens of what a session continuing `transcript` shows the model before its next
    /// prompt: the instructions, then its complete responses (tool results whole).
    public func tokenCount(for transcript: Transcript) async throws -> Int {
        try await tokenCount(for: LanguageModelSession.conversation(of: transcript.entries, summarize: { $1 }).map(\.message))
    }
}
