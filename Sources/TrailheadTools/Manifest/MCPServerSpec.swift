import TrailheadSchema

/// How to reach an MCP server whose tools a manifest declares (`"server"` in place of `"library"`):
///
/// ```
/// "server": {"command": ["python3", "weather.py"], "env": {"UNITS": "metric"}, "cwd": "/home/me/weather"}
/// "server": {"url": "http://127.0.0.1:8000/mcp"}
/// ```
///
/// `"prefix"` (optional) is put before each of the server's tool names when they are registered,
/// so two servers that both call a tool `search` can be loaded together.
public struct MCPServerSpec: Sendable, Hashable {
    public enum Transport: Sendable, Hashable {
        /// A process speaking newline-delimited JSON-RPC on stdin/stdout. `command[0]` is looked
        /// up in `PATH` when it holds no `/`; `environment` is added to the runtime's own;
        /// `directory` is the working directory (relative paths in `command` resolve against it).
        case stdio(command: [String], environment: [String: String], directory: String?)
        /// A Streamable HTTP endpoint (`http://` only).
        case http(url: String)
    }

    public var transport: Transport
    /// Put before each tool's name when it is registered (`weather_` makes `search` `weather_search`).
    public var toolPrefix: String?

    public init(transport: Transport, toolPrefix: String? = nil) {
        self.transport = transport
        self.toolPrefix = toolPrefix
    }

    /// One line for people: the command or the URL.
    public var summary: String {
        switch transport {
        case .stdio(let command, _, _): command.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        case .http(let url): url
        }
    }

    /// The name a server's tool is registered under.
    public func registeredName(of tool: String) -> String { (toolPrefix ?? "") + tool }
}

extension MCPServerSpec {
    init(json: GeneratedContent, at pointer: String) throws(ManifestError) {
        let reader = try ManifestReader(json, at: pointer)
        try reader.rejectUnknown(["command", "env", "cwd", "url", "prefix"])
        let prefix = try reader.optionalString("prefix")
        if let prefix, !prefix.isEmpty, !ToolManifest.isValidName(prefix) {
            throw ManifestError(pointer: reader.path("prefix"), message: "prefix '\(prefix)' must match [A-Za-z0-9_.-]{1,64}")
        }
        switch (reader.optional("command"), try reader.optionalString("url")) {
        case (.some, .some), (nil, nil):
            throw ManifestError(pointer: pointer, message: "a server needs exactly one of \"command\" (stdio) or \"url\" (Streamable HTTP)")
        case (let command?, nil):
            guard case .array(let items) = command, !items.isEmpty else {
                throw ManifestError(pointer: reader.path("command"), message: "expected a non-empty array of strings")
            }
            var words: [String] = []
            for (index, item) in items.enumerated() {
                words.append(try ManifestReader.string(item, at: reader.path("command") + "/\(index)"))
            }
            guard !words[0].isEmpty else { throw ManifestError(pointer: reader.path("command") + "/0", message: "the program is empty") }
            var environment: [String: String] = [:]
            if let env = reader.optional("env") {
                let envReader = try ManifestReader(env, at: reader.path("env"))
                for (key, value) in env.objectValue ?? [:] {
                    environment[key] = try ManifestReader.string(value, at: envReader.path(key))
                }
            }
            transport = .stdio(command: words, environment: environment, directory: try reader.optionalString("cwd"))
        case (nil, let url?):
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw ManifestError(pointer: reader.path("url"), message: "only http:// and https:// URLs are supported, got '\(url)'")
            }
            if reader.optional("env") != nil || reader.optional("cwd") != nil {
                throw ManifestError(pointer: pointer, message: "\"env\" and \"cwd\" apply to a \"command\", not to a \"url\"")
            }
            transport = .http(url: url)
        }
        toolPrefix = prefix?.isEmpty == true ? nil : prefix
    }

    var json: GeneratedContent {
        var entry: JSONObject = [:]
        switch transport {
        case .stdio(let command, let environment, let directory):
            entry["command"] = .array(command.map { .string($0) })
            if !environment.isEmpty {
                entry["env"] = .object(JSONObject(environment.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
            }
            if let directory { entry["cwd"] = .string(directory) }
        case .http(let url):
            entry["url"] = .string(url)
        }
        if let toolPrefix { entry["prefix"] = .string(toolPrefix) }
        return .object(entry)
    }
}
