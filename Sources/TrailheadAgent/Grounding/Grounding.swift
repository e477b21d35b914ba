import Foundation
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
        /// Where the values go in the answer: "/days/*/date"; nil when the agent, not the model,
        /// writes what they ground (a planner's dates, taken from the free days).
        public var field: String?
        /// The tool whose results supply them.
        public var tool: String
        /// Where the values are in one result of the tool: "/freeDays/*".
        public var values: String
        /// Distinct values that are enough for the answer: once the tool has returned that many,
        /// it is not offered again (the model answers instead of asking for more).
        public var enough: Int?
        /// The fewest distinct values the answer rests on (a place for each of six activities, five
        /// free days for a five-day trip). Fewer, and no answer is offered: the model is asked for
        /// a different call while one could help, else the response ends with a
        /// `GroundingFailure` saying what the tool said. Nil: one for a single value, none for an
        /// array's items ("/companions/*" may be empty), one for a rule without a field.
        public var atLeast: Int?
        /// Values the tool returns that never ground the field (hotels are not things to do).
        public var except: [Exclusion]
        /// Each value at most once in the answer's field (a different place for each activity).
        /// No grammar can say so (it would have to remember every value written), so an answer
        /// that repeats one is repaired, and the repair names the place of each repeat and the
        /// values the tool returned that the answer does not use yet, for the model to choose from.
        public var distinct: Bool

        public static func field(
            _ field: String, from tool: String, at values: String, enough: Int? = nil, atLeast: Int? = nil, except: [Exclusion] = [],
            distinct: Bool = false
        ) -> Rule {
            Rule(field: field, tool: tool, values: values, enough: enough, atLeast: atLeast, except: except, distinct: distinct)
        }

        /// Values the answer rests on though no field of it takes them: the agent fills in from
        /// them (the trip's dates from the free days), and without `atLeast` of them no answer
        /// is offered.
        public static func facts(from tool: String, at values: String, atLeast: Int) -> Rule {
            Rule(field: nil, tool: tool, values: values, enough: nil, atLeast: atLeast, except: [], distinct: false)
        }

        /// The fewest values the answer needs (see `atLeast`).
        var needed: Int {
            if let atLeast { return atLeast }
            guard let field else { return 1 }
            return field.hasSuffix("/*") ? 0 : 1
        }
    }

    /// Values of a tool's result left out of a rule.
    public enum Exclusion: Sendable, Equatable {
        /// These values, compared without case or accents (the destination itself).
        case values([String])
        /// The value at this pointer of the same result (the landmark a search was around:
        /// "/landmark/name").
        case valueAt(String)
        /// A value whose object has one of `values` at `member` (`.member("category", in:
        /// ["lodging", "town"])`): the rule's `values` path must end in a member name.
        case member(String, in: [String])
        /// A value whose object has `true` at `member` (`.flagged("destination")`: a place the
        /// tool marks as a destination in itself); the values path must end in a member name.
        case flagged(String)
    }

    /// A field of the answer the session writes from a tool's result, never the model: what a
    /// tool says about a value the model chose (a place's description, for the place it picked).
    /// A small model asked to describe a place makes facts up ("boat rentals and scuba diving
    /// lessons" at a marina the tool described truly); quoted, the facts are the tool's, and the
    /// model's part is its choice and a short reason. The field leaves the schema the model
    /// answers under (so it costs no tokens either) and must be optional in the answer's type.
    ///
    ///     .quote("/days/*/activities/*/about", from: "findPointsOfInterest", items: "/results/*",
    ///            member: "description", where: "name", equals: "place")
    ///
    /// writes into each activity's `about` the `description` of the result whose `name` is the
    /// activity's `place`; an activity whose place has none is left without.
    public struct Quote: Sendable, Equatable {
        /// The answer's field ("/days/*/activities/*/about"): a member of an object.
        public var field: String
        public var tool: String
        /// The tool's items ("/results/*"), the member quoted ("description"), the member that
        /// names an item ("name"), and the field's sibling naming the same ("place").
        public var items: String
        public var member: String
        public var match: String
        public var key: String

        public static func quote(_ field: String, from tool: String, items: String, member: String, where match: String, equals key: String) -> Quote {
            Quote(field: field, tool: tool, items: items, member: member, match: match, key: key)
        }
    }

    public var rules: [Rule]
    public var quotes: [Quote]

    public init(_ rules: [Rule] = [], quotes: [Quote] = []) {
        self.rules = rules
        self.quotes = quotes
    }

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
            let field = try rule.field.map { text throws(SessionSetupError) in
                guard let field = JSONPath(text) else {
                    throw SessionSetupError("grounding: \"\(text)\" is not a JSON pointer (the answer's field)")
                }
                return field
            }
            guard let output = tool.outputSchema else {
                throw SessionSetupError(
                    "grounding: tool \(rule.tool) declares no output schema, so \"\(rule.values)\" cannot be checked; declare its output (a Generable Output, or \"output\" in its manifest)")
            }
            guard !values.schemas(in: output.json).isEmpty else {
                throw SessionSetupError("grounding: tool \(rule.tool)'s output schema has no \"\(rule.values)\"; its output is \(output.promptDescription)")
            }
            if let answer, let field, field.schemas(in: answer.json).isEmpty {
                throw SessionSetupError("grounding: the answer's schema has no field \"\(field)\" (for tool \(rule.tool)); the answer is \(answer.promptDescription)")
            }
            for exclusion in rule.except {
                switch exclusion {
                case .valueAt(let pointer) where JSONPath(pointer) == nil:
                    throw SessionSetupError("grounding: \"\(pointer)\" is not a JSON pointer (an exclusion of tool \(rule.tool))")
                case .member(let member, _) where values.tokens.last == "*", .flagged(let member) where values.tokens.last == "*":
                    throw SessionSetupError(
                        "grounding: \"\(rule.values)\" ends in an array item, so its values have no member \"\(member)\" to exclude by (tool \(rule.tool))")
                default: break
                }
            }
            if rule.distinct, field == nil {
                throw SessionSetupError("grounding: a rule of tool \(rule.tool) without a field cannot be distinct")
            }
            rules.append(GroundingGuard.Rule(
                tool: rule.tool, target: field, enough: rule.enough, atLeast: rule.needed, valuesPath: rule.values, distinct: rule.distinct,
                extract: Self.extractor(values, except: rule.except)))
        }
        var quotes: [GroundingGuard.Quote] = []
        for quote in self.quotes {
            guard let tool = tools[quote.tool] else { continue }
            guard let field = JSONPath(quote.field), let member = field.tokens.last, member != "*", let items = JSONPath(quote.items) else {
                throw SessionSetupError("grounding: the quote \"\(quote.field)\" of \"\(quote.items)\" needs JSON pointers, the field a member of an object")
            }
            let parent = JSONPath(tokens: Array(field.tokens.dropLast()))
            if let answer {
                guard !field.schemas(in: answer.json).isEmpty, !parent.appending(quote.key).schemas(in: answer.json).isEmpty else {
                    throw SessionSetupError("grounding: the answer's schema has no field \"\(quote.field)\" beside \"\(quote.key)\" (for tool \(quote.tool)); the answer is \(answer.promptDescription)")
                }
            }
            if let output = tool.outputSchema, items.appending(quote.member).schemas(in: output.json).isEmpty {
                throw SessionSetupError("grounding: tool \(quote.tool)'s output schema has no \"\(quote.items)/\(quote.member)\"; its output is \(output.promptDescription)")
            }
            quotes.append(GroundingGuard.Quote(tool: quote.tool, parent: parent, member: member, key: quote.key, items: items, match: quote.match, quoted: quote.member))
        }
        return GroundingGuard(rules: rules, quotes: quotes, enabledTools: Set(tools.keys))
    }

    /// Pulls a rule's values out of one result, without those its exclusions leave out.
    static func extractor(_ values: JSONPath, except: [Exclusion]) -> @Sendable (GeneratedContent) -> [String] {
        guard !except.isEmpty else { return { values.strings(in: $0) } }
        let members = except.compactMap { exclusion -> (String, Set<String>)? in
            if case .member(let member, let excluded) = exclusion { (member, Set(excluded)) } else { nil }
        }
        let flags = except.compactMap { exclusion -> String? in if case .flagged(let member) = exclusion { member } else { nil } }
        let parent = JSONPath(tokens: Array(values.tokens.dropLast())), last = values.tokens.last ?? ""
        return { result in
            var excluded: Set<String> = []
            for exclusion in except {
                switch exclusion {
                case .values(let names): excluded.formUnion(names.map(fold))
                case .valueAt(let pointer): excluded.formUnion((JSONPath(pointer)?.strings(in: result) ?? []).map(fold))
                case .member, .flagged: break
                }
            }
            guard !members.isEmpty || !flags.isEmpty else { return values.strings(in: result).filter { !excluded.contains(fold($0)) } }
            return parent.values(in: result).compactMap { item in
                guard let value = item[last]?.stringValue, !excluded.contains(fold(value)) else { return nil }
                for (member, kinds) in members { if let kind = item[member]?.stringValue, kinds.contains(kind) { return nil } }
                for member in flags where item[member]?.boolValue == true { return nil }
                return value
            }
        }
    }

    /// A value as exclusions compare it: without case, accents or surrounding spaces.
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(in: .whitespaces)
    }
}

