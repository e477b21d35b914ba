import TrailheadSchema

extension Manifest {
    /// Parses manifest text; JSON syntax errors and field errors both become `ManifestError`.
    public init(jsonText: String) throws(ManifestError) {
        let document: GeneratedContent
        do { document = try GeneratedContent(json: jsonText) } catch {
            throw ManifestError(pointer: "", message: "not valid JSON: \(error)")
        }
        try self.init(json: document)
    }

    /// Reads a version 1 manifest, checking every field, every tool name and every schema.
    /// A library's manifest is refused whole for one bad tool; an MCP server's keeps its good
    /// tools and lists the others in `refusedTools` (a server is not ours to fix).
    public init(json: GeneratedContent) throws(ManifestError) {
        let root = try ManifestReader(json, at: "")
        try root.rejectUnknown([
            "manifestVersion", "plugin", "version", "library", "server", "sha256", "isolation", "timeoutMs", "config",
            "permissions", "tools",
        ])
        let manifestVersion = try root.integer("manifestVersion", default: nil, in: 0...Int(Int32.max))
        guard manifestVersion == Self.supportedVersion else {
            throw ManifestError(
                pointer: "/manifestVersion", message: "unsupported manifest version \(manifestVersion); this runtime reads version \(Self.supportedVersion)")
        }
        let plugin = try root.string("plugin")
        guard ToolManifest.isValidName(plugin) else {
            throw ManifestError(pointer: "/plugin", message: "plugin name '\(plugin)' must match [A-Za-z0-9_.-]{1,64}")
        }
        let source = try Self.source(root)
        let sha256 = try root.optionalString("sha256")?.lowercased()
        if let sha256, sha256.utf8.count != 64 || !sha256.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) {
            throw ManifestError(pointer: "/sha256", message: "expected 64 hex digits, got '\(sha256)'")
        }
        let config = root.optional("config") ?? [:]
        guard case .object = config else { throw ManifestError(pointer: "/config", message: "expected an object, got \(config.typeName)") }
        let permissions = root.optional("permissions") ?? [:]
        guard case .object = permissions else {
            throw ManifestError(pointer: "/permissions", message: "expected an object, got \(permissions.typeName)")
        }
        let isolation = try root.oneOf("isolation", default: .process, Isolation.allCases)
        if case .server = source {
            if isolation != .process {
                throw ManifestError(pointer: "/isolation", message: "an MCP server always runs apart from the host: use \"process\" or leave it out")
            }
            if config != [:] {
                throw ManifestError(pointer: "/config", message: "an MCP server takes no config: pass its settings in server.env")
            }
        }
        var tools: [ToolManifest] = []
        var refused: [RefusedTool] = []
        var seen: Set<String> = []
        for (index, item) in try root.array("tools").enumerated() {
            let pointer = "/tools/\(index)"
            let tool: ToolManifest
            do { tool = try ToolManifest(json: item, at: pointer, bindingAllowed: source.isLibrary) } catch {
                guard case .server = source, let name = item["name"]?.stringValue else { throw error }
                guard seen.insert(name).inserted else { throw ManifestError(pointer: pointer + "/name", message: "tool '\(name)' is listed twice") }
                refused.append(RefusedTool(name: name, reason: error.description, json: item))
                continue
            }
            guard seen.insert(tool.name).inserted else {
                throw ManifestError(pointer: pointer + "/name", message: "tool '\(tool.name)' is listed twice")
            }
            tools.append(tool)
        }
        self.init(
            plugin: plugin,
            version: try root.string("version"),
            source: source,
            sha256: sha256,
            isolation: isolation,
            timeoutMs: try root.integer("timeoutMs", default: Self.defaultTimeoutMs, in: 1...86_400_000),
            config: config,
            permissions: permissions,
            tools: tools,
            refusedTools: refused)
    }

    /// `"library"` or `"server"`, exactly one.
    private static func source(_ root: ManifestReader) throws(ManifestError) -> PluginSource {
        switch (root.optional("library"), root.optional("server")) {
        case (.some, .some):
            throw ManifestError(pointer: "/server", message: "a manifest names either a \"library\" or a \"server\", not both")
        case (nil, let server?):
            return .server(try MCPServerSpec(json: server, at: "/server"))
        default:
            return .library(try root.string("library"))
        }
    }

    /// The manifest as JSON (the form `agent tools register` writes).
    public var json: GeneratedContent {
        var root: JSONObject = [
            "manifestVersion": .number(Double(Self.supportedVersion)),
            "plugin": .string(plugin),
            "version": .string(version),
        ]
        switch source {
        case .library(let name): root["library"] = .string(name)
        case .server(let server): root["server"] = server.json
        }
        if let sha256 { root["sha256"] = .string(sha256) }
        if source.isLibrary {
            root["isolation"] = .string(isolation.rawValue)
        }
        root["timeoutMs"] = .number(Double(timeoutMs))
        if source.isLibrary {
            root["config"] = config
        }
        root["permissions"] = permissions
        // A server's tools have no binding (the server runs them); refused tools are kept as they were.
        let entries = tools.map { source.isLibrary ? $0.json : $0.json.removingMember("binding") }
        root["tools"] = .array(entries + refusedTools.map(\.json))
        return .object(root)
    }
}

extension PluginSource {
    var isLibrary: Bool { if case .library = self { true } else { false } }
}

