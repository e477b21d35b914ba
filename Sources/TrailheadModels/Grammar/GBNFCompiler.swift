import TrailheadSchema

/// Walks a schema and writes GBNF rules; see `GBNFGrammar` for what is exact.
///
/// Every expression is `String?`: `nil` means the schema (or that part of it) accepts nothing,
/// which lets `false` schemas, empty ranges and unsatisfiable requirements drop out of the
/// alternatives around them instead of producing rules llama.cpp cannot parse.
struct GBNFCompiler {
    let root: GeneratedContent
    private(set) var approximations: [String] = []
    private var rules: [(name: String, body: String)] = []
    private var usedNames: Set<String> = []
    /// `$ref` targets already given a rule (pointer → rule name).
    private var referenceRules: [String: String] = [:]
    /// Depth of nested compilation, bounded so malformed input cannot exhaust the stack.
    private var depth = 0

    static let annotations: Set<String> = [
        "title", "description", "default", "examples", "format", "$comment", "$schema", "$id", "$defs",
        "deprecated", "readOnly", "writeOnly",
    ]

    init(root: GeneratedContent) { self.root = root }

    mutating func compile() throws(GrammarError) -> String {
        usedNames.insert("root")
        guard let body = try expression(for: root, at: "") else {
            throw GrammarError(pointer: "", message: "the schema accepts no value, so no output could match it")
        }
        var text = "root ::= \(body)\n"
        for rule in rules { text += "\(rule.name) ::= \(rule.body)\n" }
        return text
    }

    // MARK: - Rules

    /// Adds a rule and returns its (unique) name.
    mutating func addRule(_ hint: String, _ body: String) -> String {
        let name = reserveName(hint)
        rules.append((name, body))
        return name
    }

    private mutating func reserveName(_ hint: String) -> String {
        let base = GBNFText.ruleName(hint)
        var name = base
        var n = 2
        while usedNames.contains(name) {
            name = "\(base)-\(n)"
            n += 1
        }
        usedNames.insert(name)
        return name
    }

    /// A shared rule for one of JSON's building blocks, added on first use.
    mutating func primitive(_ kind: Primitive) -> String {
        if usedNames.contains(kind.rawValue) { return kind.rawValue }
        usedNames.insert(kind.rawValue)
        let body: String
        switch kind {
        case .char: body = #"[^"\\\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})"#
        case .string: body = "\"\\\"\" \(primitive(.char))* \"\\\"\""
        case .integer: body = #""-"? ("0" | [1-9] [0-9]*)"#
        case .number: body = #""-"? ("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [-+]? [0-9]+)?"#
        case .boolean: body = #""true" | "false""#
        case .null: body = #""null""#
        case .value:
            body = [Primitive.object, .array, .string, .number, .boolean, .null].map { primitive($0) }.joined(separator: " | ")
        case .object:
            let member = "\(primitive(.string)) \":\" \(primitive(.value))"
            body = "\"{\" (\(member) (\",\" \(member))*)? \"}\""
        case .array:
            let value = primitive(.value)
            body = "\"[\" (\(value) (\",\" \(value))*)? \"]\""
        }
        rules.append((kind.rawValue, body))
        return kind.rawValue
    }

    enum Primitive: String {
        case char, string, integer, number, boolean, null, value
        case object = "object-any"
        case array = "array-any"
    }

    mutating func approximate(_ pointer: String, _ reason: String) {
        approximations.append("\(pointer.isEmpty ? "/" : pointer): \(reason)")
    }

    // MARK: - Schemas

    /// The expression matching `schema`; `nil` when nothing matches.
    mutating func expression(for schema: GeneratedContent, at pointer: String) throws(GrammarError) -> String? {
        depth += 1
        defer { depth -= 1 }
        guard depth < 200 else { throw GrammarError(pointer: pointer, message: "the schema nests too deeply") }
        switch schema {
        case .bool(true): return primitive(.value)
        case .bool(false): return nil
        case .object(let object): return try expression(for: object, at: pointer)
        default: throw GrammarError(pointer: pointer, message: "a schema must be an object or a boolean, not \(schema.typeName)")
        }
    }