/// Why a response ended without an answer: a grounded field's tool failed or returned too few
/// values, and no other call could help (the call was the request's own, the same error came back
/// for other arguments, or the tool can no longer be called).
public struct GroundingFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tool, and what it said when it failed (its last error).
    public var tool: String
    public var error: String?
    /// Distinct values it returned, and how many the answer needs.
    public var found: Int
    public var needed: Int
    /// Where the values were looked for in its results ("/results/*/name"), and the answer's
    /// field they ground (nil for a rule without one).
    public var values: String
    public var field: String?

    public init(tool: String, error: String? = nil, found: Int, needed: Int, values: String, field: String? = nil) {
        self.tool = tool
        self.error = error
        self.found = found
        self.needed = needed
        self.values = values
        self.field = field
    }

    public var description: String {
        let grounds = field.map { "the answer's \($0)" } ?? "the answer"
        // A plugin's errors already name their tool ("tool 'x' failed: …").
        let failed = error.map { $0.hasPrefix("tool '\(tool)'") ? $0 : "\(tool) failed: \($0)" }
        if let failed, found == 0 { return "\(failed) (nothing to ground \(grounds) on, so there is no answer)" }
        let what = "\(tool) returned \(found) value\(found == 1 ? "" : "s") at \(values)"
        let said = failed.map { "; before that, \($0)" } ?? ""
        return "\(what), and \(grounds) needs at least \(needed)\(said)"
    }
}

/// A session that cannot start as configured (a tool clash, a grounding path no schema has, an
/// unknown plugin), with what is wrong.
public struct SessionSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
