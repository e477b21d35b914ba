import TrailheadSchema

/// One tool of a Swift plugin: an ordinary type with a name, a description the model reads,
/// an argument schema, and a call.
///
/// The host validates arguments against `arguments` before `call`, so a tool may rely on
/// their shape. Calls into one plugin never overlap (see trailhead_tool.h), but may come from
/// different threads.
public protocol PluginTool: Sendable {
    /// `[A-Za-z0-9_.-]{1,64}`, unique across all loaded plugins.
    var name: String { get }
    /// When to use the tool, in plain words, for the model.
    var description: String { get }
    /// The argument schema (an object schema in Trailhead's subset).
    var arguments: GeneratedContent { get }
    /// The result schema, checked by the host on success; `nil` when unchecked.
    var output: GeneratedContent? { get }
    var annotations: ToolAnnotations { get }
    /// True for tools that change the world and need the user's approval.
    var needsApproval: Bool { get }

    /// Runs the tool. Throw `ToolFailure` for an error the model should read.
    func call(_ arguments: GeneratedContent) throws -> GeneratedContent
}

// MARK: - Default implementations

extension PluginTool {
    public var output: GeneratedContent? { nil }
    public var annotations: ToolAnnotations { ToolAnnotations() }
    public var needsApproval: Bool { false }
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
