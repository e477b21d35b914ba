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
    public init(json: GeneratedContent) throws(ManifestError) {
        let root = try ManifestReader(json, at: "")
        try root.rejectUnknown([
            "manifestVersion", "plugin", "version", "library", "sha256", "isolation", "timeoutMs", "config",
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
        var tools: [ToolManifest] = []
        var seen: Set<String> = []
        for (index, item) in try root.array("tools").enumerated() {
            let tool = try ToolManifest(json: item, at: "/tools/\(index)")
            guard seen.insert(tool.name).inserted else {
                throw ManifestError(pointer: "/tools/\(index)/name", message: "tool '\(tool.name)' is listed twice")
            }
            tools.append(tool)
        }
        self.init(
            plugin: plugin,
            version: try root.string("version"),
            library: try root.string("library"),
            sha256: sha256,
            isolation: try root.oneOf("isolation", default: .process, Isolation.allCases),
            timeoutMs: try root.integer("timeoutMs", default: Self.defaultTimeoutMs, in: 1...86_400_000),
            config: config,
            permissions: permissions,
            tools: tools)
    }

    /// The manifest as JSON (the form `agent tools register` writes).
    public var json: GeneratedContent {
        var root: JSONObject = [
            "manifestVersion": .number(Double(Self.supportedVersion)),
            "plugin": .string(plugin),
            "version": .string(version),
            "library": .string(library),
        ]
        if let sha256 { root["sha256"] = .string(sha256) }
        root["isolation"] = .string(isolation.rawValue)
        root["timeoutMs"] = .number(Double(timeoutMs))
        root["config"] = config
        root["permissions"] = permissions
        root["tools"] = .array(tools.map(\.json))
        return .object(root)
    }
}

extension ToolManifest {
    init(json: GeneratedContent, at pointer: String) throws(ManifestError) {
        let reader = try ManifestReader(json, at: pointer)
        try reader.rejectUnknown(["name", "description", "arguments", "output", "annotations", "needsApproval", "binding"])
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
