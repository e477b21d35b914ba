/// Checks an instance against compiled nodes. In collecting mode it records every violation;
/// otherwise it stops at the first one and builds no messages (used for `anyOf`, `oneOf`,
/// `not` and `isValid`). The instance path is kept as tokens and joined only when reported.
struct SchemaValidator {
    let nodes: [SchemaNode]
    let collecting: Bool
    /// What collecting mode found so far (`trial` takes back what an alternative found).
    var violations: [SchemaViolation] = []
    private var path: [PathToken] = []
    /// How many schema applications are open on the call stack.
    private var depth = 0
    /// Set once the depth limit was hit anywhere (even under `not`, whose outcome it would
    /// otherwise flip): the instance is then invalid, whatever the branches said.
    var exceededDepth = false

    /// Instances are at most `GeneratedContent.maximumDepth` deep and a schema cannot loop on
    /// one value, but a long chain of `$ref`s at every level could still exhaust the stack:
    /// past this many nested applications validation stops with a violation instead.
    static let maximumApplicationDepth = 4 * GeneratedContent.maximumDepth

    enum PathToken {
        case key(String)
        case index(Int)
    }

    init(nodes: [SchemaNode], collecting: Bool) {
        self.nodes = nodes
        self.collecting = collecting
    }

    /// A quick validator nested in this one: it inherits the depth, so `not` inside `not`
    /// along a `$ref` chain is bounded too.
    init(nestedIn outer: SchemaValidator) {
        self.nodes = outer.nodes
        self.collecting = false
        self.depth = outer.depth
    }

    var instancePointer: String {
        var out = ""
        for token in path {
            switch token {
            case .key(let k): out += "/" + JSONPointer.escape(k)
            case .index(let i): out += "/" + String(i)
            }
        }
        return out
    }

    /// Records a violation at the current instance location; returns whether to go on checking.
    mutating func report(_ schemaPointer: String, _ message: @autoclosure () -> String) -> Bool {
        guard collecting else { return false }
        violations.append(SchemaViolation(instancePointer: instancePointer, schemaPointer: schemaPointer, message: message()))
        return true
    }

    /// Whether `value` satisfies node `index` (recording violations when collecting).
    mutating func check(_ index: Int, _ value: GeneratedContent) -> Bool {
        let node = nodes[index]
        guard depth < Self.maximumApplicationDepth else {
            exceededDepth = true
            _ = report(node.pointer, Self.tooDeepMessage)
            return false
        }
        depth += 1
        defer { depth -= 1 }
        if let constant = node.constant {
            if !constant { _ = report(node.pointer, "no value is allowed here, got \(Describe.brief(value))") }
            return constant
        }
        var valid = true
        if let types = node.types, !types.admits(value) {
            valid = false
            guard report(node.at("type"), Describe.typeMismatch(types, value)) else { return false }
        }
        if let constValue = node.constValue, constValue != value {
            valid = false
            guard report(node.at("const"), "expected \(Describe.brief(constValue)), got \(Describe.brief(value))") else { return false }
        }
        if let options = node.enumValues, !options.contains(value) {
            valid = false
            guard report(node.at("enum"), Describe.enumMismatch(options, value)) else { return false }
        }
        switch value {
        case .object(let members): valid = checkObject(node, members) && valid
        case .array(let elements): valid = checkArray(node, elements) && valid
        case .string(let s): valid = checkString(node, s) && valid
        case .number(let n): valid = checkNumber(node, n) && valid
        case .null, .bool: break
        }
        guard valid || collecting else { return false }
        return checkApplicators(node, value) && valid
    }

    // MARK: - By type

    private mutating func checkObject(_ node: SchemaNode, _ members: JSONObject) -> Bool {
        var valid = true
        let mark = violations.count  // missing members are reported first, once known
        if let min = node.minProperties, members.count < min {
            valid = false
            guard report(node.at("minProperties"), "expected at least \(Describe.count(min, "property", "properties")), got \(members.count)") else { return false }
        }
        if let max = node.maxProperties, members.count > max {
            valid = false
            guard report(node.at("maxProperties"), "expected at most \(Describe.count(max, "property", "properties")), got \(members.count)") else { return false }
        }
        // One lookup per member gives both its schema and whether it is required, so the
        // common case (all required members present) costs no lookup per required name.
        var requiredPresent = 0
        for key in members.keys {
            let rule = node.memberRules[key]
            if rule?.isRequired == true { requiredPresent += 1 }
            let child: Int
            if let property = rule?.child {
                child = property
            } else if let additional = node.additionalProperties {
                if nodes[additional].constant == false {
                    valid = false
                    guard report(node.at("additionalProperties"), Describe.unexpectedProperty(key, allowed: node.properties.map(\.name))) else { return false }
                    continue
                }
                child = additional
            } else {
                continue
            }
            path.append(.key(key))
            let ok = check(child, members[key]!)
            path.removeLast()
            if !ok {
                valid = false
                guard collecting else { return false }
            }
        }
        if requiredPresent < node.required.count {
            guard collecting else { return false }
            valid = false
            let here = instancePointer
            let missing = node.required.filter { members[$0] == nil }.map {
                SchemaViolation(instancePointer: here, schemaPointer: node.at("required"), message: "missing required property \"\($0)\"")
            }
            violations.insert(contentsOf: missing, at: mark)
        }
        return valid
    }

