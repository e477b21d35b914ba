/// Two models, one preferred: requests go to the preferred one, and to the other when the
/// preferred one cannot serve them. A failure after output has been streamed is not retried
/// elsewhere (the consumer has already seen text), it is reported. Every final record names the
/// model that actually answered.
///
/// Firebase AI Logic's inference modes: prefer local is `HybridModel(primary: local, secondary:
/// remote)` (fall back on any failure), prefer remote is `HybridModel(primary: remote, secondary:
/// local)` (fall back only when the remote cannot serve now — offline, refused, timed out, rate
/// limited, or the conversation is too long for it — and throw on other failures, such as an HTTP
/// error), only local / only remote are the model alone.
public struct HybridModel: LanguageModel {
    public enum Preference: Sendable {
        case primary, secondary
    }

    /// When the preferred model's failure sends the request to the other one.
    public enum Fallback: Sendable {
        /// Unavailable, or failed in any way before producing output.
        case onAnyFailure
        /// Unavailable or unreachable only; other failures are thrown.
        case whenUnreachable
    }

    public let primary: any LanguageModel
    public let secondary: any LanguageModel
    public let prefer: Preference
    /// Options for each backend that override the request's (e.g. a smaller `maxTokens` for a
    /// paid remote model); `nil` members leave the request's value.
    public let primaryOptions: GenerationOptions
    public let secondaryOptions: GenerationOptions
    public let fallback: Fallback

    /// - Parameter fallback: default: any failure of a local preferred model, only
    ///   unreachability of a remote one (Firebase's "prefer on-device" and "prefer cloud").
    public init(
        primary: any LanguageModel, secondary: any LanguageModel, prefer: Preference = .primary,
        primaryOptions: GenerationOptions = .init(), secondaryOptions: GenerationOptions = .init(), fallback: Fallback? = nil
    ) {
        self.primary = primary
        self.secondary = secondary
        self.prefer = prefer
        let preferred = prefer == .primary ? primary : secondary
        self.fallback = fallback ?? (preferred is LocalModel || preferred is ScriptedModel ? .onAnyFailure : .whenUnreachable)
        self.primaryOptions = primaryOptions
        self.secondaryOptions = secondaryOptions
    }

    /// `request` with `options` (a backend's own) taking precedence.
    private static func request(_ request: ModelRequest, with options: GenerationOptions) -> ModelRequest {
        var adjusted = request
        adjusted.options = options.over(request.options)
        return adjusted
    }

    public var id: String { "hybrid(\(ordered.0.id), \(ordered.1.id))" }

    private var ordered: (any LanguageModel, any LanguageModel) {
        prefer == .primary ? (primary, secondary) : (secondary, primary)
    }

    public var availability: ModelAvailability {
        get async {
            let first = await ordered.0.availability
            if first.isAvailable { return first }
            let second = await ordered.1.availability
            return second.isAvailable ? second : first
        }
    }

    public func prewarm(prefix: [ChatMessage]) async throws {
        for model in [ordered.0, ordered.1] where await model.availability.isAvailable {
            try await model.prewarm(prefix: prefix)
            return
        }
    }

    public func countTokens(_ text: String) async throws -> Int? {
        for model in [ordered.0, ordered.1] where await model.availability.isAvailable {
            return try await model.countTokens(text)
        }
        return nil
    }

    /// The larger of the two: a request too long for the preferred model falls back to the
    /// other (its `contextSizeExceeded` is a failure before any output), so only one too long
    /// for both fails.
    public var contextSize: Int? {
        get async {
            let sizes = [await primary.contextSize, await secondary.contextSize]
            return sizes.contains(nil) ? nil : sizes.compactMap { $0 }.max()
        }
    }

    public func tokenCount(for messages: [ChatMessage]) async throws -> Int {
        for model in [ordered.0, ordered.1] where await model.availability.isAvailable {
            return try await model.tokenCount(for: messages)
        }
        return TokenEstimate(messages).tokens
    }

    /// The preferred model's, when it is available (the one that would answer).
    public func nextTokenProbabilities(for messages: [ChatMessage], continuing prefix: String, count: Int) async throws -> [TokenProbability]? {
        let (first, _) = ordered
        guard await first.availability.isAvailable else { return nil }
        return try await first.nextTokenProbabilities(for: messages, continuing: prefix, count: count)
    }

    /// What either can do: a request goes to the preferred model when it can serve it, to the
    /// other when only that one can (a schema for a model declared without guided generation).
    public var capabilities: LanguageModelCapabilities { primary.capabilities.union(secondary.capabilities) }

    public func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let (first, second) = ordered
        let (firstOptions, secondOptions) = prefer == .primary ? (primaryOptions, secondaryOptions) : (secondaryOptions, primaryOptions)
        let firstRequest = Self.request(request, with: firstOptions)
        let secondRequest = Self.request(request, with: secondOptions)
        let unsupported = request.requiredCapabilities.first { !capabilities.contains($0) }.map {
            LanguageModelError.unsupportedCapability($0, model: id, capabilities: capabilities, need: "a request with a schema")
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                if let unsupported { return continuation.finish(throwing: unsupported) }
                var firstError: (any Error)?
                if first.canServe(firstRequest), await first.availability.isAvailable {
                    var produced = false
                    do {
                        for try await event in first.generate(firstRequest) {
                            if case .text = event { produced = true }
                            continuation.yield(event)
                        }
                        continuation.finish()
                        return
                    } catch is CancellationError {
                        continuation.finish(throwing: CancellationError())
                        return
                    } catch {
                        if produced || !fallbackAllowed(after: error) || !second.canServe(secondRequest) {
                            continuation.finish(throwing: error)
                            return
                        }
                        firstError = error
                    }
                } else if first.canServe(firstRequest) {
                    firstError = ModelError.unavailable(model: first.id, reason: Self.reason(await first.availability))
                }
                do {
                    for try await event in second.generate(secondRequest) { continuation.yield(event) }
                    continuation.finish()
                } catch {
                    guard let firstError else { return continuation.finish(throwing: error) }
                    continuation.finish(throwing: HybridError(first: String(describing: firstError), second: error))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Whether `error` of the preferred model sends the request to the other one.
    func fallbackAllowed(after error: any Error) -> Bool {
        guard fallback == .whenUnreachable else { return true }
        switch error {
        case LanguageModelError.timeout, LanguageModelError.contextSizeExceeded, LanguageModelError.rateLimited: return true
        case ModelError.connection, ModelError.unavailable: return true
        default: return false
        }
    }

    private static func reason(_ availability: ModelAvailability) -> UnavailableReason {
        if case .unavailable(let reason) = availability { return reason }
        return .unsupported(detail: "unknown")
    }
}

/// Both models of a hybrid failed; names both causes.
public struct HybridError: Error, CustomStringConvertible {
    public var first: String
    public var second: any Error

    public var description: String { "both models failed: \(first); then \(second)" }
}

extension LanguageModel where Self == HybridModel {
    /// Firebase's spelling: `LanguageModelSession(model: .hybridModel(primary: local, secondary: remote))`.
    public static func hybridModel(primary: any LanguageModel, secondary: any LanguageModel) -> HybridModel {
        HybridModel(primary: primary, secondary: secondary)
    }
}
