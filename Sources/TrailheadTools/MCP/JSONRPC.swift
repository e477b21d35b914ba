import TrailheadSchema

/// JSON-RPC 2.0 messages in the Model Context Protocol's shape, one per line: the one
/// protocol layer of the tool workers, `agent mcp serve` and Trailhead's MCP client.
enum JSONRPC {
    /// The MCP revision Trailhead speaks first (as a client, and as a server's newest).
    static let protocolVersion = "2025-11-25"
    /// Revisions whose `initialize`, `ping`, `tools/*` and cancellation Trailhead implements,
    /// oldest first. (The differences that matter here: `structuredContent`/`outputSchema` came
    /// in 2025-06-18, and clients of older revisions ignore them.)
    static let supportedVersions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    /// What Trailhead's client sends in `initialize`, to its tool workers and to MCP servers alike.
    static let initializeParams: GeneratedContent = [
        "protocolVersion": .string(protocolVersion), "capabilities": [:],
        "clientInfo": ["name": "trailhead", "version": .string(MCPToolServer.version)],
    ]
    /// The `_meta` key under which the worker tells its Trailhead client what kind of tool error it was.
    static let errorKindKey = "trailhead/errorKind"

    static let parseError = -32700
    static let invalidRequest = -32600
    static let methodNotFound = -32601
    static let invalidParams = -32602
    static let internalError = -32603
    /// The plugin could not be loaded (`initialize` and `tools/*` answer with this).
    static let pluginUnavailable = -32001

    /// The error MCP's lifecycle defines for an `initialize` naming a revision the server does
    /// not speak: -32602 with the supported revisions and the requested one in `data`.
    static func unsupportedVersion(id: GeneratedContent, requested: GeneratedContent) -> GeneratedContent {
        [
            "jsonrpc": "2.0", "id": id,
            "error": [
                "code": .number(Double(invalidParams)), "message": "Unsupported protocol version",
                "data": ["supported": .array(supportedVersions.map { .string($0) }), "requested": requested],
            ],
        ]
    }

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

    /// A `tools/call` result line: the value as text (for any MCP client) and as structured content
    /// (when it is an object, as MCP requires of `structuredContent`), spliced from `text` (the
    /// value's compact JSON, one line) so the hot path encodes the result once instead of twice.
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
            case .unknownTool, .unavailable, .crashed, .timedOut, .cancelled: ("failed", error.description)
            }
        return [
            "content": [["type": "text", "text": .string(message)]],
            "structuredContent": error.content,
            "isError": true,
            "_meta": [.init(stringLiteral: errorKindKey): .string(kind)],
        ]
    }
}
