import TrailheadSchema

/// Decides, turn by turn, whether the final answer may be given and narrows it to facts.
///
/// A rule ties an information tool's output to a field of the final answer: e.g. the free days
/// of `calendarFreeDays` become the only allowed values of `days/*/date`. The final branch is
/// offered once every rule whose tool is enabled has been answered with at least one value.
public struct GroundingGuard: Sendable {
    public struct Rule: Sendable {
        /// The information tool that grounds the field.
        public var tool: String
        /// Where, in the output schema, the values go: property names, `*` for array items.
        public var target: [String]
        /// Pulls the allowed values out of one successful result of `tool`.
        public var extract: @Sendable (GeneratedContent) -> [String]

        public init(tool: String, target: [String], extract: @escaping @Sendable (GeneratedContent) -> [String]) {
            self.tool = tool
            self.target = target
            self.extract = extract
        }
    }

    public var rules: [Rule]
    /// Values gathered so far, per rule, in first-seen order.
    private var values: [[String]]

    public init(rules: [Rule], enabledTools: Set<String>) {
        self.rules = rules.filter { enabledTools.contains($0.tool) }
        self.values = Array(repeating: [], count: self.rules.count)
    }

    /// Takes in a successful tool result.
    public mutating func record(tool: String, result: GeneratedContent) {
        for (index, rule) in rules.enumerated() where rule.tool == tool {
            for value in rule.extract(result) where !values[index].contains(value) {
                values[index].append(value)
            }
        }
    }

    /// True once every enabled information tool has grounded its field.
    public var isSatisfied: Bool { values.allSatisfy { !$0.isEmpty } }

    /// The tools still to be asked, for the model's prompt.
    public var missingTools: [String] {
        zip(rules, values).filter { $0.1.isEmpty }.map(\.0.tool)
    }

    /// The allowed values of each grounded field, keyed by its target path ("days/*/date").
    public var groundedValues: [String: [String]] {
        Dictionary(zip(rules, values).map { ($0.0.target.joined(separator: "/"), $0.1) }, uniquingKeysWith: { $0 + $1 })
    }

    /// `schema` with each grounded field restricted to the gathered values.
    public func narrow(_ schema: GeneratedContent) -> GeneratedContent {
        var narrowed = schema
        for (rule, allowed) in zip(rules, values) where !allowed.isEmpty {
            narrowed = Self.restrict(narrowed, at: rule.target[...], to: allowed)
        }
        return narrowed
    }

    private static func restrict(_ schema: GeneratedContent, at path: ArraySlice<String>, to allowed: [String]) -> GeneratedContent {
        guard case .object(var object) = schema else { return schema }
        guard let head = path.first else {
            object["enum"] = .array(allowed.map { .string($0) })
            object["pattern"] = nil  // the enum is stricter, and keeps the grammar small
            return .object(object)
        }
        let rest = path.dropFirst()
        if head == "*" {
            if let items = object["items"] { object["items"] = restrict(items, at: rest, to: allowed) }
        } else if case .object(var properties)? = object["properties"], let property = properties[head] {
            properties[head] = restrict(property, at: rest, to: allowed)
            object["properties"] = .object(properties)
        }
        return .object(object)
    }
}
