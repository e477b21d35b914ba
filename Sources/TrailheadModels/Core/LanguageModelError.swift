import Foundation

/// A failure any model may have, with Foundation Models 27's names and shapes
/// (`LanguageModelError`): code that catches these on Apple's framework catches them here. Every
/// backend maps its own failures to them — an HTTP 429 is `rateLimited` with the date its
/// `Retry-After` gives, a request that outlives its timeout is `timeout` — and a session throws
/// them as they are (not inside `GenerationError.modelFailed`). Failures Foundation Models has no
/// case for (a refused connection, a server's 500, garbage on the wire) stay `ModelError`s.
///
/// Each case's `metadata` names the model (`"model"`) and what else the backend knew.
public enum LanguageModelError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The conversation takes the whole context or more: raised before the request is sent.
    case contextSizeExceeded(ContextSizeExceeded)
    /// The server is rate limiting requests; `resetDate` says when trying again may succeed.
    case rateLimited(RateLimited)
    /// No answer came within the request's time.
    case timeout(Timeout)
    /// The model declined to answer (a server's `refusal`, or a `content_filter` finish).
    case refusal(Refusal)
    /// The request needs a capability the model does not declare (`LanguageModel.capabilities`):
    /// a session throws it without calling the model.
    case unsupportedCapability(UnsupportedCapability)

    /// Information about a conversation too long for the model's context.
    public struct ContextSizeExceeded: Sendable {
        /// The model's context, in tokens.
        public var contextSize: Int
        /// The tokens the conversation takes.
        public var tokenCount: Int
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(contextSize: Int, tokenCount: Int, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.contextSize = contextSize
            self.tokenCount = tokenCount
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// Information about a rate limit.
    public struct RateLimited: Sendable {
        /// When trying again is likely to succeed, if the server said (`Retry-After`).
        public var resetDate: Date?
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(resetDate: Date?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.resetDate = resetDate
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// Information about a timeout.
    public struct Timeout: Sendable {
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// Information about a refusal. (Foundation Models' `explanation` is a response it asks the
    /// model for; here it is the text the server gave with the refusal.)
    public struct Refusal: Sendable {
        /// Why the model refused, in its own words when the server sent them.
        public var explanation: String
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(explanation: String, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.explanation = explanation
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// Information about a capability the model does not have.
    public struct UnsupportedCapability: Sendable {
        public var capability: LanguageModelCapabilities.Capability
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(capability: LanguageModelCapabilities.Capability, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.capability = capability
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    public var debugDescription: String {
        switch self {
        case .contextSizeExceeded(let info): info.debugDescription
        case .rateLimited(let info): info.debugDescription
        case .timeout(let info): info.debugDescription
        case .refusal(let info): info.debugDescription
        case .unsupportedCapability(let info): info.debugDescription
        }
    }

    public var description: String { debugDescription }
}

// MARK: - The runtime's own failures in these terms

extension LanguageModelError {
    /// `model`'s prompt of `tokenCount` tokens does not fit its context of `contextSize`.
    static func contextSizeExceeded(model: String, tokenCount: Int, contextSize: Int) -> LanguageModelError {
        .contextSizeExceeded(
            ContextSizeExceeded(
                contextSize: contextSize, tokenCount: tokenCount,
                debugDescription:
                    "the prompt takes \(tokenCount) tokens and the model's context holds \(contextSize): shorten it, or shape the history the model reads (LanguageModelSession.Configuration.historyTransform)",
                metadata: ["model": model]))
    }

    /// Nothing came from `model` for `seconds`.
    static func timeout(model: String, seconds: Double) -> LanguageModelError {
        .timeout(Timeout(debugDescription: "\(model): no answer within \(seconds) s", metadata: ["model": model, "seconds": seconds]))
    }

    /// `model`'s server answered 429 (`body` is its message); `resetDate` from its `Retry-After`.
    static func rateLimited(model: String, resetDate: Date?, body: String) -> LanguageModelError {
        let until = resetDate.map { " until \($0.formatted(.iso8601))" } ?? ""
        let message = body.isEmpty ? "" : ": \(body.prefix(300))"
        return .rateLimited(
            RateLimited(
                resetDate: resetDate, debugDescription: "\(model): rate limited\(until) (HTTP 429)\(message)",
                metadata: ["model": model, "status": 429, "body": String(body.prefix(4096))]))
    }

    /// `model` declined; `explanation` is what it said, if anything.
    static func refusal(model: String, explanation: String) -> LanguageModelError {
        .refusal(
            Refusal(
                explanation: explanation, debugDescription: "\(model) refused to answer\(explanation.isEmpty ? "" : ": \(explanation.prefix(300))")",
                metadata: ["model": model]))
    }

    /// `model`, whose capabilities are `capabilities`, lacks `capability`, which `need` (a few words:
    /// "a session with tools") needs.
    public static func unsupportedCapability(
        _ capability: LanguageModelCapabilities.Capability, model: String, capabilities: LanguageModelCapabilities, need: String
    ) -> LanguageModelError {
        .unsupportedCapability(
            UnsupportedCapability(
                capability: capability,
                debugDescription:
                    "\(need) needs \(capability), which \(model) does not support (its capabilities: \(capabilities)); the model was not called",
                metadata: ["model": model]))
    }
}
