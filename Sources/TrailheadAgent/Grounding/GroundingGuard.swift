import TrailheadSchema

/// Decides, turn by turn, whether the final answer may be given and narrows it to facts (the
/// working half of `Grounding`).
///
/// A rule ties a tool's output to a field of the final answer: e.g. the free days of
/// `calendarFreeDays` become the only allowed values of `days/*/date`. The final branch is offered
/// once every rule's tool has answered with the values the answer rests on (`Rule.atLeast`). A
/// rule whose tool failed or found too few is never left free — a small model then writes what it
/// likes ("Xqzzyville Beach" for an unknown landmark): the model is asked for a different call
/// while one could help, and otherwise the response ends with the tool's own words
/// (`failure(offering:)`). A different call cannot help when the failed call was the request's
/// own (prefetched), when the same error came back for other arguments, or when the tool is no
/// longer offered. A rule that may go without values (an array's items, "/companions/*") is backed
/// by none, and its array must then be empty: a solo trip with the contacts tool enabled must not
/// dead-end.
struct GroundingGuard: Sendable {
    struct Rule: Sendable {
        /// The tool that grounds the field.
        var tool: String
        /// Where, in the output schema, the values go ("/days/*/date"); nil for values the agent
        /// fills in itself.
        var target: JSONPath?
        /// Pulls the allowed values out of one successful result of `tool`.
        var extract: @Sendable (GeneratedContent) -> [String]
        /// Distinct values that are enough: once gathered, the tool is not offered again.
        var enough: Int?
        /// Distinct values the answer rests on.
        var atLeast: Int
        /// Where the values are in a result, for messages ("/results/*/name").
        var valuesPath: String
        /// Each value at most once in the answer (see `Grounding.Rule.distinct`).
        var distinct: Bool

        init(
            tool: String, target: JSONPath?, enough: Int? = nil, atLeast: Int? = nil, valuesPath: String = "", distinct: Bool = false,
            extract: @escaping @Sendable (GeneratedContent) -> [String]
        ) {
            self.tool = tool
            self.target = target
            self.enough = enough
            self.atLeast = atLeast ?? (target.map { $0.tokens.last == "*" ? 0 : 1 } ?? 1)
            self.valuesPath = valuesPath
            self.distinct = distinct
            self.extract = extract
        }
    }

    /// A field the session writes from a tool's items (see `Grounding.Quote`).
    struct Quote: Sendable {
        var tool: String
        /// The objects that get the member ("/days/*/activities/*"), the member ("about"), and
        /// their member naming an item ("place").
        var parent: JSONPath
        var member: String
        var key: String
        /// The tool's items ("/results/*"), their naming member ("name") and the one quoted.
        var items: JSONPath
        var match: String
        var quoted: String
    }

    var rules: [Rule]
    let quotes: [Quote]
    /// What each quote's tool said about each name, first answer first.
    private var sayings: [[String: GeneratedContent]]
    /// Values gathered so far, per rule, in first-seen order.
    private var values: [[String]]
    /// Whether the rule's tool has answered at least once (successfully or not).
    private var answered: [Bool]
    /// The errors of the rule's tool, in order.
    private var errors: [[String]]
    /// Whether a call made for the request (prefetched) failed.
    private var requestCallFailed: [Bool]
    /// Per distinct rule, the positions of its field pinned after an answer repeated a value
    /// (see `check(_:)`); empty until then.
    private var pins: [[Pin]]

    /// One position of a distinct field (the indices of its arrays, outermost first) and the
    /// values the next answer may put there.
    struct Pin: Sendable, Equatable {
        var indices: [Int]
        var allowed: [String]
    }

    init(rules: [Rule], quotes: [Quote] = [], enabledTools: Set<String>) {
        self.rules = rules.filter { enabledTools.contains($0.tool) }
        self.quotes = quotes.filter { enabledTools.contains($0.tool) }
        self.sayings = Array(repeating: [:], count: self.quotes.count)
        self.values = Array(repeating: [], count: self.rules.count)
        self.answered = Array(repeating: false, count: self.rules.count)
        self.errors = Array(repeating: [], count: self.rules.count)
        self.requestCallFailed = Array(repeating: false, count: self.rules.count)
        self.pins = Array(repeating: [], count: self.rules.count)
    }

