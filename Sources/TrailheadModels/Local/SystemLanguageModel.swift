/// The default model of a session, as in Foundation Models: the runtime's managed local model
/// (Qwen2.5-Coder-1.5B served by a llama-server the runtime starts, reuses and stops).
///
///     switch await SystemLanguageModel.default.availability {
///     case .available: …
///     case .unavailable(let reason): print(reason, reason.fix ?? "")
///     }
public typealias SystemLanguageModel = LocalModel

extension LocalModel {
    /// The managed local model with the default configuration (`$TRAILHEAD_CACHE` for its files).
    public static let `default` = LocalModel()
}

extension LanguageModel {
    /// Whether a request could be served now (see `availability` for why not).
    public var isAvailable: Bool {
        get async { await availability.isAvailable }
    }
}
