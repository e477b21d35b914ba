import TrailheadSchema

/// A tool with some arguments decided by the agent instead of the model: `fixed` members become
/// constants in the schema the model sees (and are sent whatever it writes), `hidden` ones are
/// left out (the tool's defaults apply). Fewer choices for a small model, fewer tokens, and a
/// tool whose arguments are all fixed is called once and then left out of the step schema.
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

    public init(_ base: Base, fixing fixed: JSONObject, hiding hidden: Set<String> = []) {
        self.base = base
        self.fixed = fixed
        self.hidden = hidden
        var schema = base.parameters.json.objectValue ?? [:]
        if case .object(var properties)? = schema["properties"] {
            for name in hidden { properties[name] = nil }
            for (name, value) in fixed { properties[name] = ["const": value] }
            schema["properties"] = .object(properties)
        }
        let required = (schema["required"]?.arrayValue ?? []).filter { !hidden.contains($0.stringValue ?? "") }
        schema["required"] = .array(required + fixed.keys.filter { key in !required.contains(.string(key)) }.map { .string($0) })
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
    public func narrowed(fixing fixed: JSONObject, hiding hidden: Set<String> = []) -> NarrowedTool<Self> {
        NarrowedTool(self, fixing: fixed, hiding: hidden)
    }
}

/// `tool` narrowed (see `NarrowedTool`), for a tool known only as `any Tool`.
public func narrowed(_ tool: some Tool, fixing fixed: JSONObject, hiding hidden: Set<String> = []) -> any Tool {
    NarrowedTool(tool, fixing: fixed, hiding: hidden)
}
