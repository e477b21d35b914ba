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
            guard !values.schemas(in: output.json).isEmpty else {
                throw SessionSetupError("grounding: tool \(rule.tool)'s output schema has no \"\(rule.values)\"; its output is \(output.promptDescription)")
            }
            if let answer, field.schemas(in: answer.json).isEmpty {
                throw SessionSetupError("grounding: the answer's schema has no field \"\(rule.field)\" (for tool \(rule.tool)); the answer is \(answer.promptDescription)")
            }
            rules.append(GroundingGuard.Rule(tool: rule.tool, target: field, enough: rule.enough) { values.strings(in: $0) })
        }
        return GroundingGuard(rules: rules, enabledTools: Set(tools.keys))
    }
}

/// A session that cannot start as configured (a tool clash, a grounding path no schema has, an
/// unknown plugin), with what is wrong.
public struct SessionSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
