/// A place in a JSON document, written as a JSON pointer whose `*` tokens stand for every item of
/// an array: "/days/*/date" is the date of every day. In an instance it finds values; in a schema
/// it finds (and `SchemaEdit` narrows) the schemas of those values.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    public var tokens: [String]

    /// Nil for a malformed pointer (or the empty one: a path names a member).
    public init?(_ pointer: String) {
        guard let tokens = JSONPointer.tokens(pointer), !tokens.isEmpty else { return nil }
        self.tokens = tokens
    }

    public init(tokens: [String]) { self.tokens = tokens }

    /// The path of these tokens (`["days", "*", "date"]`).
    public init(arrayLiteral tokens: String...) { self.tokens = tokens }

    /// The document itself.
    public static let root = JSONPath(tokens: [])

    /// This path with one member more ("/days" → "/days/date").
    public func appending(_ token: String) -> JSONPath { JSONPath(tokens: tokens + [token]) }

    public var description: String { tokens.isEmpty ? "" : JSONPointer.make(tokens) }

    /// Every string at this path in `content`.
    public func strings(in content: GeneratedContent) -> [String] { values(in: content).compactMap(\.stringValue) }

    /// Every value at this path in `content`, in document order.
    public func values(in content: GeneratedContent) -> [GeneratedContent] {
        var found: [GeneratedContent] = []
        func walk(_ value: GeneratedContent, _ rest: ArraySlice<String>) {
            guard let token = rest.first else {
                found.append(value)
                return
            }
            if token == "*" {
                for item in value.arrayValue ?? [] { walk(item, rest.dropFirst()) }
            } else if let member = value[token] {
                walk(member, rest.dropFirst())
            }
        }
        walk(content, tokens[...])
        return found
    }

    /// The schemas a value at this path has in `schema` (through `properties`, `items`, local `$ref`s
    /// and the alternatives of `anyOf`/`oneOf`/`allOf`), the way `SchemaEdit` reaches them; empty
    /// when no instance of `schema` can have such a value.
    public func schemas(in schema: GeneratedContent) -> [JSONObject] {
        var found: [JSONObject] = []
        var edit = SchemaEdit(schema)
        edit.edit(at: self) { found.append($0) }
        return found
    }

    /// The values the schemas at this path allow (their `enum`, or `const`), nil when they allow
    /// any value of their type.
    public func allowedValues(in schema: GeneratedContent) -> [GeneratedContent]? {
        let nodes = schemas(in: schema)
        guard !nodes.isEmpty else { return nil }
        var values: [GeneratedContent] = []
        for node in nodes {
            if let listed = node["enum"]?.arrayValue {
                values += listed.filter { !values.contains($0) }
            } else if let constant = node["const"] {
                if !values.contains(constant) { values.append(constant) }
            } else {
                return nil
            }
        }
        return values
    }
}
