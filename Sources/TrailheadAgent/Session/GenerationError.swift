import TrailheadModels

extension LanguageModelSession {
    /// Why a response failed. (A failure Foundation Models 27 names for any model — a context too
    /// small, a rate limit, a timeout, a refusal, a capability the model lacks — is thrown as the
    /// `LanguageModelError` it is.)
    public enum GenerationError: Error, Sendable, CustomStringConvertible {
        /// `respond` was called while another response of the session was under way.
        case concurrentRequests
        /// The session's `transcript` was set while this response was under way (Foundation Models
        /// 27's `LanguageModelSession.Error.transcriptMutationWhileResponding`): the response ends
        /// with this error, and the transcript is the one set.
        case transcriptMutationWhileResponding
        /// The session cannot run as configured (a tool name used twice, a grounding path no
        /// schema has, a prefetched call of a tool the session does not have).
        case setup(SessionSetupError)
        /// The model failed (unavailable, unreachable, crashed), after the backend's own retries,
        /// in a way Foundation Models has no `LanguageModelError` for.
        case modelFailed(any Error)
        /// The loop gave up: repairs exhausted, or the answer never matched its schema.
        case failed(String)
        /// A grounded field's tool failed or found too few values, and no other call could help:
        /// there is no answer the tools back (rather than one the model made up).
        case ungrounded(GroundingFailure)
        /// The answer matched the schema but could not be decoded into the Swift type.
        case decodingFailure(String)

        public var description: String {
            switch self {
            case .concurrentRequests: "the session is already responding: wait for the response before asking again"
            case .transcriptMutationWhileResponding:
                "the session's transcript was set while it was responding: the response was abandoned, and the transcript is the one set"
            case .setup(let error): "the session cannot start: \(error)"
            case .modelFailed(let error): "the model failed: \(error)"
            case .failed(let message): message
            case .ungrounded(let failure): "no answer: \(failure)"
            case .decodingFailure(let message): "the answer could not be decoded: \(message)"
            }
        }
    }
}
