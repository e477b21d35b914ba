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
        var schema = base.parameters.json.objectValue ?? [:]
        if case .object(var properties)? = schema["properties"] {
            for name in hidden.union(fixed.keys) { properties[name] = nil }
            for (name, values) in allowed {
                guard case .object(var property)? = properties[name] else { continue }
                property["enum"] = .array(values)
                properties[name] = .object(property)
            }
            schema["properties"] = .object(properties)
        }
        let decided = hidden.union(fixed.keys)
        var requiredNames = (schema["required"]?.arrayValue ?? []).compactMap(\.stringValue).filter { !decided.contains($0) }
        for name in required.sorted() where !requiredNames.contains(name) && !decided.contains(name) { requiredNames.append(name) }
        schema["required"] = .array(requiredNames.map { .string($0) })
        // Narrowing only removes choices: a schema that loaded still loads.
        parameters = (try? GenerationSchema(json: .object(schema))) ?? base.parameters
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
