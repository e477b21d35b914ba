import TrailheadSchema

/// Why a tool call produced no result. Every case reads as one line a model (or a person) can
/// act on; none of them takes the host down.
public enum ToolCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No loaded plugin provides a tool of this name.
    case unknownTool(String)
    /// The tool's plugin was refused at load time, or is quarantined after repeated crashes.
    case unavailable(tool: String, plugin: String, reason: String)
    /// The arguments do not match the tool's schema; the call was not made.
    case invalidArguments(tool: String, violations: [SchemaViolation])
    /// The tool ran and reported an error.
    case failed(tool: String, message: String)
    /// The tool returned something unusable: not JSON, too large, or not matching its `output` schema.
    case invalidResult(tool: String, message: String)
    /// The plugin's worker died (a signal or an exit) or broke the protocol; it restarts on the next call.
    case crashed(tool: String, plugin: String, detail: String)
    /// The call ran past the manifest's `timeoutMs`; the worker was killed.
    case timedOut(tool: String, plugin: String, timeoutMs: Int)
    /// The caller cancelled the call (`ToolCallCancellation`); a worker running it was stopped.
    case cancelled(tool: String)

    public var description: String {
        switch self {
        case .unknownTool(let name):
            "unknown tool '\(name)'"
        case .unavailable(let tool, let plugin, let reason):
            "tool '\(tool)' is unavailable: plugin '\(plugin)' \(reason)"
        case .invalidArguments(let tool, let violations):
            "invalid arguments for '\(tool)': " + violations.map(\.description).joined(separator: "; ")
        case .failed(let tool, let message):
            "tool '\(tool)' failed: \(message)"
        case .invalidResult(let tool, let message):
            "tool '\(tool)' returned an invalid result: \(message)"
        case .crashed(let tool, let plugin, let detail):
            "tool '\(tool)' crashed (plugin '\(plugin)'): \(detail)"
        case .timedOut(let tool, let plugin, let timeoutMs):
            "tool '\(tool)' timed out after \(timeoutMs) ms (plugin '\(plugin)'); its worker was stopped"
        case .cancelled(let tool):
            "the call of tool '\(tool)' was cancelled"
        }
    }

    /// The error as the JSON document a transcript or a model sees.
    public var content: GeneratedContent {
        var entry: JSONObject = ["error": .string(description)]
        if case .invalidArguments(_, let violations) = self {
            entry["violations"] = .array(violations.map {
                ["instancePointer": .string($0.instancePointer), "schemaPointer": .string($0.schemaPointer), "message": .string($0.message)]
            })
        }
        return .object(entry)
    }
}
