/// What a model can do, as Foundation Models 27's `LanguageModelCapabilities`: a session reads it
/// before it calls the model, and a request that needs a capability the model lacks fails with
/// `LanguageModelError.unsupportedCapability` instead of reaching the model.
///
///     if model.capabilities.contains(.guidedGeneration) {
///         let plan = try await session.respond(to: "…", generating: Itinerary.self)
///     }
///
/// Trailhead calls tools through a schema of its own (each turn is one JSON step: call a tool, or
/// answer), so a backend that declares `.toolCalling` also follows a schema. The context a model
/// holds is not a capability but a number: `LanguageModel.contextSize`.
public struct LanguageModelCapabilities: Sendable, Hashable, CustomStringConvertible {
    /// One thing a model may or may not do.
    public struct Capability: Sendable, Hashable, CustomStringConvertible {
        /// The name errors and descriptions use.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// Calls tools to gather information or act (in Trailhead: follows the session's step schema).
        public static let toolCalling = Capability("tool calling")
        /// Generates output that conforms to a schema (a GBNF grammar, `response_format`, vLLM's
        /// `structured_outputs`).
        public static let guidedGeneration = Capability("guided generation")
        /// Reasons in tokens of its own before the response (a server that reports
        /// `completion_tokens_details.reasoning_tokens`).
        public static let reasoning = Capability("reasoning")

        public var description: String { name }
    }

    private var members: Set<Capability>

    /// A model that can do each of `capabilities`.
    public init(_ capabilities: [Capability]) { members = Set(capabilities) }

    public func contains(_ capability: Capability) -> Bool { members.contains(capability) }

    /// What either can do: a hybrid or a fleet serves each request with a member that can.
    public func union(_ other: LanguageModelCapabilities) -> LanguageModelCapabilities {
        var union = self
        union.members.formUnion(other.members)
        return union
    }

    /// What every Trailhead backend can do: call tools and follow a schema.
    public static let toolCallingAndGuidedGeneration = LanguageModelCapabilities([.toolCalling, .guidedGeneration])

    public var description: String {
        members.isEmpty ? "none" : members.map(\.name).sorted().joined(separator: ", ")
    }
}

extension ModelRequest {
    /// What a model must be able to do to serve this request: follow its schema, when it has one.
    public var requiredCapabilities: [LanguageModelCapabilities.Capability] {
        schema == nil ? [] : [.guidedGeneration]
    }
}

extension LanguageModel {
    /// Whether this model can do everything `request` needs.
    public func canServe(_ request: ModelRequest) -> Bool {
        request.requiredCapabilities.allSatisfy(capabilities.contains)
    }
}
