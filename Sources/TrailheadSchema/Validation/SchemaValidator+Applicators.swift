/// `$ref`, `allOf`, `anyOf`, `oneOf` and `not`: the keywords that apply other schemas to the
/// same value, and the choice of which failed alternative to blame.
extension SchemaValidator {
    mutating func checkApplicators(_ node: SchemaNode, _ value: GeneratedContent) -> Bool {
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
    private mutating func passes(_ index: Int, _ value: GeneratedContent) -> Bool {
        var quick = SchemaValidator(nestedIn: self)
        let passed = quick.check(index, value)
        if quick.exceededDepth { exceededDepth = true }
        return passed
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
