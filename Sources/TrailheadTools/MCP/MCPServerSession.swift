import TrailheadSchema

/// The server side of the Model Context Protocol for one client: `initialize` (revision
/// negotiation), `ping`, `tools/list`, `tools/call`, and `notifications/cancelled`. It parses
/// each message and says what to do; the transport (a worker's stdio, `agent mcp serve` over stdio
/// or Streamable HTTP) runs tool calls, concurrently or not, and writes the replies.
struct MCPServerSession: Sendable {
    let source: any MCPToolSource

    /// What one incoming message asks for.
    enum Action: Sendable {
        /// Send this reply (one line of JSON, without its newline).
        case reply(String)
        /// Run the tool (`source.call`), then send `MCPServerSession.reply(to:with:)`.
        case call(id: GeneratedContent, tool: String, arguments: GeneratedContent)
        /// The client cancelled its request with this id: stop that call, and send no reply for it.
        case cancel(requestID: GeneratedContent)
        /// `initialize` succeeded: send this reply; the session is open.
        case initialized(reply: String)
        /// Nothing to send (a notification, a response).
        case none
    }

    /// Handles one line of JSON-RPC.
    mutating func handle(_ line: [UInt8]) -> Action {
        let message: GeneratedContent
        do { message = try GeneratedContent(json: line) } catch {
            return .reply(JSONRPC.error(id: .null, code: JSONRPC.parseError, message: "parse error: \(error)").jsonString)
        }
        return handle(message: message)
    }

    mutating func handle(message: GeneratedContent) -> Action {
        guard case .object = message else {
            // Batches left JSON-RPC's MCP subset in 2025-06-18.
            return .reply(JSONRPC.error(id: .null, code: JSONRPC.invalidRequest, message: "expected one JSON-RPC message (an object)").jsonString)
        }
        guard case .string(let method) = message["method"] ?? .null else {
            // A response to a request of ours (we send none) needs no answer; anything else is malformed.
            if message["result"] != nil || message["error"] != nil { return .none }
            return .reply(JSONRPC.error(id: message["id"] ?? .null, code: JSONRPC.invalidRequest, message: "missing method").jsonString)
        }
        let params = message["params"] ?? [:]
        guard let id = message["id"] else {
            if method == "notifications/cancelled", let requestID = params["requestId"] { return .cancel(requestID: requestID) }
            return .none
        }
        switch method {
        case "initialize": return initialize(id: id, params: params)
        case "ping": return .reply(JSONRPC.result(id: id, [:]).jsonString)
        case "tools/list": return .reply(listTools(id: id))
        case "tools/call": return callTool(id: id, params: params)
        default: return .reply(JSONRPC.error(id: id, code: JSONRPC.methodNotFound, message: "unknown method '\(method)'").jsonString)
        }
    }

    /// The reply to a `tools/call` once the tool ran: its result, or a tool error (`isError`).
    static func reply(to id: GeneratedContent, with outcome: Result<LoadedPlugin.TextResult, ToolCallError>) -> String {
        switch outcome {
        case .success(let result): JSONRPC.toolResultLine(id: id, result.value, text: result.text)
        case .failure(let error): JSONRPC.result(id: id, JSONRPC.toolError(error)).jsonString
        }
    }

    private mutating func initialize(id: GeneratedContent, params: GeneratedContent) -> Action {
        if let reason = source.unavailableReason { return .reply(JSONRPC.error(id: id, code: JSONRPC.pluginUnavailable, message: reason).jsonString) }
        guard let requested = params["protocolVersion"] else {
            return .reply(JSONRPC.error(id: id, code: JSONRPC.invalidParams, message: "initialize needs params.protocolVersion").jsonString)
        }
        guard case .string(let version) = requested, JSONRPC.supportedVersions.contains(version) else {
            return .reply(JSONRPC.unsupportedVersion(id: id, requested: requested).jsonString)
        }
        var result: JSONObject = [
            "protocolVersion": .string(version),
            "capabilities": ["tools": ["listChanged": .bool(source.toolsCanChange)]],
            "serverInfo": source.serverInfo,
        ]
        for (key, value) in source.initializeExtras { result[key] = value }
        return .initialized(reply: JSONRPC.result(id: id, .object(result)).jsonString)
    }

    private func listTools(id: GeneratedContent) -> String {
        if let reason = source.unavailableReason { return JSONRPC.error(id: id, code: JSONRPC.pluginUnavailable, message: reason).jsonString }
        let tools = source.listedTools().map { MCPToolListing.entry(for: $0.tool, name: $0.name) }
        return JSONRPC.result(id: id, ["tools": .array(tools)]).jsonString
    }

    private func callTool(id: GeneratedContent, params: GeneratedContent) -> Action {
        if let reason = source.unavailableReason { return .reply(JSONRPC.error(id: id, code: JSONRPC.pluginUnavailable, message: reason).jsonString) }
        guard case .string(let name) = params["name"] ?? .null else {
            return .reply(JSONRPC.error(id: id, code: JSONRPC.invalidParams, message: "tools/call needs params.name").jsonString)
        }
        guard source.serves(name) else {
            return .reply(JSONRPC.error(id: id, code: JSONRPC.invalidParams, message: "unknown tool '\(name)'").jsonString)
        }
        return .call(id: id, tool: name, arguments: params["arguments"] ?? [:])
    }
}