    private mutating func expression(for schema: JSONObject, at pointer: String) throws(GrammarError) -> String? {
        var schema = schema
        if let reference = schema["$ref"] {
            schema["$ref"] = nil
            let constraints = schema.keys.filter { !Self.annotations.contains($0) }
            if !constraints.isEmpty { approximate(pointer, "keywords beside $ref are left to validation") }
            return try expression(forReference: reference, at: pointer + "/$ref")
        }
        if let allOf = schema["allOf"] {
            schema["allOf"] = nil
            schema = try merge(schema, allOf: allOf, at: pointer)
        }
        if schema["not"] != nil {
            approximate(pointer + "/not", "not is left to validation")
            schema["not"] = nil
        }
        for keyword in ["anyOf", "oneOf"] {
            guard let branches = schema[keyword] else { continue }
            if keyword == "oneOf" { approximate(pointer + "/oneOf", "oneOf is compiled as anyOf") }
            schema[keyword] = nil
            guard case .array(let list) = branches else {
                throw GrammarError(pointer: pointer + "/" + keyword, message: "\(keyword) must be an array of schemas")
            }
            var options: [String] = []
            for (i, branch) in list.enumerated() {
                let branchPointer = pointer + "/\(keyword)/\(i)"
                let merged = try merge(schema, allOf: .array([branch]), at: branchPointer)
                if let option = try expression(for: merged, at: branchPointer) { options.append(option) }
            }
            return GBNFText.alternatives(options)
        }
        if schema["enum"] != nil || schema["const"] != nil { return try constants(schema, at: pointer) }
        return try typed(schema, at: pointer)
    }

    /// Folds `allOf` branches into `schema` keyword by keyword; a conflict that cannot be
    /// merged keeps the first value and is recorded as an approximation.
    private mutating func merge(_ schema: JSONObject, allOf: GeneratedContent, at pointer: String) throws(GrammarError) -> JSONObject {
        guard case .array(let branches) = allOf else {
            throw GrammarError(pointer: pointer + "/allOf", message: "allOf must be an array of schemas")
        }
        var merged = schema
        for (i, branch) in branches.enumerated() {
            switch branch {
            case .bool(true): continue
            case .bool(false): merged["enum"] = .array([])
            case .object(var object):
                if let reference = object["$ref"] {
                    object["$ref"] = nil
                    guard case .object(let target) = try resolve(reference, at: pointer) else { continue }
                    for (key, value) in target where object[key] == nil && key != "$defs" { object[key] = value }
                }
                for (key, value) in object {
                    guard let existing = merged[key] else {
                        merged[key] = value
                        continue
                    }
                    if existing == value || Self.annotations.contains(key) { continue }
                    switch (key, existing, value) {
                    case ("type", _, _):
                        let allowed = Self.typeNames(existing).filter { Self.typeNames(value).contains($0) }
                            + (Self.typeNames(existing).contains("number") && Self.typeNames(value).contains("integer") ? ["integer"] : [])
                            + (Self.typeNames(value).contains("number") && Self.typeNames(existing).contains("integer") ? ["integer"] : [])
                        if allowed.isEmpty { merged["enum"] = .array([]) }
                        merged[key] = .array(Array(Set(allowed)).sorted().map { .string($0) })
                    case ("required", .array(let a), .array(let b)):
                        merged[key] = .array(a + b.filter { !a.contains($0) })
                    case ("properties", .object(let a), .object(let b)) where Set(a.keys).isDisjoint(with: b.keys):
                        merged[key] = .object(JSONObject(Array(a.map { ($0.key, $0.value) }) + b.map { ($0.key, $0.value) }))
                    case ("minimum", .number(let a), .number(let b)), ("minLength", .number(let a), .number(let b)),
                        ("minItems", .number(let a), .number(let b)), ("exclusiveMinimum", .number(let a), .number(let b)):
                        merged[key] = .number(max(a, b))
                    case ("maximum", .number(let a), .number(let b)), ("maxLength", .number(let a), .number(let b)),
                        ("maxItems", .number(let a), .number(let b)), ("exclusiveMaximum", .number(let a), .number(let b)):
                        merged[key] = .number(min(a, b))
                    default:
                        approximate(pointer + "/allOf/\(i)/\(key)", "conflicting \(key) in allOf is left to validation")
                    }
                }
            default:
                throw GrammarError(pointer: pointer + "/allOf/\(i)", message: "a schema must be an object or a boolean")
            }
        }
        return merged
    }

