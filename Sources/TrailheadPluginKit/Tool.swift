import TrailheadSchema

/// One tool of a Swift plugin, in the shape of a session's `Tool`: a name, a description the model
/// reads, typed `Arguments` and `Output` whose schemas are derived from their declarations (with a
/// `GuideTable` for what `@Guide` says), and `call`:
///
///     struct DescribeLandmark: Tool {
///         let name = "describeLandmark"
///         let description = "Describe a place by name."
///         struct Arguments: Generable {
///             var landmark: String
///             static let guides = GuideTable(CodingKeys.self, [.landmark: [.description("The name of the place."), .maximumLength(200)]])
///         }
///         struct Output: Generable { var name: String; var country: String? }
///         func call(arguments: Arguments) throws -> Output { … }
///     }
///
/// The manifest the plugin embeds carries those schemas; the host validates arguments against
/// them before `call`, so a tool may rely on their shape, and checks the output on success. Calls
/// into one plugin never overlap (see trailhead_tool.h), but may come from different threads.
/// Across the C ABI only JSON travels: the kit decodes the arguments and encodes the output.
public protocol Tool: Sendable {
    associatedtype Arguments: Generable
    associatedtype Output: Generable

    /// `[A-Za-z0-9_.-]{1,64}`, unique across all loaded plugins.
    var name: String { get }
    /// When to use the tool, in plain words, for the model.
    var description: String { get }
    /// The argument schema, an object schema (default: `Arguments.generationSchema`).
    var parameters: GenerationSchema { get }
    /// The result schema, checked by the host on success (default: `Output.generationSchema`;
    /// nil, unchecked, for an output of any JSON).
    var outputSchema: GenerationSchema? { get }
    var annotations: ToolAnnotations { get }
    /// True for tools that change the world and need the user's approval.
    var needsApproval: Bool { get }

    /// Runs the tool. Throw `ToolFailure` for an error the model should read.
    func call(arguments: Arguments) throws -> Output
}

// MARK: - Default implementations

extension Tool {
    public var parameters: GenerationSchema { Arguments.generationSchema }
    public var outputSchema: GenerationSchema? {
        let schema = Output.generationSchema
        return schema.json == [:] ? nil : schema  // GeneratedContent: any value, nothing to check
    }
    public var annotations: ToolAnnotations { ToolAnnotations() }
    public var needsApproval: Bool { false }

    /// One call with JSON in and out, as the C entry point makes it.
    func call(json arguments: GeneratedContent) throws -> GeneratedContent {
        let typed: Arguments
        do { typed = try arguments.decode(as: Arguments.self) } catch {
            throw ToolFailure("the arguments of \(name) do not fit its schema: \(error)")
        }
        return try call(arguments: typed).generatedContent()
    }
}

/// Hints about a tool's behaviour, in the Model Context Protocol's terms.
public struct ToolAnnotations: Sendable, Hashable {
    public var readOnly: Bool
    public var destructive: Bool
    public var idempotent: Bool
    public var openWorld: Bool

    public init(readOnly: Bool = true, destructive: Bool = false, idempotent: Bool = true, openWorld: Bool = false) {
        self.readOnly = readOnly
        self.destructive = destructive
        self.idempotent = idempotent
        self.openWorld = openWorld
    }

    public var content: GeneratedContent {
        ["readOnly": .bool(readOnly), "destructive": .bool(destructive),
         "idempotent": .bool(idempotent), "openWorld": .bool(openWorld)]
    }
}

/// A tool error with a message the model can act on ("unknown landmark 'Yosemitee'; did you mean …").
public struct ToolFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
