import TrailheadSchema

/// A function the model may call on its own, as in Foundation Models: a name, a description
/// that says when to use it, generable `Arguments`, and `call`.
///
///     struct FindPointsOfInterestTool: Tool {
///         let name = "findPointsOfInterest"
///         let description = "Finds points of interest near the landmark."
///         struct Arguments: Generable {
///             var category: Category  // a String-raw CaseIterable enum: the model picks one
///             static let guides = GuideTable(CodingKeys.self, [.category: [.description("The kind of place")]])
///         }
///         func call(arguments: Arguments) async throws -> String { … }
///     }
///
/// The session validates the arguments against `parameters` before calling; what `call` returns
/// (text, `GeneratedContent` or a `Generable` value) goes back to the model and into the
/// transcript; an error it throws becomes a tool error the model reads, not the end of the run.
/// In-process Swift tools and plugin tools (`PluginTool`, from `Plugins/` and `Manifests/`) mix
/// in one session.
public protocol Tool<Arguments, Output>: Sendable {
    associatedtype Arguments: Generable
    associatedtype Output: PromptRepresentable

    /// Unique within a session: `[A-Za-z0-9_.-]{1,64}`.
    var name: String { get }
    /// When to use it, in plain words. Keep example values out: a small model copies them.
    var description: String { get }
    /// The schema of the arguments (default: `Arguments.generationSchema`).
    var parameters: GenerationSchema { get }
    /// The schema of what `call` returns, when known (default: `Output.generationSchema` for a
    /// `Generable` output). Grounding paths are checked against it when a session starts.
    var outputSchema: GenerationSchema? { get }
    /// Whether the instructions carry the arguments' schema besides the name and description
    /// (default false: the step schema constrains the output anyway, and every prompt token is
    /// paid for on every cold turn).
    var includesSchemaInInstructions: Bool { get }
    /// Whether each call waits for the user's approval (`LanguageModelSession.Configuration.approve`);
    /// a call that is not approved is a tool error the model reads. Default false.
    var needsApproval: Bool { get }
    /// Whether a call only reads (looks something up, changes nothing). The session commits a
    /// response's first turn to a call of read-only tools more readily (`ToolDecision`): a call
    /// costs a lookup, an answer without it invents facts. Default false.
    var isReadOnly: Bool { get }

    func call(arguments: Arguments) async throws -> Output
}

// MARK: - Default implementations

extension Tool {
    public var parameters: GenerationSchema { Arguments.generationSchema }
    public var outputSchema: GenerationSchema? { nil }
    public var includesSchemaInInstructions: Bool { false }
    public var needsApproval: Bool { false }
    public var isReadOnly: Bool { false }
}

extension Tool where Output: Generable {
    public var outputSchema: GenerationSchema? { Output.generationSchema }
}