    private mutating func checkArray(_ node: SchemaNode, _ elements: [GeneratedContent]) -> Bool {
        var valid = true
        let count = elements.count
        if let min = node.minItems, count < min {
            valid = false
            guard report(node.at("minItems"), Describe.itemCount(min: min, max: node.maxItems, got: count)) else { return false }
        }
        if let max = node.maxItems, count > max {
            valid = false
            guard report(node.at("maxItems"), Describe.itemCount(min: node.minItems, max: max, got: count)) else { return false }
        }
        var start = 0
        for (i, child) in node.prefixItems.enumerated() where i < count {
            path.append(.index(i))
            let ok = check(child, elements[i])
            path.removeLast()
            if !ok {
                valid = false
                guard collecting else { return false }
            }
            start = i + 1
        }
        start = max(start, node.prefixItems.count)
        if let items = node.items, start < count {
            if nodes[items].constant == false {
                valid = false
                guard report(node.at("items"), "expected at most \(Describe.count(start, "item", "items")), got \(count)") else { return false }
            } else {
                for i in start..<count {
                    path.append(.index(i))
                    let ok = check(items, elements[i])
                    path.removeLast()
                    if !ok {
                        valid = false
                        guard collecting else { return false }
                    }
                }
            }
        }
        if node.uniqueItems, count > 1 {
            var firstIndex: [GeneratedContent: Int] = [:]
            for (i, element) in elements.enumerated() {
                if let first = firstIndex[element] {
                    valid = false
                    guard report(node.at("uniqueItems"), "item \(i) repeats item \(first); items must be unique") else { return false }
                } else {
                    firstIndex[element] = i
                }
            }
        }
        return valid
    }

    private mutating func checkString(_ node: SchemaNode, _ s: String) -> Bool {
        var valid = true
        if node.minLength != nil || node.maxLength != nil {
            // JSON Schema counts code points, not grapheme clusters or UTF-16 units.
            let length = s.unicodeScalars.count
            if let min = node.minLength, length < min {
                valid = false
                guard report(node.at("minLength"), "expected at least \(Describe.count(min, "character", "characters")), got \(length)") else { return false }
            }
            if let max = node.maxLength, length > max {
                valid = false
                guard report(node.at("maxLength"), "expected at most \(Describe.count(max, "character", "characters")), got \(length)") else { return false }
            }
        }
        if let pattern = node.pattern, !pattern.matches(s) {
            valid = false
            guard report(node.at("pattern"), "expected \(pattern.textShape.map { "well-formed " + $0.description + " (a space between words, punctuation only at a word's end)" } ?? "a string matching /\(pattern.source)/"), got \(Describe.brief(.string(s)))") else { return false }
        }
        return valid
    }

    private mutating func checkNumber(_ node: SchemaNode, _ n: Double) -> Bool {
        var valid = true
        var got: String { Describe.number(n) }
        if let bound = node.minimum, n < bound {
            valid = false
            guard report(node.at("minimum"), "expected at least \(Describe.number(bound)), got \(got)") else { return false }
        }
        if let bound = node.exclusiveMinimum, n <= bound {
            valid = false
            guard report(node.at("exclusiveMinimum"), "expected more than \(Describe.number(bound)), got \(got)") else { return false }
        }
        if let bound = node.maximum, n > bound {
            valid = false
            guard report(node.at("maximum"), "expected at most \(Describe.number(bound)), got \(got)") else { return false }
        }
        if let bound = node.exclusiveMaximum, n >= bound {
            valid = false
            guard report(node.at("exclusiveMaximum"), "expected less than \(Describe.number(bound)), got \(got)") else { return false }
        }
        if let divisor = node.multipleOf, !DecimalMultiple.isMultiple(n, of: divisor) {
            valid = false
            guard report(node.at("multipleOf"), "expected a multiple of \(Describe.number(divisor)), got \(got)") else { return false }
        }
        return valid
    }

    /// The outcome of validating a whole document from node `index`.
    mutating func validateDocument(_ value: GeneratedContent, from index: Int = 0) -> Bool {
        let passed = check(index, value)
        guard exceededDepth else { return passed }
        if collecting, !violations.contains(where: { $0.message.hasPrefix(Self.tooDeep) }) {
            violations.append(SchemaViolation(instancePointer: "", schemaPointer: "", message: Self.tooDeepMessage))
        }
        return false
    }

    static let tooDeep = "too deeply nested to validate"
    static var tooDeepMessage: String { "\(tooDeep) (more than \(maximumApplicationDepth) schemas applied in a chain)" }
}
