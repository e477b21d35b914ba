/// Places schemas inside a larger document (the agent's step schema holds the answer's schema and
/// each tool's arguments) so that their local `$ref`s still resolve: each schema with references
/// is kept whole under the document's `$defs`, and its references are rewritten to point there.
public struct SchemaEmbedding: Sendable {
    /// What the larger document must hold under `$defs`; empty when no schema had references.
    public private(set) var definitions = JSONObject()

    public init() {}

    /// `schema`, ready to be placed anywhere in the larger document; `name` is its unique name
    /// under `$defs` ("final", "tool.findPointsOfInterest").
    public mutating func embed(_ schema: GeneratedContent, as name: String) -> GeneratedContent {
        guard Self.hasReferences(schema) else { return schema }
        let relocated = Self.relocating(schema, under: "/$defs/" + JSONPointer.escape(name))
        definitions[name] = relocated
        guard case .object(var inline) = relocated else { return relocated }
        inline["$defs"] = nil  // its references point into the copy under `$defs`
        return .object(inline)
    }

    /// A definition of the larger document's own, written for its place (`#/$defs/<name>`
    /// references it): the agent's chain of calls, say.
    public mutating func define(_ name: String, _ schema: GeneratedContent) {
        definitions[name] = schema
    }

    /// `document` with `definitions` under its `$defs`.
    public func adding(to document: GeneratedContent) -> GeneratedContent {
        guard !definitions.isEmpty, case .object(var object) = document else { return document }
        var all = object["$defs"]?.objectValue ?? [:]
        for (name, schema) in definitions { all[name] = schema }
        object["$defs"] = .object(all)
        return .object(object)
    }

    /// Keywords whose values are instances, not schemas.
    private static let values: Set<String> = ["enum", "const", "default", "examples"]

    static func hasReferences(_ schema: GeneratedContent) -> Bool {
        switch schema {
        case .object(let object):
            object["$ref"]?.stringValue?.hasPrefix("#") == true
                || object.contains { !values.contains($0.key) && hasReferences($0.value) }
        case .array(let items): items.contains(where: hasReferences)
        default: false
        }
    }

    /// Every local reference "#…" made "#<prefix>…".
    static func relocating(_ schema: GeneratedContent, under prefix: String) -> GeneratedContent {
        switch schema {
        case .object(var object):
            for (key, value) in object where !values.contains(key) {
                if key == "$ref", let reference = value.stringValue, reference.hasPrefix("#") {
                    object[key] = .string("#" + prefix + reference.dropFirst())
                } else {
                    object[key] = relocating(value, under: prefix)
                }
            }
            return .object(object)
        case .array(let items): return .array(items.map { relocating($0, under: prefix) })
        default: return schema
        }
    }
}
