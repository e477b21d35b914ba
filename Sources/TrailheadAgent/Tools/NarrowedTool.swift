import TrailheadSchema

/// A tool with some arguments decided by the agent instead of the model: `fixed` members are
/// left out of the schema the model sees and added to every call; `hidden` ones are left out
/// and left to the tool's defaults. Fewer choices for a small model and fewer tokens (the model
/// no longer copies the landmark's name into every call), and a tool with nothing left to choose
/// is called once and then left out of the step schema.
///
///     calendar.narrowed(fixing: ["start": "2026-12-01", "end": "2026-12-31"])
public struct NarrowedTool<Base: Tool>: Tool {
    public typealias Arguments = GeneratedContent
    public typealias Output = Base.Output

    public let base: Base
    public let fixed: JSONObject
    public let hidden: Set<String>
    public let parameters: GenerationSchema

    public var name: String { base.name }
    public var description: String { base.description }
    public var outputSchema: GenerationSchema? { base.outputSchema }
    public var includesSchemaInInstructions: Bool { base.includesSchemaInInstructions }
    public var needsApproval: Bool { base.needsApproval }

    /// - Parameters:
    ///   - requiring: members the model must give (optional ones of the tool made required).
    ///   - allowing: the values left to a member's `enum`.
    public init(
        _ base: Base, fixing fixed: JSONObject, hiding hidden: Set<String> = [], requiring required: Set<String> = [],
        allowing allowed: [String: [GeneratedContent]] = [:]
    ) {
        self.base = base
        self.fixed = fixed
        self.hidden = hidden
        let decided = hidden.union(fixed.keys)
        var edit = SchemaEdit(base.parameters.json)
        edit.remove(decided)
        for (name, values) in allowed where !decided.contains(name) { edit.allow(values, at: JSONPath.root.appending(name)) }
        edit.require(required.subtracting(decided).sorted())
        // Narrowing only removes choices: a schema that loaded still loads.
        parameters = (try? edit.schema()) ?? base.parameters
    }

    public func call(arguments: GeneratedContent) async throws -> Base.Output {
        var merged = arguments.objectValue ?? [:]
        for name in hidden { merged[name] = nil }
        for (name, value) in fixed { merged[name] = value }
        return try await base.call(arguments: try Base.Arguments(.object(merged)))
    }
}

extension Tool {
    /// This tool with `fixed` arguments decided by the agent and `hidden` ones left to defaults.
    public func narrowed(
        fixing fixed: JSONObject, hiding hidden: Set<String> = [], requiring required: Set<String> = [],
        allowing allowed: [String: [GeneratedContent]] = [:]
    ) -> NarrowedTool<Self> {
        NarrowedTool(self, fixing: fixed, hiding: hidden, requiring: required, allowing: allowed)
    }
}

/// `tool` narrowed (see `NarrowedTool`), for a tool known only as `any Tool`.
public func narrowed(
    _ tool: some Tool, fixing fixed: JSONObject, hiding hidden: Set<String> = [], requiring required: Set<String> = [],
    allowing allowed: [String: [GeneratedContent]] = [:]
) -> any Tool {
    NarrowedTool(tool, fixing: fixed, hiding: hidden, requiring: required, allowing: allowed)
}