extension GeneratedContent {
    fileprivate func removingMember(_ key: String) -> GeneratedContent {
        guard case .object(var members) = self else { return self }
        members[key] = nil
        return .object(members)
    }
}

extension ToolManifest {
    /// Reads one tool; `bindingAllowed` is false for an MCP server's tools (the server calls them).
    init(json: GeneratedContent, at pointer: String, bindingAllowed: Bool = true) throws(ManifestError) {
        let reader = try ManifestReader(json, at: pointer)
        try reader.rejectUnknown(
            Set(["name", "description", "arguments", "output", "annotations", "needsApproval"] + (bindingAllowed ? ["binding"] : [])))
        let name = try reader.string("name")
        guard Self.isValidName(name) else {
            throw ManifestError(pointer: reader.path("name"), message: "tool name '\(name)' must match [A-Za-z0-9_.-]{1,64}")
        }
        let argumentsJSON = try reader.required("arguments")
        guard argumentsJSON["type"] == "object" else {
            throw ManifestError(pointer: reader.path("arguments"), message: "the argument schema must have \"type\": \"object\" at its root")
        }
        let arguments = try Self.schema(argumentsJSON, at: reader.path("arguments"))
        let output = try reader.optional("output").map { (json) throws(ManifestError) in try Self.schema(json, at: reader.path("output")) }
        let annotations = reader.optional("annotations") ?? [:]
        guard case .object = annotations else {
            throw ManifestError(pointer: reader.path("annotations"), message: "expected an object, got \(annotations.typeName)")
        }
        let binding = try ToolBinding(json: reader.optional("binding") ?? ["kind": "json"], at: reader.path("binding"), arguments: argumentsJSON)
        self.init(
            name: name, description: try reader.string("description"), arguments: arguments, output: output,
            annotations: annotations, needsApproval: try reader.bool("needsApproval", default: false), binding: binding)
    }

    private static func schema(_ json: GeneratedContent, at pointer: String) throws(ManifestError) -> GenerationSchema {
        do { return try GenerationSchema(json: json) } catch {
            let keyword = error.keyword.map { "'\($0)': " } ?? ""
            throw ManifestError(pointer: pointer + error.pointer, message: "\(keyword)\(error.message)")
        }
    }

    var json: GeneratedContent {
        var entry: JSONObject = ["name": .string(name), "description": .string(description), "arguments": arguments.json]
        if let output { entry["output"] = output.json }
        entry["annotations"] = annotations
        entry["needsApproval"] = .bool(needsApproval)
        entry["binding"] = binding.json
        return .object(entry)
    }
}

extension ToolBinding {
    /// Reads a binding; a native parameter must name a required member of the argument schema,
    /// so a validated argument object always supplies every C parameter.
    init(json: GeneratedContent, at pointer: String, arguments: GeneratedContent) throws(ManifestError) {
        let reader = try ManifestReader(json, at: pointer)
        let kind = try reader.string("kind")
        switch kind {
        case "json":
            try reader.rejectUnknown(["kind"])
            self = .json
        case "native":
            try reader.rejectUnknown(["kind", "symbol", "parameters", "returns", "free"])
            let properties = arguments["properties"]?.objectValue ?? [:]
            let required = Set(arguments["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            var parameters: [NativeParameter] = []
            for (index, item) in try reader.array("parameters").enumerated() {
                let parameter = try ManifestReader(item, at: reader.path("parameters") + "/\(index)")
                try parameter.rejectUnknown(["argument", "type"])
                let argument = try parameter.string("argument")
                guard properties[argument] != nil else {
                    throw ManifestError(
                        pointer: parameter.path("argument"),
                        message: "native parameter '\(argument)' has no matching argument (the argument schema's properties are: \(properties.keys.joined(separator: ", ")))")
                }
                guard required.contains(argument) else {
                    throw ManifestError(
                        pointer: parameter.path("argument"),
                        message: "native parameter '\(argument)' must be listed in the argument schema's \"required\" (a C function cannot omit it)")
                }
                parameters.append(NativeParameter(argument: argument, type: try parameter.oneOf("type", default: nil, NativeType.allCases)))
            }
            let returnsText = try reader.optionalString("returns") ?? "void"
            let returns: NativeType? =
                returnsText == "void"
                ? nil : try ManifestReader.oneOf(.string(returnsText), at: reader.path("returns"), NativeType.allCases)
            let free = try reader.optionalString("free")
            if free != nil && returns != .string {
                throw ManifestError(pointer: reader.path("free"), message: "\"free\" is only meaningful when \"returns\" is \"string\"")
            }
            self = .native(NativeSignature(symbol: try reader.string("symbol"), parameters: parameters, returns: returns, free: free))
        default:
            throw ManifestError(pointer: reader.path("kind"), message: "expected \"json\" or \"native\", got \"\(kind)\"")
        }
    }

    var json: GeneratedContent {
        switch self {
        case .json: return ["kind": "json"]
        case .native(let signature):
            var entry: JSONObject = [
                "kind": "native", "symbol": .string(signature.symbol),
                "parameters": .array(signature.parameters.map { ["argument": .string($0.argument), "type": .string($0.type.rawValue)] }),
                "returns": .string(signature.returns?.rawValue ?? "void"),
            ]
            if let free = signature.free { entry["free"] = .string(free) }
            return .object(entry)
        }
    }
}
