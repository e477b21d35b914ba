import TrailheadSchema

/// Decides, turn by turn, whether the final answer may be given and narrows it to facts (the
/// working half of `Grounding`).
///
/// A rule ties a tool's output to a field of the final answer: e.g. the free days of
/// `calendarFreeDays` become the only allowed values of `days/*/date`. The final branch is offered
/// once every rule's tool has answered — with values, with none, or with an error: a tool with
/// nothing to contribute must not leave the model without a way to finish (a solo trip with the
/// contacts tool enabled dead-ended that way). A field whose tool found nothing is left as the
/// schema has it, except an array of such values, which must then be empty.
struct GroundingGuard: Sendable {
    struct Rule: Sendable {
        /// The tool that grounds the field.
        var tool: String
        /// Where, in the output schema, the values go ("/days/*/date").
        var target: JSONPath
        /// Pulls the allowed values out of one successful result of `tool`.
        var extract: @Sendable (GeneratedContent) -> [String]
        /// Distinct values that are enough: once gathered, the tool is not offered again.
        var enough: Int?

        init(tool: String, target: JSONPath, enough: Int? = nil, extract: @escaping @Sendable (GeneratedContent) -> [String]) {
            self.tool = tool
            self.target = target
            self.enough = enough
            self.extract = extract
        }
    }

    var rules: [Rule]
    /// Values gathered so far, per rule, in first-seen order.
    private var values: [[String]]
    /// Whether the rule's tool has answered at least once (successfully or not).
    private var answered: [Bool]

    init(rules: [Rule], enabledTools: Set<String>) {
        self.rules = rules.filter { enabledTools.contains($0.tool) }
        self.values = Array(repeating: [], count: self.rules.count)
        self.answered = Array(repeating: false, count: self.rules.count)
    }

    /// Takes in one answer of `tool`: its result, or nil when it failed.
    mutating func record(tool: String, result: GeneratedContent?) {
        for (index, rule) in rules.enumerated() where rule.tool == tool {
            answered[index] = true
            guard let result else { continue }
            for value in rule.extract(result) where !values[index].contains(value) {
                values[index].append(value)
            }
        }
    }

    /// Tools every rule of which has gathered enough values.
    var fulfilledTools: Set<String> {
        var byTool: [String: Bool] = [:]
        for (rule, gathered) in zip(rules, values) {
            let done = rule.enough.map { gathered.count >= $0 } ?? false
            byTool[rule.tool] = (byTool[rule.tool] ?? true) && done
        }
        return Set(byTool.filter(\.value).keys)
    }

    /// True once every grounding tool has answered.
    var isSatisfied: Bool { answered.allSatisfy { $0 } }

    /// The tools still to be asked.
    var missingTools: [String] {
        var missing: [String] = []
        for (rule, done) in zip(rules, answered) where !done && !missing.contains(rule.tool) { missing.append(rule.tool) }
        return missing
    }

    /// The allowed values of each grounded field, keyed by its target path ("/days/*/date").
    var groundedValues: [String: [String]] {
        Dictionary(zip(rules, values).map { ($0.0.target.description, $0.1) }, uniquingKeysWith: { $0 + $1 })
    }

    /// `schema` with each grounded field restricted to the gathered values, wherever the field's
    /// path reaches (through `$ref`s and alternatives too: `Grounding` checks a rule's path the same
    /// way when the session starts).
    func narrow(_ schema: GeneratedContent) -> GeneratedContent {
        var edit = SchemaEdit(schema)
        for index in rules.indices where answered[index] {
            let target = rules[index].target
            if !values[index].isEmpty {
                edit.allow(values[index].map { .string($0) }, at: target)
            } else if target.tokens.last == "*" {
                // The array may hold nothing: its tool found no value for it.
                edit.count(0, at: JSONPath(tokens: target.tokens.dropLast()))
            }
        }
        return edit.json
    }
}
