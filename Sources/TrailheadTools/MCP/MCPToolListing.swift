import TrailheadSchema
import TrailheadSupport

/// Tools as MCP lists them (`tools/list`), to and from Trailhead's tool manifests, and the
/// digest that pins an MCP server's tools in its manifest.
enum MCPToolListing {
    /// Manifest annotation → MCP hint (MCP spells them with a `Hint` suffix).
    private static let hints = ["readOnly": "readOnlyHint", "destructive": "destructiveHint", "idempotent": "idempotentHint", "openWorld": "openWorldHint"]

    /// A `tools/list` entry for `tool`, listed under `name`.
    static func entry(for tool: ToolManifest, name: String) -> GeneratedContent {
        var entry: JSONObject = ["name": .string(name), "description": .string(tool.description), "inputSchema": tool.arguments.json]
        if let output = tool.output { entry["outputSchema"] = output.json }
        var annotations: JSONObject = [:]
        for (key, value) in tool.annotations.objectValue ?? [:] { annotations[hints[key] ?? key] = value }
        if !annotations.isEmpty { entry["annotations"] = .object(annotations) }
        if tool.needsApproval { entry["_meta"] = ["trailhead/needsApproval": true] }
        return .object(entry)
    }

    /// A manifest tool entry for a tool an MCP server listed: its schemas as they are (they are
    /// checked against Trailhead's subset when the manifest is read), its hints without the suffix.
    static func manifestEntry(for listed: GeneratedContent) -> GeneratedContent {
        var entry: JSONObject = [
            "name": listed["name"] ?? .null,
            "description": .string(listed["description"]?.stringValue ?? listed["title"]?.stringValue ?? ""),
            "arguments": listed["inputSchema"] ?? ["type": "object"],
        ]
        if let output = listed["outputSchema"] { entry["output"] = output }
        var annotations: JSONObject = [:]
        let names = Dictionary(uniqueKeysWithValues: hints.map { ($0.value, $0.key) })
        for (key, value) in listed["annotations"]?.objectValue ?? [:] { annotations[names[key] ?? key] = value }
        if let title = listed["title"], annotations["title"] == nil { annotations["title"] = title }
        entry["annotations"] = .object(annotations)
        return .object(entry)
    }

    /// SHA-256 (hex) of the tools' names and schemas (`inputSchema`, `outputSchema`), in name
    /// order with object keys sorted: what a server's manifest pins. Descriptions and hints are
    /// left out, so rewording a description does not refuse a server.
    static func digest(of listed: [GeneratedContent]) -> String {
        let pinned = listed.map { tool -> GeneratedContent in
            var entry: JSONObject = ["name": tool["name"] ?? .null, "inputSchema": tool["inputSchema"] ?? .null]
            if let output = tool["outputSchema"] { entry["outputSchema"] = output }
            return .object(entry)
        }
        let sorted = pinned.sorted { ($0["name"]?.stringValue ?? "") < ($1["name"]?.stringValue ?? "") }
        return SHA256.hex(of: Array(canonical(.array(sorted)).jsonString.utf8))
    }

    /// The same value with every object's keys in sorted order.
    private static func canonical(_ value: GeneratedContent) -> GeneratedContent {
        switch value {
        case .array(let items): .array(items.map(canonical))
        case .object(let members): .object(JSONObject(members.keys.sorted().map { ($0, canonical(members[$0]!)) }))
        default: value
        }
    }

    /// Names added, removed and changed between two listings, for a refusal message.
    static func changes(from old: [GeneratedContent], to new: [GeneratedContent]) -> String {
        func byName(_ tools: [GeneratedContent]) -> [String: String] {
            Dictionary(tools.map { ($0["name"]?.stringValue ?? "", digest(of: [$0])) }, uniquingKeysWith: { first, _ in first })
        }
        let before = byName(old), after = byName(new)
        var parts: [String] = []
        let added = after.keys.filter { before[$0] == nil }.sorted()
        let removed = before.keys.filter { after[$0] == nil }.sorted()
        let changed = after.keys.filter { before[$0] != nil && before[$0] != after[$0] }.sorted()
        if !added.isEmpty { parts.append("added " + added.joined(separator: ", ")) }
        if !removed.isEmpty { parts.append("removed " + removed.joined(separator: ", ")) }
        if !changed.isEmpty { parts.append("changed " + changed.joined(separator: ", ")) }
        return parts.isEmpty ? "the schemas differ" : parts.joined(separator: "; ")
    }
}
