/// What a session does with its transcript when a response fails (Foundation Models 27's
/// `TranscriptErrorHandlingPolicy`, set on `LanguageModelSession.transcriptErrorHandlingPolicy`).
///
/// Either way the model's history is what complete responses said: a failed response's turns are
/// never read back to the model. The policy decides what `session.transcript` shows. A transcript
/// file or session store (`Configuration.transcriptFile`, `recorder`) is a log of what happened
/// and keeps every entry.
public struct TranscriptErrorHandlingPolicy: Sendable, Hashable, CustomStringConvertible {
    private let reverts: Bool

    private init(reverts: Bool) { self.reverts = reverts }

    /// The transcript goes back to what it was just before the failed request: its prompt, turns,
    /// tool calls and error are gone (the calls' effects, if they had any, are not undone).
    public static let revertTranscript = TranscriptErrorHandlingPolicy(reverts: true)
    /// The transcript keeps everything the failed request added, up to its `error` or `cancelled`
    /// entry: what was tried and why it failed. A session with no policy does this.
    public static let preserveTranscript = TranscriptErrorHandlingPolicy(reverts: false)

    var revertsTranscript: Bool { reverts }

    public var description: String { reverts ? "revertTranscript" : "preserveTranscript" }
}
