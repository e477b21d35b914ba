/// Whether the model may, must or must not call tools in a response, as Foundation Models 27's
/// `GenerationOptions.ToolCallingMode` (`.allowed`, `.required`, `.disallowed`), plus one named
/// tool (OpenAI's `tool_choice` by name). A session enforces it in each turn's step schema, so a
/// small model cannot slip past it: `.required` offers no answer until a tool has answered in
/// this response, `.disallowed` offers only the answer, and `.named` makes that tool the only
/// branch of the first turn.
public struct ToolCallingMode: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case allowed, required, disallowed
        /// This tool, on the first turn; then as `.allowed`.
        case named(String)
    }

    /// The tool-calling behaviour this mode represents.
    public var kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    /// The model decides (the default).
    public static let allowed = ToolCallingMode(.allowed)
    /// The model must call one or more tools before it answers.
    public static let required = ToolCallingMode(.required)
    /// The model answers from what it knows, calling no tool.
    public static let disallowed = ToolCallingMode(.disallowed)
    /// The model's first turn calls `tool`.
    public static func named(_ tool: String) -> ToolCallingMode { ToolCallingMode(.named(tool)) }

    /// `allowed`, `required`, `none` (OpenAI's word; `disallowed` too) or a tool's name.
    public init(parsing text: String) {
        switch text {
        case "allowed", "auto": self = .allowed
        case "required": self = .required
        case "none", "disallowed": self = .disallowed
        default: self = .named(text)
        }
    }

    public var description: String {
        switch kind {
        case .allowed: "allowed"
        case .required: "required"
        case .disallowed: "disallowed"
        case .named(let tool): tool
        }
    }
}