    // MARK: - References

    private mutating func expression(forReference reference: GeneratedContent, at pointer: String) throws(GrammarError) -> String? {
        guard case .string(let target) = reference else {
            throw GrammarError(pointer: pointer, message: "$ref must be a string")
        }
        if let name = referenceRules[target] { return name }
        let resolved = try resolve(reference, at: pointer)
        // Name the rule before compiling its body, so recursion refers to it.
        let name = reserveName(target == "#" ? "root-ref" : String(target.split(separator: "/").last ?? "ref"))
        referenceRules[target] = name
        let index = rules.count
        rules.append((name, ""))
        guard let body = try expression(for: resolved, at: String(target.dropFirst())) else {
            rules[index].body = primitive(.value)
            approximate(pointer, "\(target) accepts nothing; left to validation")
            return name
        }
        rules[index].body = body
        return name
    }

    /// The schema a `$ref` (`#` or `#/$defs/name`, JSON-pointer escaped) points to.
    func resolve(_ reference: GeneratedContent, at pointer: String) throws(GrammarError) -> GeneratedContent {
        guard case .string(let target) = reference, target.hasPrefix("#") else {
            throw GrammarError(pointer: pointer, message: "only local references (#, #/$defs/…) are supported")
        }
        var node = root
        for rawToken in target.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let token = rawToken.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch node {
            case .object(let object) where object[token] != nil: node = object[token]!
            case .array(let array) where Int(token).map({ array.indices.contains($0) }) ?? false: node = array[Int(token)!]
            default: throw GrammarError(pointer: pointer, message: "$ref \(target) does not resolve")
            }
        }
        return node
    }

    // MARK: - Constants

    private mutating func constants(_ schema: JSONObject, at pointer: String) throws(GrammarError) -> String? {
        var candidates: [GeneratedContent]
        if case .array(let values)? = schema["enum"] { candidates = values } else if schema["enum"] != nil {
            throw GrammarError(pointer: pointer + "/enum", message: "enum must be an array")
        } else {
            candidates = []
        }
        if let constant = schema["const"] {
            candidates = schema["enum"] == nil ? [constant] : candidates.filter { $0 == constant }
        }
        // The other keywords still apply: keep the constants that pass them.
        var rest = schema
        rest["enum"] = nil
        rest["const"] = nil
        if rest.keys.contains(where: { !Self.annotations.contains($0) }) {
            if rest["$ref"] == nil, let restSchema = try? GenerationSchema(json: .object(rest)) {
                candidates = candidates.filter { restSchema.validate($0).isEmpty && Self.matchesType($0, rest["type"]) }
            } else {
                approximate(pointer, "constants are not filtered by the keywords beside them")
            }
        }
        return GBNFText.alternatives(candidates.map { GBNFText.literal($0.jsonString) })
    }

    static func typeNames(_ type: GeneratedContent) -> [String] {
        switch type {
        case .string(let name): [name]
        case .array(let list): list.compactMap(\.stringValue)
        default: []
        }
    }

    static func matchesType(_ value: GeneratedContent, _ type: GeneratedContent?) -> Bool {
        let names: [String]
        switch type {
        case nil: return true
        case .string(let name)?: names = [name]
        case .array(let list)?: names = list.compactMap(\.stringValue)
        default: return true
        }
        let actual = value.typeName
        return names.contains(actual) || (actual == "integer" && names.contains("number"))
    }

    // MARK: - Types

    private mutating func typed(_ schema: JSONObject, at pointer: String) throws(GrammarError) -> String? {
        var types: [String]
        switch schema["type"] {
        case nil: types = ["object", "array", "string", "number", "boolean", "null"]
        case .string(let name)?: types = [name]
        case .array(let names)?: types = names.compactMap(\.stringValue)
        default: throw GrammarError(pointer: pointer + "/type", message: "type must be a string or an array of strings")
        }
        // Canonical integers are numbers too: one alternative is enough, and it must be the
        // number one (with the number's bounds) when both are allowed.
        if types.contains("number") { types.removeAll { $0 == "integer" } }
        var options: [String] = []
        for type in types {
            let option: String?
            switch type {
            case "null": option = "\"null\""
            case "boolean": option = primitive(.boolean)
            case "string": option = try string(schema, at: pointer)
            case "integer": option = try integer(schema, at: pointer)
            case "number": option = number(schema, at: pointer)
            case "array": option = try array(schema, at: pointer)
            case "object": option = try object(schema, at: pointer)
            default: throw GrammarError(pointer: pointer + "/type", message: "unknown type '\(type)'")
            }
            if let option { options.append(option) }
        }
        return GBNFText.alternatives(options)
    }

    private mutating func string(_ schema: JSONObject, at pointer: String) throws(GrammarError) -> String? {
        let minLength = schema["minLength"]?.intValue ?? 0
        let maxLength = schema["maxLength"]?.intValue
        if let maxLength, maxLength < minLength { return nil }
        if case .string(let pattern)? = schema["pattern"] {
            if minLength > 0 || maxLength != nil { approximate(pointer + "/pattern", "the length beside a pattern is left to validation") }
            do {
                let body = try GBNFPattern(pattern).expression(char: primitive(.char))
                if body.usesApproximation { approximate(pointer + "/pattern", body.approximationReason) }
                var text = body.text
                // Repeated groups become rules of their own, named here (later groups may hold earlier ones).
                var names: [String] = []
                for (index, group) in body.groups.enumerated() {
                    var groupBody = group
                    for (earlier, name) in names.enumerated() { groupBody = groupBody.replacingOccurrences(of: GBNFPattern.Translation.groupName(earlier), with: name) }
                    let name = addRule(pointer + "-group", groupBody)
                    names.append(name)
                    text = text.replacingOccurrences(of: GBNFPattern.Translation.groupName(index), with: name)
                }
                return addRule(pointer + "-string", "\"\\\"\" \(text) \"\\\"\"")
            } catch {
                approximate(pointer + "/pattern", "pattern \(pattern) is not translated (\(error.message)); left to validation")
                return primitive(.string)
            }
        }
        if minLength == 0 && maxLength == nil { return primitive(.string) }
        let count = maxLength.map { $0 == minLength ? "{\(minLength)}" : "{\(minLength),\($0)}" } ?? "{\(minLength),}"
        return "\"\\\"\" \(primitive(.char))\(count) \"\\\"\""
    }

    private mutating func integer(_ schema: JSONObject, at pointer: String) throws(GrammarError) -> String? {
        if schema["multipleOf"] != nil { approximate(pointer + "/multipleOf", "multipleOf is left to validation") }
        var lower: Double? = schema["minimum"]?.doubleValue.map { $0.rounded(.up) }
        var upper: Double? = schema["maximum"]?.doubleValue.map { $0.rounded(.down) }
        if let x = schema["exclusiveMinimum"]?.doubleValue { lower = max(lower ?? -.infinity, x.rounded(.down) + 1) }
        if let x = schema["exclusiveMaximum"]?.doubleValue { upper = min(upper ?? .infinity, x.rounded(.up) - 1) }
        if lower == nil && upper == nil { return primitive(.integer) }
        let limit = Double(GBNFIntegerRange.largestExactBound)
        if let l = lower, abs(l) > limit { approximate(pointer, "bound \(l) is too large to express; left to validation"); lower = nil }
        if let u = upper, abs(u) > limit { approximate(pointer, "bound \(u) is too large to express; left to validation"); upper = nil }
        if lower == nil && upper == nil { return primitive(.integer) }
        guard let body = GBNFIntegerRange.expression(lower: lower.map { Int64($0) }, upper: upper.map { Int64($0) }) else {
            return nil
        }
        return addRule(pointer + "-integer", body)
    }

    private mutating func number(_ schema: JSONObject, at pointer: String) -> String? {
        for keyword in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] where schema[keyword] != nil {
            approximate(pointer + "/" + keyword, "\(keyword) of a number is left to validation")
        }
        return primitive(.number)
    }
}
