/// What a session is doing, as it happens: for progress lines and live views. (The transcript
/// records what happened; events also say what is starting, and carry text as it streams.)
public enum SessionEvent: Sendable, Equatable {
    /// Prefetched tool calls started before the first turn.
    case prefetching(tools: [String])
    /// The model was asked for turn `turn`; `finalOnly` when only the answer is allowed.
    case turnStarted(turn: Int, finalOnly: Bool)
    /// Text of turn `turn` as it streams.
    case text(turn: Int, String)
    /// What the response has taken so far, each time the model reports its usage (a streamed
    /// response's snapshots carry the latest).
    case usage(LanguageModelSession.Usage)
    /// The model's calls of turn `turn` started.
    case toolsStarted(turn: Int, tools: [String])
    /// An entry was added to the transcript.
    case entry(Transcript.Entry)
}
