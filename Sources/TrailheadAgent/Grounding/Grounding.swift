import TrailheadSchema

/// Which tool outputs ground which fields of the final answer. A small model given a list of
/// free days or places can still write others; a rule makes the values a tool returned the only
/// ones the answer's field may take (the session narrows the answer's schema to them, turn by
/// turn), and keeps the answer from being offered before the tool has answered.
///
///     Grounding([
///         .field("/days/*/date", from: "calendarFreeDays", at: "/freeDays/*"),
///         .field("/days/*/activities/*/place", from: "findPointsOfInterest", at: "/results/*/name"),
///     ])
///
/// Paths are JSON pointers whose `*` stands for every item of an array. They are checked when the
/// session starts: against the tool's declared output schema, and against the answer's schema.
public struct Grounding: Sendable {
    public struct Rule: Sendable, Equatable {
        /// Where the values go in the answer: "/days/*/date".
        public var field: String
        /// The tool whose results supply them.
        public var tool: String
        /// Where the values are in one result of the tool: "/freeDays/*".
        public var values: String
        /// Distinct values that are enough for the answer: once the tool has returned that many,
        /// it is not offered again (the model answers instead of asking for more).
        public var enough: Int?

        public static func field(_ field: String, from tool: String, at values: String, enough: Int? = nil) -> Rule {
            Rule(field: field, tool: tool, values: values, enough: enough)
        }
    }

    public var rules: [Rule]

    public init(_ rules: [Rule] = []) { self.rules = rules }

    public static let none = Grounding()

    /// The guard for one response: the rules whose tool is in the session, checked against the
    /// tools' output schemas and the answer's schema. A path a schema cannot produce is an error
    /// naming the path and the schema it was checked against.
    func makeGuard(tools: [String: SessionTool], answer: GenerationSchema?) throws(SessionSetupError) -> GroundingGuard {
        var rules: [GroundingGuard.Rule] = []
        for rule in self.rules {
            guard let tool = tools[rule.tool] else { continue }
            guard let values = JSONPath(rule.values) else {
                throw SessionSetupError("grounding: \"\(rule.values)\" is not a JSON pointer (tool \(rule.tool))")
            }
            guard let field = JSONPath(rule.field) else {
                throw SessionSetupError("grounding: \"\(rule.field)\" is not a JSON pointer (the answer's field)")
            }
            guard let output = tool.outputSchema else {
                throw SessionSetupError(
                    "grounding: tool \(rule.tool) declares no output schema, so \"\(rule.values)\" cannot be checked; declare its output (a Generable Output, or \"output\" in its manifest)")
            }
            guard values.leaf(in: output.json) != nil else {
                throw SessionSetupError("grounding: tool \(rule.tool)'s output schema has no \"\(rule.values)\"; its output is \(output.promptDescription)")
            }
            if let answer, field.leaf(in: answer.json) == nil {
                throw SessionSetupError("grounding: the answer's schema has no field \"\(rule.field)\" (for tool \(rule.tool)); the answer is \(answer.promptDescription)")
            }
            rules.append(GroundingGuard.Rule(tool: rule.tool, target: field.tokens, enough: rule.enough) { values.strings(in: $0) })
        }
        return GroundingGuard(rules: rules, enabledTools: Set(tools.keys))
    }
}

/// A JSON pointer whose `*` tokens stand for every item of an array.
public struct JSONPath: Sendable, Equatable {
    public var tokens: [String]

    public init?(_ pointer: String) {
        guard let tokens = JSONPointer.tokens(pointer), !tokens.isEmpty else { return nil }
        self.tokens = tokens
    }

    /// Every string at this path in `content`.
    public func strings(in content: GeneratedContent) -> [String] {
        var found: [String] = []
        func walk(_ value: GeneratedContent, _ rest: ArraySlice<String>) {
            guard let token = rest.first else {
                if let string = value.stringValue { found.append(string) }
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

    /// The schema at this path of `schema` (through `properties`, `items`, `$ref` to `#/$defs/…`
    /// and the alternatives of `anyOf`/`oneOf`/`allOf`), or nil when no instance can have it.
    func leaf(in schema: GeneratedContent) -> GeneratedContent? {
        let root = schema
        func resolve(_ node: GeneratedContent, depth: Int) -> [GeneratedContent] {
            guard depth < 32 else { return [] }
            var nodes = [node]
            if let ref = node["$ref"]?.stringValue {
                if ref == "#" { nodes.append(contentsOf: resolve(root, depth: depth + 1)) }
                if ref.hasPrefix("#/$defs/"), let target = root["$defs"]?[String(ref.dropFirst(8))] {
                    nodes.append(contentsOf: resolve(target, depth: depth + 1))
                }
            }
            for keyword in ["anyOf", "oneOf", "allOf"] {
                for alternative in node[keyword]?.arrayValue ?? [] { nodes.append(contentsOf: resolve(alternative, depth: depth + 1)) }
            }
            return nodes
        }
        var current = [schema]
        for token in tokens {
            current = current.flatMap { resolve($0, depth: 0) }.compactMap { node in
                token == "*" ? node["items"] : node["properties"]?[token]
            }
            if current.isEmpty { return nil }
        }
        return current.first
    }
}

/// A session that cannot start as configured (a tool clash, a grounding path no schema has, an
/// unknown plugin), with what is wrong.
public struct SessionSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
