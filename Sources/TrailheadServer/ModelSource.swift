import TrailheadAgent
import TrailheadModels

/// Where a served session's model comes from. Every session shares one model (the managed
/// local server's slots, a fleet of endpoints) except a scripted one, which each conversation
/// replays on its own from the turn its transcript has reached, on whichever replica continues it.
public struct ModelSource: Sendable {
    private let make: @Sendable (Transcript) -> any LanguageModel
    public let description: String

    public init(description: String, _ make: @escaping @Sendable (Transcript) -> any LanguageModel) {
        self.description = description
        self.make = make
    }

    /// One model for every session.
    public static func shared(_ model: any LanguageModel) -> ModelSource {
        ModelSource(description: model.id) { _ in model }
    }

    /// A script each conversation replays from its own position.
    public static func scripted(_ script: ScriptedModel) -> ModelSource {
        ModelSource(description: script.id) { transcript in
            script.skipping(transcript.entries.filter { if case .modelTurn = $0 { true } else { false } }.count)
        }
    }

    /// The model for a session that continues `transcript` (empty for a new one).
    public func model(continuing transcript: Transcript) -> any LanguageModel { make(transcript) }
}