    /// Takes in one answer of `tool`: its result, or nil and its error when it failed;
    /// `prefetched` when the call was the request's own.
    mutating func record(tool: String, result: GeneratedContent?, error: String? = nil, prefetched: Bool = false) {
        for (index, quote) in quotes.enumerated() where quote.tool == tool {
            for item in result.map(quote.items.values(in:)) ?? [] {
                guard let name = item[quote.match]?.stringValue, let said = item[quote.quoted], sayings[index][name] == nil else { continue }
                sayings[index][name] = said
            }
        }
        for (index, rule) in rules.enumerated() where rule.tool == tool {
            answered[index] = true
            guard let result else {
                errors[index].append(error ?? "unknown error")
                if prefetched { requestCallFailed[index] = true }
                continue
            }
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

    /// Whether rule `index` has the values the answer rests on.
    private func isBacked(_ index: Int) -> Bool { answered[index] && values[index].count >= rules[index].atLeast }

    /// True once every grounding tool has answered with the values the answer rests on.
    var isSatisfied: Bool { rules.indices.allSatisfy(isBacked) }

    /// The tools still to be asked: not yet, or again (they found too few).
    var missingTools: [String] {
        var missing: [String] = []
        for index in rules.indices where !isBacked(index) && !missing.contains(rules[index].tool) { missing.append(rules[index].tool) }
        return missing
    }

    /// The first rule that has answered without what the answer rests on, when no call of the
    /// tools `offered` could still help (see the type's comment); nil while the answer may yet be
    /// backed.
    func failure(offering offered: Set<String>) -> GroundingFailure? {
        for index in rules.indices where answered[index] && !isBacked(index) {
            let rule = rules[index]
            let last = errors[index].last
            let sameErrorAgain = last.map { error in errors[index].filter { $0 == error }.count > 1 } ?? false
            if offered.contains(rule.tool), !requestCallFailed[index], !sameErrorAgain { continue }
            return GroundingFailure(
                tool: rule.tool, error: last, found: values[index].count, needed: rule.atLeast, values: rule.valuesPath,
                field: rule.target?.description)
        }
        return nil
    }

    /// `schema` with each grounded field restricted to the gathered values, wherever the field's
    /// path reaches (through `$ref`s and alternatives too: `Grounding` checks a rule's path the same
    /// way when the session starts).
    func narrow(_ schema: GeneratedContent) -> GeneratedContent {
        var edit = SchemaEdit(schema)
        // Quoted fields are the session's to write.
        for quote in quotes { edit.remove([quote.member], at: quote.parent) }
        for index in rules.indices where answered[index] {
            guard let target = rules[index].target else { continue }
            if !values[index].isEmpty {
                edit.allow(values[index].map { .string($0) }, at: target)
            } else if target.tokens.last == "*" {
                // The array may hold nothing: its tool found no value for it.
                edit.count(0, at: JSONPath(tokens: target.tokens.dropLast()))
            }
        }
        var json = edit.json
        for (rule, pinned) in zip(rules, pins) where !pinned.isEmpty {
            guard let target = rule.target else { continue }
            json = Self.pinning(json, root: json, path: target.tokens[...], pins: pinned)
        }
        return json
    }

    /// Checks what an answer's schema cannot say: a distinct field's value written more than once.
    /// Each problem names where the repeat is, where the value was first, and the gathered values
    /// the answer does not use yet (the first 8), for the model to pick from. Told so, the 1.5B
    /// model still wrote the same answer three times (a 5-day Edinburgh trip), so the next turns'
    /// schema is pinned as well (`narrow`): every place the answer gave first stays as it is, and
    /// each repeat may take only values it does not use (shared out among the repeats when there
    /// are several), so the next answer cannot repeat one. A narrowing only of this field's
    /// positions, through `prefixItems`; the model still writes its texts and picks the new value.
    mutating func check(_ answer: GeneratedContent) -> [String] {
        var problems: [String] = []
        for (index, rule) in rules.enumerated() where rule.distinct {
            guard let target = rule.target else { continue }
            let written = Self.occurrences(of: target.tokens[...], in: answer, at: [], indices: [])
            var first: [String: String] = [:]
            var repeats: [String] = []
            var repeated: [[Int]] = []
            var pinned: [Pin] = []
            for occurrence in written {
                if let earlier = first[occurrence.value] {
                    repeats.append("\(occurrence.pointer): \"\(occurrence.value)\" is already at \(earlier)")
                    repeated.append(occurrence.indices)
                } else {
                    first[occurrence.value] = occurrence.pointer
                    pinned.append(Pin(indices: occurrence.indices, allowed: [occurrence.value]))
                }
            }
            guard !repeats.isEmpty else { continue }
            let unused = values[index].filter { first[$0] == nil }
            if unused.count >= repeated.count {
                for (position, indices) in repeated.enumerated() {
                    let share = unused.enumerated().filter { $0.offset % repeated.count == position }.map(\.element)
                    pinned.append(Pin(indices: indices, allowed: share))
                }
                pins[index] = pinned
            }
            let choice = unused.isEmpty
                ? "every value \(rule.tool) returned is already used"
                : "not used yet: " + unused.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ") + (unused.count > 8 ? ", …" : "")
            problems.append("\(repeats.joined(separator: "; ")) (each \(target) must be different); \(choice)")
        }
        return problems
    }

    /// The strings at `path` in `content`, each with its JSON pointer ("/days/2/activities/0/place")
    /// and the indices of its arrays ([2, 0]).
    private static func occurrences(
        of path: ArraySlice<String>, in content: GeneratedContent, at pointer: [String], indices: [Int]
    ) -> [(pointer: String, indices: [Int], value: String)] {
        guard let token = path.first else { return content.stringValue.map { [(JSONPath(tokens: pointer).description, indices, $0)] } ?? [] }
        switch content {
        case .array(let items) where token == "*":
            return items.enumerated().flatMap { occurrences(of: path.dropFirst(), in: $1, at: pointer + [String($0)], indices: indices + [$0]) }
        case .object(let object):
            return object[token].map { occurrences(of: path.dropFirst(), in: $0, at: pointer + [token], indices: indices) } ?? []
        default: return []
        }
    }

    /// `schema` with the arrays along `path` given item by item (`prefixItems`, `items` kept for
    /// any further items) down to the pinned positions, whose field allows only their values.
    /// Follows `$ref`s (into a copy) and alternatives.
    private static func pinning(_ schema: GeneratedContent, root: GeneratedContent, path: ArraySlice<String>, pins: [Pin]) -> GeneratedContent {
        guard !pins.isEmpty, case .object(var node) = schema else { return schema }
        if case .string(let reference)? = node["$ref"], reference.hasPrefix("#"), let tokens = JSONPointer.tokens(String(reference.dropFirst())) {
            var target: GeneratedContent? = root
            for token in tokens { target = target?[token] }
            return target.map { pinning($0, root: root, path: path, pins: pins) } ?? schema
        }
        for key in ["anyOf", "oneOf"] {
            if case .array(let alternatives)? = node[key] {
                node[key] = .array(alternatives.map { pinning($0, root: root, path: path, pins: pins) })
            }
        }
        guard let token = path.first else {
            // The field itself: one pin reaches it.
            node["enum"] = .array((pins.first?.allowed ?? []).map { .string($0) })
            return .object(node)
        }
        if token == "*", let items = node["items"] {
            let count = (pins.compactMap(\.indices.first).max() ?? -1) + 1
            node["prefixItems"] = .array((0..<count).map { position in
                let inside = pins.filter { $0.indices.first == position }.map { Pin(indices: Array($0.indices.dropFirst()), allowed: $0.allowed) }
                return pinning(items, root: root, path: path.dropFirst(), pins: inside)
            })
        } else if case .object(var properties)? = node["properties"], let member = properties[token] {
            properties[token] = pinning(member, root: root, path: path.dropFirst(), pins: pins)
            node["properties"] = .object(properties)
        }
        return .object(node)
    }

    /// `answer` with each quoted field written from what its tool said about the object's key
    /// (an object whose key the tool said nothing about is left as it was).
    func quoting(_ answer: GeneratedContent) -> GeneratedContent {
        var content = answer
        for (quote, said) in zip(quotes, sayings) where !said.isEmpty {
            content = Self.editing(content, at: quote.parent.tokens[...]) { object in
                guard let name = object[quote.key]?.stringValue, let value = said[name] else { return }
                object[quote.member] = value
            }
        }
        return content
    }

    /// `content` with every object at `path` (whose `*` stands for each item) changed.
    private static func editing(_ content: GeneratedContent, at path: ArraySlice<String>, _ change: (inout JSONObject) -> Void) -> GeneratedContent {
        guard let token = path.first else {
            guard case .object(var object) = content else { return content }
            change(&object)
            return .object(object)
        }
        switch content {
        case .array(let items) where token == "*": return .array(items.map { editing($0, at: path.dropFirst(), change) })
        case .object(var object):
            guard let member = object[token] else { return content }
            object[token] = editing(member, at: path.dropFirst(), change)
            return .object(object)
        default: return content
        }
    }
}
