/// Checks an instance against compiled nodes. In collecting mode it records every violation;
/// otherwise it stops at the first one and builds no messages (used for `anyOf`, `oneOf`,
/// `not` and `isValid`). The instance path is kept as tokens and joined only when reported.
struct SchemaValidator {
    let nodes: [SchemaNode]
    let collecting: Bool
    private(set) var violations: [SchemaViolation] = []
    private var path: [PathToken] = []

    enum PathToken {
        case key(String)
        case index(Int)
    }

    init(nodes: [SchemaNode], collecting: Bool) {
        self.nodes = nodes
        self.collecting = collecting
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
        for name in node.required where members[name] == nil {
            valid = false
            guard report(node.at("required"), "missing required property \"\(name)\"") else { return false }
        }
        if let min = node.minProperties, members.count < min {
            valid = false
            guard report(node.at("minProperties"), "expected at least \(Describe.count(min, "property", "properties")), got \(members.count)") else { return false }
        }
        if let max = node.maxProperties, members.count > max {
            valid = false
            guard report(node.at("maxProperties"), "expected at most \(Describe.count(max, "property", "properties")), got \(members.count)") else { return false }
        }
        for (key, member) in members {
            let child: Int
            if let property = node.propertyIndex[key] {
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
            let ok = check(child, member)
            path.removeLast()
            if !ok {
                valid = false
                guard collecting else { return false }
            }
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
            guard report(node.at("pattern"), "expected a string matching /\(pattern.source)/, got \(Describe.brief(.string(s)))") else { return false }
        }
        return valid
    }

    private mutating func checkNumber(_ node: SchemaNode, _ n: Double) -> Bool {
        var valid = true
        let got = Describe.number(n)
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

    // MARK: - Applicators

    private mutating func checkApplicators(_ node: SchemaNode, _ value: GeneratedContent) -> Bool {
        var valid = true
        if let ref = node.ref, !check(ref, value) {
            valid = false
            guard collecting else { return false }
        }
        for branch in node.allOf where !check(branch, value) {
            valid = false
            guard collecting else { return false }
        }
        if !node.anyOf.isEmpty {
            if collecting {
                // One collecting run per alternative (stopping at the first that passes) rather
                // than a quick pass first: with recursive schemas the quick pass would be
                // repeated at every level of a deep instance.
                var outcomes: [[SchemaViolation]] = []
                for branch in node.anyOf {
                    let outcome = trial(branch, value)
                    if outcome.isEmpty { outcomes = []; break }
                    outcomes.append(outcome)
                }
                if !outcomes.isEmpty {
                    valid = false
                    reportAlternatives(node.anyOf, outcomes, at: node.at("anyOf"), value)
                }
            } else if !node.anyOf.contains(where: { passes($0, value) }) {
                return false
            }
        }
        if !node.oneOf.isEmpty {
            var outcomes: [[SchemaViolation]] = []
            var passing: [Int] = []
            for (i, branch) in node.oneOf.enumerated() {
                if collecting {
                    let outcome = trial(branch, value)
                    if outcome.isEmpty { passing.append(i) }
                    outcomes.append(outcome)
                } else if passes(branch, value) {
                    passing.append(i)
                    if passing.count > 1 { return false }
                }
            }
            if passing.count != 1 {
                valid = false
                guard collecting else { return false }
                if passing.isEmpty {
                    reportAlternatives(node.oneOf, outcomes, at: node.at("oneOf"), value)
                } else {
                    let which = passing.map(String.init).joined(separator: ", ")
                    _ = report(node.at("oneOf"), "matches \(passing.count) of the \(node.oneOf.count) alternatives (\(which)); expected exactly one")
                }
            }
        }
        if let not = node.not, passes(not, value) {
            valid = false
            let forbidden = nodes[not].pointer
            guard report(node.at("not"), "\(Describe.brief(value)) is not allowed here (it matches the schema at \(forbidden))") else { return false }
        }
        return valid
    }

    /// Quick yes/no check of another node against the same value.
    private func passes(_ index: Int, _ value: GeneratedContent) -> Bool {
        var quick = SchemaValidator(nodes: nodes, collecting: false)
        return quick.check(index, value)
    }

    /// The violations of node `index` against `value`, without keeping them.
    private mutating func trial(_ index: Int, _ value: GeneratedContent) -> [SchemaViolation] {
        let mark = violations.count
        _ = check(index, value)
        let outcome = Array(violations[mark...])
        violations.removeSubrange(mark...)
        return outcome
    }

    /// None of the alternatives matched: report the violations of the one alternative that is
    /// plainly closest (see `AlternativeRanking`), else a summary.
    private mutating func reportAlternatives(
        _ branches: [Int], _ outcomes: [[SchemaViolation]], at schemaPointer: String, _ value: GeneratedContent
    ) {
        let here = instancePointer
        // Alternatives that are plain constants read best as one list of allowed values.
        let constants = branches.compactMap { nodes[$0].constValue }
        if constants.count == branches.count, outcomes.allSatisfy({ $0.count == 1 && $0[0].instancePointer == here }) {
            _ = report(schemaPointer, Describe.enumMismatch(constants, value))
            return
        }
        if let closest = AlternativeRanking.closest(outcomes, at: here) {
            violations += outcomes[closest]
            return
        }
        let summaries = outcomes.prefix(6).enumerated().map { i, violations in
            let first = violations.first.map { v in
                v.instancePointer == here ? v.message : "\(v.instancePointer): \(v.message)"
            } ?? "invalid"
            return "(\(i + 1)) \(first)"
        }
        let more = outcomes.count > 6 ? "; …" : ""
        _ = report(schemaPointer, "matches none of \(branches.count) alternatives: \(summaries.joined(separator: "; "))\(more)")
    }
}
