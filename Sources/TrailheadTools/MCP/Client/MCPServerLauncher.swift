import TrailheadSchema

/// Starts an MCP server a manifest declares (a command over stdio, or a Streamable HTTP URL),
/// negotiates the revision, lists its tools and checks them against the manifest's pin.
struct MCPServerLauncher: WorkerLauncher {
    let spec: MCPServerSpec
    /// The digest the manifest pins (`MCPToolListing.digest`); `nil` accepts any tools.
    let pin: String?
    /// The tools as the manifest recorded them, to say what changed when the pin does not match.
    let pinnedTools: [GeneratedContent]

    init(spec: MCPServerSpec, pin: String?, pinnedTools: [GeneratedContent] = []) {
        self.spec = spec
        self.pin = pin
        self.pinnedTools = pinnedTools
    }

    var label: String { "MCP server '\(spec.summary)'" }
    var peer: String { if case .http = spec.transport { "its endpoint" } else { "its process" } }

    func launch() throws(PluginLoadError) -> any WorkerChannel {
        switch spec.transport {
        case .stdio(let command, let environment, let directory):
            return try WorkerProcess(executable: command[0], arguments: Array(command.dropFirst()), environment: environment, directory: directory)
        case .http(let url):
            return try HTTPWorkerChannel(url: url)
        }
    }

    func accept(initializeResult result: GeneratedContent, request: (String, GeneratedContent) throws -> GeneratedContent) throws -> WorkerHandshake {
        let version = result["protocolVersion"]?.stringValue ?? "(none)"
        guard JSONRPC.supportedVersions.contains(version) else {
            throw PluginLoadError(
                "\(label): it answered initialize with protocol revision \(version); Trailhead speaks \(JSONRPC.supportedVersions.joined(separator: ", "))")
        }
        guard result["capabilities"]?["tools"] != nil else { throw PluginLoadError("\(label): it offers no tools (no \"tools\" capability)") }
        var tools: [GeneratedContent] = []
        var cursor: GeneratedContent?
        repeat {
            let page = try request("tools/list", cursor.map { ["cursor": $0] } ?? [:])
            guard case .array(let listed) = page["tools"] ?? .null else { throw PluginLoadError("\(label): its tools/list has no \"tools\" array") }
            tools += listed
            cursor = page["nextCursor"].flatMap { $0 == .null ? nil : $0 }
        } while cursor != nil && tools.count < 10_000
        if let pin {
            let digest = MCPToolListing.digest(of: tools)
            guard digest == pin else {
                throw PluginLoadError(
                    "\(label): its tools changed since it was registered (\(MCPToolListing.changes(from: pinnedTools, to: tools))); "
                        + "the manifest pins \(pin), the server now lists \(digest); register it again to accept them")
            }
        }
        return WorkerHandshake(
            name: result["serverInfo"]?["name"]?.stringValue ?? "", version: result["serverInfo"]?["version"]?.stringValue, tools: tools)
    }

    /// `structuredContent` when the server sends it; else its text (JSON when it parses as an
    /// object or array, `{"text": …}` when it does not); other content as `{"content": […]}`.
    func outcome(tool: String, result: GeneratedContent) -> Result<GeneratedContent, ToolCallError> {
        let content = result["content"]?.arrayValue ?? []
        let texts = content.compactMap { $0["type"] == "text" ? $0["text"]?.stringValue : nil }
        if result["isError"]?.boolValue == true {
            return .failure(.failed(tool: tool, message: texts.isEmpty ? "no message" : texts.joined(separator: "\n")))
        }
        if let structured = result["structuredContent"] { return .success(structured) }
        guard texts.count == content.count else { return .success(["content": .array(content)]) }
        let text = texts.joined(separator: "\n")
        if let value = try? GeneratedContent(json: text) {
            switch value {
            case .object, .array: return .success(value)
            default: break
            }
        }
        return .success(["text": .string(text)])
    }

    /// A server's quarantine lasts until it is loaded again (re-registered, or the next run).
    func fingerprint() -> LibraryFile.Fingerprint? { nil }
}
