import Foundation

/// Turns a schema document into `CompiledSchema`, checking every keyword on the way: the
/// subset is closed, so an unknown keyword is an error, never ignored.
struct SchemaCompiler {
    /// The one `$schema` value accepted: Trailhead speaks draft 2020-12 only.
    static let draft2020_12 = "https://json-schema.org/draft/2020-12/schema"

    /// Every keyword the subset knows, for `SchemaError` users and the conformance test.
    static let supportedKeywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "prefixItems", "minItems",
        "maxItems", "uniqueItems", "enum", "const", "anyOf", "oneOf", "allOf", "not", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern",
        "minProperties", "maxProperties", "$ref", "$defs", "title", "description", "default", "examples",
        "format", "$schema", "$comment",
    ]

    /// JSON Schema's own keywords (2020-12's vocabularies, and draft 7's that 2020-12 renamed):
    /// one of these outside the subset is refused, since ignoring it would drop a constraint
    /// the author wrote. Any other keyword is the author's own.
    static let vocabulary: Set<String> = supportedKeywords.union([
        "$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$recursiveRef", "$recursiveAnchor",
        "if", "then", "else", "dependentSchemas", "dependentRequired", "patternProperties", "propertyNames",
        "contains", "minContains", "maxContains", "unevaluatedItems", "unevaluatedProperties",
        "deprecated", "readOnly", "writeOnly", "contentEncoding", "contentMediaType", "contentSchema",
        "definitions", "dependencies", "additionalItems",
    ])

    /// `schema` without the keywords that are not JSON Schema's, wherever a subschema sits
    /// (a member named like one stays: `properties` holds names, not keywords).
    static func withoutUnknownKeywords(_ schema: GeneratedContent) -> GeneratedContent {
        GenerationSchema.rewritingEachSchema(schema) { object in JSONObject(object.filter { vocabulary.contains($0.key) }.map { ($0.key, $0.value) }) }
    }

    private var nodes: [SchemaNode] = []
    private var nodeByPointer: [String: Int] = [:]
    private var pendingRefs: [(node: Int, ref: String)] = []
    private let document: GeneratedContent

    init(document: GeneratedContent) { self.document = document }

    /// Compiles the whole document, resolves `$ref`s and refuses cycles that never consume input.
    mutating func compile() throws(SchemaError) -> CompiledSchema {
        _ = try compileSchema(document, at: "")
        try resolveRefs()
        try refuseEndlessCycles()
        return CompiledSchema(nodes: nodes, nodeByPointer: nodeByPointer)
    }

    // MARK: - Subschemas

    private mutating func compileSchema(_ json: GeneratedContent, at pointer: String) throws(SchemaError) -> Int {
        let index = nodes.count
        nodeByPointer[pointer] = index
        switch json {
        case .bool(let b):
            nodes.append(SchemaNode(pointer: pointer, constant: b))
            return index
        case .object(let members):
            let node = SchemaNode(pointer: pointer)
            nodes.append(node)
            for (keyword, value) in members {
                try compileKeyword(keyword, value, into: node, index: index)
            }
            try checkConsistency(node)
            return index
        default:
            throw SchemaError(
                keyword: nil, pointer: pointer,
                message: "a schema must be an object or a boolean, got \(json.typeName)")
        }
    }

    private mutating func compileKeyword(
        _ keyword: String, _ value: GeneratedContent, into node: SchemaNode, index: Int
    ) throws(SchemaError) {
        let at = JSONPointer.appending(node.pointer, keyword)
        let check = KeywordValue(keyword: keyword, value: value, pointer: at)
        switch keyword {
        case "type": node.types = try check.typeSet()
        case "enum": node.enumValues = try check.array()
        case "const": node.constValue = value
        case "properties":
            for (name, subschema) in try check.object() {
                let child = try compileSchema(subschema, at: JSONPointer.appending(at, name))
                node.properties.append((name, child))
                node.memberRules[name, default: MemberRule()].child = child
            }
        case "required":
            node.required = try check.uniqueStrings()
            for name in node.required { node.memberRules[name, default: MemberRule()].isRequired = true }
        case "additionalProperties": node.additionalProperties = try compileSchema(value, at: at)
        case "minProperties": node.minProperties = try check.count()
        case "maxProperties": node.maxProperties = try check.count()
        case "items":
            if case .array = value {
                throw check.error("must be a schema in draft 2020-12; use prefixItems for a tuple")
            }
            node.items = try compileSchema(value, at: at)
        case "prefixItems": node.prefixItems = try compileSchemas(check.nonEmptyArray(), at: at)
        case "minItems": node.minItems = try check.count()
        case "maxItems": node.maxItems = try check.count()
        case "uniqueItems": node.uniqueItems = try check.bool()
        case "minimum": node.minimum = try check.number()
        case "maximum": node.maximum = try check.number()
        case "exclusiveMinimum": node.exclusiveMinimum = try check.number()
        case "exclusiveMaximum": node.exclusiveMaximum = try check.number()
        case "multipleOf":
            let divisor = try check.number()
            guard divisor > 0 else { throw check.error("must be greater than 0, got \(value.jsonString)") }
            node.multipleOf = divisor
        case "minLength": node.minLength = try check.count()
        case "maxLength": node.maxLength = try check.count()
        case "pattern": node.pattern = try check.pattern()
        case "allOf": node.allOf = try compileSchemas(check.nonEmptyArray(), at: at)
        case "anyOf": node.anyOf = try compileSchemas(check.nonEmptyArray(), at: at)
        case "oneOf": node.oneOf = try compileSchemas(check.nonEmptyArray(), at: at)
        case "not": node.not = try compileSchema(value, at: at)
        case "$ref":
            node.refText = try check.string()
            pendingRefs.append((index, node.refText!))
        case "$defs":
            for (name, subschema) in try check.object() {
                _ = try compileSchema(subschema, at: JSONPointer.appending(at, name))
            }
        case "title": node.title = try check.string()
        case "description": node.description = try check.string()
        case "format": node.format = try check.string()
        case "$comment": _ = try check.string()
        case "default": node.defaultValue = value
        case "examples": _ = try check.array()
        case "$schema":
            let uri = try check.string()
            guard uri == Self.draft2020_12 || uri == Self.draft2020_12 + "#" else {
                throw check.error("only draft 2020-12 (\"\(Self.draft2020_12)\") is supported, got \"\(uri)\"")
            }
        default:
            throw SchemaError(
                keyword: keyword, pointer: at,
                message: "unsupported keyword \"\(keyword)\" (not in Trailhead's JSON Schema subset)")
        }
    }

    private mutating func compileSchemas(_ schemas: [GeneratedContent], at pointer: String) throws(SchemaError) -> [Int] {
        var result: [Int] = []
        for (i, schema) in schemas.enumerated() {
            result.append(try compileSchema(schema, at: JSONPointer.appending(pointer, i)))
        }
        return result
    }

    /// Bounds that contradict each other are a mistake in the schema, not a schema that
    /// accepts nothing; saying so at load time saves a model from an impossible task.
    private func checkConsistency(_ node: SchemaNode) throws(SchemaError) {
        func refuse(_ low: String, _ high: String) -> SchemaError {
            SchemaError(keyword: high, pointer: node.at(high), message: "\(high) is less than \(low)")
        }
        if let lo = node.minItems, let hi = node.maxItems, hi < lo { throw refuse("minItems", "maxItems") }
        if let lo = node.minLength, let hi = node.maxLength, hi < lo { throw refuse("minLength", "maxLength") }
        if let lo = node.minProperties, let hi = node.maxProperties, hi < lo {
            throw refuse("minProperties", "maxProperties")
        }
        if let lo = node.minimum, let hi = node.maximum, hi < lo { throw refuse("minimum", "maximum") }
    }

    // MARK: - References

    private mutating func resolveRefs() throws(SchemaError) {
        for (index, ref) in pendingRefs {
            let at = nodes[index].at("$ref")
            guard ref.hasPrefix("#") else {
                throw SchemaError(
                    keyword: "$ref", pointer: at,
                    message: "only local references (\"#\" or \"#/$defs/name\") are supported, got \"\(ref)\"")
            }
            let fragment = String(ref.dropFirst()).removingPercentEncoding ?? ""
            guard let tokens = JSONPointer.tokens(fragment) else {
                throw SchemaError(keyword: "$ref", pointer: at, message: "\"\(ref)\" is not a JSON pointer fragment")
            }
            guard let target = nodeByPointer[JSONPointer.make(tokens)] else {
                throw SchemaError(keyword: "$ref", pointer: at, message: "\"\(ref)\" does not resolve to a schema in this document")
            }
            nodes[index].ref = target
        }
    }

    /// A cycle through `$ref`, `allOf`, `anyOf`, `oneOf` or `not` applies a schema to the same
    /// value forever. Iterative depth-first search, so a long chain of `$ref`s cannot overflow.
    private func refuseEndlessCycles() throws(SchemaError) {
        enum Mark { case unvisited, onPath, done }
        var marks = [Mark](repeating: .unvisited, count: nodes.count)
        for start in nodes.indices where marks[start] == .unvisited {
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            marks[start] = .onPath
            while let (node, next) = stack.last {
                let children = nodes[node].sameInstanceApplicators
                guard next < children.count else {
                    marks[node] = .done
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let child = children[next]
                switch marks[child] {
                case .done: continue
                case .unvisited:
                    marks[child] = .onPath
                    stack.append((child, 0))
                case .onPath:
                    let cycle = stack.drop { $0.node != child }.map(\.node) + [child]
                    let culprit = cycle.first { nodes[$0].ref != nil } ?? node
                    let path = cycle.map { nodes[$0].pointer.isEmpty ? "#" : nodes[$0].pointer }
                    throw SchemaError(
                        keyword: "$ref", pointer: nodes[culprit].at("$ref"),
                        message: "$ref cycle that never consumes input: \(path.joined(separator: " -> "))")
                }
            }
        }
    }
}
