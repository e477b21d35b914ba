import TrailheadSchema

/// JSON-RPC 2.0 messages in the Model Context Protocol's shape, one per line.
enum JSONRPC {
    /// The MCP revision the worker speaks when the client names none.
    static let protocolVersion = "2025-06-18"
    /// Revisions whose `initialize`/`tools/*` subset the worker implements.
    static let supportedVersions: Set<String> = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]

    /// The client's revision when the worker speaks it, else the worker's own (MCP's negotiation rule).
    static func negotiatedVersion(_ requested: String?) -> String {
        if let requested, supportedVersions.contains(requested) { return requested }
        return protocolVersion
    }
    /// The `_meta` key under which the worker tells its Trailhead client what kind of tool error it was.
    static let errorKindKey = "trailhead/errorKind"

    static let parseError = -32700
    static let invalidRequest = -32600
    static let methodNotFound = -32601
    static let invalidParams = -32602
    /// The plugin could not be loaded (`initialize` and `tools/*` answer with this).
    static let pluginUnavailable = -32001

    static func request(id: Int, method: String, params: GeneratedContent) -> GeneratedContent {
        ["jsonrpc": "2.0", "id": .number(Double(id)), "method": .string(method), "params": params]
    }

    static func notification(method: String) -> GeneratedContent {
        ["jsonrpc": "2.0", "method": .string(method)]
    }

    static func result(id: GeneratedContent, _ result: GeneratedContent) -> GeneratedContent {
        ["jsonrpc": "2.0", "id": id, "result": result]
    }

    static func error(id: GeneratedContent, code: Int, message: String) -> GeneratedContent {
        ["jsonrpc": "2.0", "id": id, "error": ["code": .number(Double(code)), "message": .string(message)]]
    }

    /// A `tools/call` result: the value as text (for any MCP client) and as structured content
    /// (when it is an object, as MCP requires of `structuredContent`).
    static func toolResult(_ value: GeneratedContent) -> GeneratedContent {
        var result: JSONObject = ["content": [["type": "text", "text": .string(value.jsonString)]]]
        if case .object = value { result["structuredContent"] = value }
        result["isError"] = false
        return .object(result)
    }

    /// The same as `result(id:, toolResult(value))` in text, spliced from `text` (the value's
    /// compact JSON, one line) so the hot path encodes the result once instead of twice.
    static func toolResultLine(id: GeneratedContent, _ value: GeneratedContent, text: String) -> String {
        var line = #"{"jsonrpc":"2.0","id":"#
        line += id.jsonString
        line += #","result":{"content":[{"type":"text","text":"#
        line += GeneratedContent.string(text).jsonString
        line += "}]"
        if case .object = value {
            line += #","structuredContent":"#
            line += text
        }
        line += #","isError":false}}"#
        return line
    }

    /// A `tools/call` request line, built as text (the arguments are encoded once).
    static func toolCallLine(id: Int, tool: String, arguments: GeneratedContent) -> String {
        var line = #"{"jsonrpc":"2.0","id":"#
        line += String(id)
        line += #","method":"tools/call","params":{"name":"#
        line += GeneratedContent.string(tool).jsonString
        line += #","arguments":"#
        line += arguments.jsonString
        line += "}}\n"
        return line
    }

    /// A `tools/call` result for a tool error, as MCP reports them (`isError: true`).
    static func toolError(_ error: ToolCallError) -> GeneratedContent {
        let (kind, message): (String, String) =
            switch error {
            case .failed(_, let message): ("failed", message)
            case .invalidResult(_, let message): ("invalidResult", message)
            case .invalidArguments: ("invalidArguments", error.description)
            default: ("failed", error.description)
            }
        return [
            "content": [["type": "text", "text": .string(message)]],
            "structuredContent": error.content,
            "isError": true,
            "_meta": [.init(stringLiteral: errorKindKey): .string(kind)],
        ]
    }
}
