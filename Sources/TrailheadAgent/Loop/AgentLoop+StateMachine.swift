import TrailheadModels
import TrailheadSchema

/// The agent loop's decisions, with no I/O: one method per event, each returning what to do.
///
/// ```
///        start ──▶ generate ──turn──▶ [parse] ──call(s)──▶ runTools ──outputs──▶ generate …
///                     ▲                 │  └──final, valid──▶ finish
///                     └──repair─────────┘  (unparsable, invalid arguments, unknown tool,
///                                           repeated call, invalid final — bounded)
/// ```
/// At the turn limit one last turn is offered with only the final branch. Cancellation and
/// model failures end the loop from any state. The driver (`AgentLoop`) performs the actions
/// and writes the transcript; this type can be tested event by event.
///
/// The step schema never leaves the model without a legal move: a tool whose arguments admit a
/// single value is left out once it has answered (asking again could only repeat it), and when no
/// tool is left to call the final answer is offered whatever the grounding still lacks. With no
/// tools at all the answer is not wrapped: the model writes the output schema itself.
struct AgentStateMachine: Sendable {
    typealias Limits = LanguageModelSession.Limits

    /// A tool the model may call, with its compiled argument schema.
    struct ToolSchema: Sendable {
        var name: String
        var arguments: GenerationSchema
        /// Whether a call only reads (`Tool.isReadOnly`): see `ToolDecision`.
        var isReadOnly = false
    }

    enum Action: Sendable, Equatable {
        /// Ask the model for turn `turn`, constrained to `schema`; `feedback` is the user message
        /// to append first (tool outputs or a repair), if any.
        case generate(turn: Int, schema: GeneratedContent, finalOnly: Bool)
        /// Run these calls (concurrently when several) and report with `toolsFinished`.
        case runTools(turn: Int, calls: [ToolCallRequest])
        /// Tell the model what was wrong and ask again (then `generate`).
        case repair(turn: Int, message: String, schema: GeneratedContent, finalOnly: Bool)
        case finish(GeneratedContent, turns: Int)
        case fail(String)
    }

    struct ToolOutcome: Sendable, Equatable {
        var call: ToolCallRequest
        var result: GeneratedContent?
        var error: String?
    }

    private enum State: Sendable {
        case idle
        case awaitingTurn(turn: Int, finalOnly: Bool)
        case runningTools(turn: Int, calls: [ToolCallRequest])
        case finished
    }

    private var state: State = .idle
    private let tools: [String: ToolSchema]
    private let toolOrder: [String]
    private let outputSchema: GeneratedContent
    private let limits: Limits
    private let mode: ToolCallingMode
    private let extraFinalCheck: @Sendable (GeneratedContent) -> [String]
    /// The instructions' examples, which the answer must not copy.
    private var exampleCopies: ExampleCopies
    private(set) var grounding: GroundingGuard
    /// Why the loop ended without an answer, when a grounded field could not be backed.
    private(set) var groundingFailure: GroundingFailure?
    private var repairs = 0
    private var callCounts: [ToolCallRequest: Int] = [:]
    /// What each call of a tool that may change something last returned when it succeeded.
    private var effects: [ToolCallRequest: GeneratedContent] = [:]
    /// Tools left out of the step schema: their one possible call has been answered, or the model
    /// repeated a call of theirs (until a change, `forgetAnswersAChangeMayHaveOutdated`).
    private var exhausted: Set<String> = []
    /// Turns whose calls ran.
    private var toolTurns = 0
    /// With tool search (`ToolSearch`), the search tool: the other tools are offered only once
    /// a search has found them.
    private let searchTool: String?
    /// Tools a search found.
    private var found: Set<String> = []
    /// A decision read from the model's probabilities went to a call (`commitToCall`) at the turn
    /// after this many tool turns: no answer at that turn.
    private var committedAt: Int?
    /// Turns after a tool answered that may still be committed to a call: one in a response, so a
    /// model that leans towards calling cannot be held in a chain of lookups.
    private var laterCommitments = 1
    /// Turns right after one whose every call failed that may still be committed to a call
    /// (`ToolDecision.afterFailureThreshold`): one in a response.
    private var retriesAfterFailure = 1
    /// Every call of the last tool turn failed: the model read only errors.
    private var lastTurnFailed = false
    /// The turn awaited follows a failed one, and the response's one retry is not spent.
    private var retriesAfterThisFailure: Bool { lastTurnFailed && retriesAfterFailure > 0 }
    /// The turn after this many tool turns must make at least this many calls, and offers no
    /// answer (`askForMoreCalls`).
    private var moreCalls: (turn: Int, links: Int)?
    /// The tools that call may be of, when not every tool offered (`ToolDecision.Outcome`).
    private var committedTools: [String]?
    /// Optional arguments left out of this turn's calls (`PlaceholderArguments`), by call.
    private(set) var dropped: [ToolCallRequest: [String]] = [:]
    /// Links of this turn's chain that were not run because their arguments are invalid, after a
    /// valid first link: the model reads why beside the results of the others.
    private(set) var refused: [ToolOutcome] = []

    /// - Parameters:
    ///   - mode: whether the model may, must or must not call tools in this response.
    ///   - extraFinalCheck: checks beyond the schema (e.g. distinct dates), returning problems.
    ///   - exampleCopies: the instructions' examples and the request, to refuse an answer that copies an example.
    init(
        tools: [ToolSchema], outputSchema: GeneratedContent, grounding: GroundingGuard, limits: Limits = Limits(),
        mode: ToolCallingMode = .allowed, extraFinalCheck: @escaping @Sendable (GeneratedContent) -> [String] = { _ in [] },
        exampleCopies: ExampleCopies = ExampleCopies(examples: [], request: ""), searchTool: String? = nil
    ) {
        self.exampleCopies = exampleCopies
        self.searchTool = searchTool
        // The search tool reads an index and changes nothing, whatever its schema says.
        self.tools = Dictionary(
            tools.map { tool in
                var tool = tool
                if tool.name == searchTool { tool.isReadOnly = true }
                return (tool.name, tool)
            }, uniquingKeysWith: { a, _ in a })
        self.toolOrder = tools.map(\.name)
        self.outputSchema = outputSchema
        self.grounding = grounding
        self.limits = limits
        self.mode = mode
        self.extraFinalCheck = extraFinalCheck
    }

    /// True when the model answers with the output schema itself (there are no tools).
    var answersDirectly: Bool { toolOrder.isEmpty }

    /// The tools the model may still call: not those whose one call was answered, nor those whose
    /// grounding has gathered enough values, nor any once the tool turns are spent or the mode
    /// disallows them; while a named tool has not been called, that tool alone.
    var offeredTools: [String] {
        if let budget = limits.maximumToolTurns, toolTurns >= budget { return [] }
        switch mode.kind {
        case .disallowed: return []
        case .named(let name) where toolTurns == 0: return toolOrder.contains(name) ? [name] : []
        default: break
        }
        let fulfilled = grounding.fulfilledTools
        let committed = committedAt == toolTurns ? committedTools.map(Set.init) : nil
        return toolOrder.filter {
            isFound($0) && !exhausted.contains($0) && !fulfilled.contains($0) && !choicesSpent($0) && committed?.contains($0) != false
        }
    }

    /// Whether the mode lets the model answer now: not before a tool has answered in this
    /// response when calls are required or a tool is named.
    private var modeAllowsAnswer: Bool {
        switch mode.kind {
        case .required, .named: toolTurns > 0
        case .allowed, .disallowed: committedAt != toolTurns && moreCalls?.turn != toolTurns
        }
    }

    /// The tools offered (and those of them that only read) at the turn the model is asked for
    /// now, when it decides between a call and the answer: the mode leaves the choice to the
    /// model and the step schema offers both; `later` once a tool has answered in this response.
    /// `afterFailure` when every call of the turn before failed. `nil` otherwise.
    var decision: ToolDecision.Moment? {
        guard case .awaitingTurn(_, let finalOnly) = state, !finalOnly, committedAt != toolTurns,
            toolTurns == 0 || laterCommitments > 0 || retriesAfterThisFailure, case .allowed = mode.kind
        else { return nil }
        let schema = stepSchema(finalOnly: false)
        guard !schema.tools.isEmpty, schema.final != nil else { return nil }
        let offered = schema.tools.map(\.name)
        return ToolDecision.Moment(
            offered: offered, readOnly: offered.filter { tools[$0]?.isReadOnly == true }, later: toolTurns > 0,
            afterFailure: retriesAfterThisFailure)
    }

    /// The decision goes to a call (of `only` these tools, when given): the turn awaited is
    /// asked again without the answer.
    mutating func commitToCall(only: [String]? = nil) -> Action {
        guard case .awaitingTurn(let turn, let finalOnly) = state else { return .fail("no turn to commit to a call") }
        if toolTurns > 0 {
            if retriesAfterThisFailure { retriesAfterFailure -= 1 } else { laterCommitments -= 1 }
        }
        committedAt = toolTurns
        committedTools = only
        return .generate(turn: turn, schema: stepSchema(finalOnly: finalOnly).json, finalOnly: finalOnly)
    }

    /// Whether the turn awaited could be asked again with more calls than `links`: it offers tools,
    /// one call a turn is not the rule, and the limit leaves room.
    func mayAskForMoreCalls(than links: Int) -> Bool {
        guard case .awaitingTurn(_, let finalOnly) = state, !finalOnly, links < limits.maximumCallsPerTurn else { return false }
        if case .named = mode.kind, toolTurns == 0 { return false }
        return !offeredTools.isEmpty
    }

    /// The turn awaited is asked again, its chain at least `links + 1` calls long and no answer
    /// offered (`ToolDecision.chainThreshold`).
    mutating func askForMoreCalls(than links: Int) -> Action {
        guard case .awaitingTurn(let turn, let finalOnly) = state else { return .fail("no turn to ask again") }
        moreCalls = (toolTurns, links + 1)
        return .generate(turn: turn, schema: stepSchema(finalOnly: finalOnly).json, finalOnly: finalOnly)
    }

    /// The step schema of a turn, given what is grounded so far. The answer is offered once the
    /// grounding and the mode allow it, and always when no tool is left to call (the model
    /// never lacks a legal move).
    func stepSchema(finalOnly: Bool) -> StepSchema {
        let offered = finalOnly ? [] : offeredTools
        // (Not a ternary with `nil`: GeneratedContent is nil-literal expressible, and would become `null`.)
        var final: GeneratedContent?
        if finalOnly || offered.isEmpty || (grounding.isSatisfied && modeAllowsAnswer) { final = grounding.narrow(outputSchema) }
        let single = if case .named = mode.kind, toolTurns == 0 { true } else { false }
        return StepSchema(
            tools: offered.map { StepSchema.ToolBranch(name: $0, arguments: remainingArguments(of: $0)) },
            final: final, maximumCalls: single ? 1 : limits.maximumCallsPerTurn,
            minimumCalls: single ? 1 : max(minimumCalls(offered), moreCalls.map { $0.turn == toolTurns ? $0.links : 1 } ?? 1),
            wrapsFinal: !answersDirectly)
    }

    /// The fewest calls the next turn must make: the limit's, while every tool offered is a
    /// single choice (places by kind, say) with that many values not yet asked; one otherwise.
    private func minimumCalls(_ offered: [String]) -> Int {
        guard limits.minimumCallsPerTurn > 1 else { return 1 }
        var possible = 0
        for name in offered {
            guard let (_, values) = Self.singleChoice(remainingArguments(of: name)) else { return 1 }
            possible += values.count
        }
        return possible >= limits.minimumCallsPerTurn ? limits.minimumCallsPerTurn : 1
    }

    /// A tool's argument schema without the choices already asked: when its one argument is an
    /// enum (the category of places to look for, say), the values already called leave it, and
    /// with none left the tool is not offered at all (see `offeredTools`).
    func remainingArguments(of name: String) -> GeneratedContent {
        let schema = tools[name]!.arguments.json
        guard let (member, values) = Self.singleChoice(schema) else { return schema }
        let asked = Set(callCounts.keys.filter { $0.tool == name }.compactMap { $0.arguments[member] })
        let left = values.filter { !asked.contains($0) }
        guard !left.isEmpty, left.count < values.count else { return schema }
        var edit = SchemaEdit(schema)
        edit.allow(left, at: JSONPath.root.appending(member))
        return edit.json
    }

    /// The member and its values, when a closed object schema's only member is a required enum.
    static func singleChoice(_ schema: GeneratedContent) -> (String, [GeneratedContent])? {
        guard schema["additionalProperties"] == false, case .object(let properties)? = schema["properties"], properties.count == 1,
            let name = properties.keys.first, let values = properties[name]?["enum"]?.arrayValue,
            schema["required"]?.arrayValue?.contains(.string(name)) == true
        else { return nil }
        return (name, values)
    }

    /// Calls made before the first turn (prefetched from the request): they count as made, and
    /// their results ground the answer, as if the model had asked for them.
    mutating func prefetched(_ outcomes: [ToolOutcome]) {
        for outcome in outcomes { record(outcome, prefetched: true) }
    }

    // MARK: - Events

    mutating func start() -> Action {
        guard case .idle = state else { return .fail("the loop was already started") }
        return ask(turn: 1)
    }

    /// The model answered turn `turn` with `parsed` (nil when its text was not JSON); `cutAt`
    /// is its token count when the token limit stopped it.
    mutating func modelAnswered(_ parsed: GeneratedContent?, text: String, cutAt: Int? = nil) -> Action {
        guard case .awaitingTurn(let turn, let finalOnly) = state else { return .fail("unexpected model turn") }
        if let cutAt, parsed == nil {
            return repair(turn: turn, finalOnly: finalOnly, "Your answer was cut at the token limit after \(cutAt) tokens, before its JSON closed. Answer again, shorter.")
        }
        guard let parsed else {
            return repair(turn: turn, finalOnly: finalOnly, "Your answer was not one JSON object. Answer with exactly one JSON object matching the schema.")
        }
        guard let step = answersDirectly ? .final(parsed) : Step(parsed) else {
            let keys = StepSchema.keys
            return repair(turn: turn, finalOnly: finalOnly, "Answer with {\"\(keys.call)\": …, \"\(keys.arguments)\": …} to call a tool or {\"\(keys.final)\": …} to finish.")
        }
        switch step {
        case .final(let content):
            if !finalOnly, !offeredTools.isEmpty {
                if !grounding.isSatisfied {
                    return repair(
                        turn: turn, finalOnly: false,
                        "Not yet: call \(grounding.missingTools.joined(separator: ", ")) first (again, with other arguments, where it found too little).")
                }
                if !modeAllowsAnswer { return repair(turn: turn, finalOnly: false, "Not yet: call \(offeredTools.joined(separator: " or ")) first.") }
            }
            let narrowed = grounding.narrow(outputSchema)
            var problems: [String] = []
            do {
                problems = try GenerationSchema(json: narrowed).validate(content).map(\.description)
            } catch {
                return fail("the output schema is invalid: \(error)")
            }
            problems += grounding.check(content) + extraFinalCheck(content)
            problems += exampleCopies.problems(in: content, schema: narrowed)
            if !problems.isEmpty {
                return repair(turn: turn, finalOnly: finalOnly, "Your final answer is invalid: " + problems.prefix(5).joined(separator: "; "))
            }
            state = .finished
            return .finish(grounding.quoting(content), turns: turn)
        case .call(let written):
            // Optional arguments filled with a placeholder are left out (said in the transcript).
            dropped = [:]
            refused = []
            let asked = written.map { call -> ToolCallRequest in
                guard let tool = tools[call.tool] else { return call }
                let (arguments, left) = PlaceholderArguments.drop(from: call.arguments, schema: tool.arguments.json)
                let cleaned = ToolCallRequest(tool: call.tool, arguments: arguments)
                if !left.isEmpty { dropped[cleaned, default: []] += left }
                return cleaned
            }
            // The same call twice in one turn runs once.
            var calls: [ToolCallRequest] = []
            for call in asked where !calls.contains(call) { calls.append(call) }
            if finalOnly { return repair(turn: turn, finalOnly: true, "No more tool calls: give your final answer now.") }
            if case .disallowed = mode.kind { return repair(turn: turn, finalOnly: false, "No tool calls in this answer: answer from what you know.") }
            let most = if case .named = mode.kind, toolTurns == 0 { 1 } else { limits.maximumCallsPerTurn }
            if calls.count > most {
                return repair(turn: turn, finalOnly: false, "At most \(most) call\(most == 1 ? "" : "s") in one answer; you made \(calls.count).")
            }
            var problems: [String] = []
            var repeated: [String] = []
            var valid: [ToolCallRequest] = []
            for call in calls {
                guard let problem = problem(with: call) else {
                    valid.append(call)
                    if callCounts[call, default: 0] >= limits.maximumRepeats { repeated.append(call.tool) }
                    continue
                }
                problems.append(problem)
                // A later link that fails does not cost the earlier ones: the valid links run, and
                // the model reads beside their results why the others did not.
                if valid.first == calls.first, calls.count > 1 {
                    refused.append(ToolOutcome(call: call, result: nil, error: "not called: \(problem)"))
                }
            }
            if !refused.isEmpty, refused.count == problems.count, !valid.isEmpty {
                problems = []
                calls = valid
            } else {
                refused = []
            }
            if problems.isEmpty, !repeated.isEmpty {
                // Asking again what it was told is no way forward: the tool leaves the step schema,
                // so the next turn offers only what can still help. Not counted as a repair:
                // each such turn removes a tool, so they end.
                exhausted.formUnion(repeated)
                let names = Array(Set(repeated)).sorted().joined(separator: ", ")
                return repair(turn: turn, finalOnly: false, "You already have the result of that call of \(names), above; \(names) is no longer offered.", counted: false)
            }
            if !problems.isEmpty { return repair(turn: turn, finalOnly: false, problems.joined(separator: "\n")) }
            for call in calls { callCounts[call, default: 0] += 1 }
            state = .runningTools(turn: turn, calls: calls)
            return .runTools(turn: turn, calls: calls)
        }
    }

    /// What is wrong with a call, or nil when it can be made.
    private func problem(with call: ToolCallRequest) -> String? {
        guard let tool = tools[call.tool] else { return "unknown tool \"\(call.tool)\"; the tools are \(toolOrder.joined(separator: ", "))" }
        guard isFound(call.tool) else { return "\(call.tool) has not been found yet: call \(searchTool ?? "") first" }
        let violations = tool.arguments.validate(call.arguments)
        guard violations.isEmpty else { return "\(call.tool) arguments: " + violations.prefix(5).map(\.description).joined(separator: "; ") }
        return nil
    }

    /// The calls of the current turn finished (in any order).
    mutating func toolsFinished(_ outcomes: [ToolOutcome]) -> Action {
        guard case .runningTools(let turn, _) = state else { return .fail("unexpected tool outputs") }
        lastTurnFailed = !outcomes.isEmpty && outcomes.allSatisfy { $0.error != nil }
        toolTurns += 1
        forgetAnswersAChangeMayHaveOutdated(by: outcomes)
        for outcome in outcomes { record(outcome) }
        commitToWhatTheSearchFound(outcomes)
        repairs = 0
        return ask(turn: turn + 1)
    }

    /// A search is the way to a call, not a step towards the answer: after a turn that only
    /// searched and whose query found tools that may still be called, the next turn calls one of
    /// them (or searches again). Behind `searchTools` the 1.5B model found `ls` and then answered
    /// "you can run `ls -a`". Tools found only by the request's words, or none that can still be
    /// called (`ls` already answered), leave the answer offered: the commitment is to what the
    /// search found, never to some other tool.
    private mutating func commitToWhatTheSearchFound(_ outcomes: [ToolOutcome]) {
        guard let searchTool, outcomes.allSatisfy({ $0.call.tool == searchTool && $0.error == nil }) else { return }
        let foundNow = Set(outcomes.filter { SearchToolsTool.queryFound($0.result) }.flatMap { SearchToolsTool.names(in: $0.result) })
        let callable = offeredTools.filter(foundNow.contains)
        guard !callable.isEmpty else { return }
        committedAt = toolTurns
        committedTools = callable + [searchTool]
    }

    /// What an earlier call answered stands only while nothing that may change what it read has
    /// run since: after a call to a tool not marked read-only (`Tool.isReadOnly`) that succeeded
    /// and did not return what the same call returned before, the calls made before may be made
    /// again (a repeat is no longer refused, a tool left out once its one call had answered or its
    /// choices were all asked comes back). "mv report.pdf temp" failed, "mkdir temp" succeeded:
    /// moving again is the way forward, not a repeat; `pwd` after a `cd` is a new question. This
    /// turn's own calls stay counted: asking them again at once would repeat them. A call that
    /// returns what it returned before changed nothing (`cd .` twice), so `ls`, `cd .`, `ls`, …
    /// cannot go round until the turn limit.
    private mutating func forgetAnswersAChangeMayHaveOutdated(by outcomes: [ToolOutcome]) {
        var changed = false
        for outcome in outcomes where outcome.error == nil && tools[outcome.call.tool]?.isReadOnly == false {
            let result = outcome.result ?? .null
            if effects[outcome.call] != result { changed = true }
            effects[outcome.call] = result
        }
        guard changed else { return }
        let now = outcomes.map(\.call)
        callCounts = callCounts.filter { now.contains($0.key) }
        exhausted = exhausted.filter { name in now.contains { $0.tool == name } }
    }

    /// Whether the model may see `name` yet: always without tool search; with it, the search
    /// tool and what it found.
    private func isFound(_ name: String) -> Bool {
        guard let searchTool else { return true }
        return name == searchTool || found.contains(name)
    }

    private mutating func record(_ outcome: ToolOutcome, prefetched: Bool = false) {
        if outcome.call.tool == searchTool { found.formUnion(SearchToolsTool.names(in: outcome.result).filter { tools[$0] != nil }) }
        callCounts[outcome.call, default: 0] = max(callCounts[outcome.call, default: 0], 1)
        grounding.record(tool: outcome.call.tool, result: outcome.result, error: outcome.error, prefetched: prefetched)
        exampleCopies.heard(outcome.result)
        exampleCopies.heard(outcome.error.map { .string($0) })
        if let tool = tools[outcome.call.tool], Self.fixedArguments(tool.arguments.json) != nil { exhausted.insert(tool.name) }
    }

    /// True when every value of a tool's single enum argument has been asked.
    private func choicesSpent(_ name: String) -> Bool {
        guard let (member, values) = Self.singleChoice(tools[name]!.arguments.json) else { return false }
        let asked = Set(callCounts.keys.filter { $0.tool == name }.compactMap { $0.arguments[member] })
        return values.allSatisfy(asked.contains)
    }

    /// The one arguments object a schema admits, when every member is a `const` (or there is
    /// none) and no other member is allowed; nil when the model has a choice to make.
    static func fixedArguments(_ schema: GeneratedContent) -> GeneratedContent? {
        guard schema["type"]?.stringValue == "object", schema["additionalProperties"] == false,
            case .object(let properties)? = schema["properties"]
        else { return nil }
        var fixed = JSONObject()
        for (name, property) in properties {
            guard let value = property["const"] else { return nil }
            fixed[name] = value
        }
        return .object(fixed)
    }

    /// The model's turn was stopped in a loop (see `RepetitionDetector`): the response ends,
    /// reported, rather than spending more turns that tend to loop the same way.
    mutating func modelRepeated(_ loop: RepetitionDetector.Loop) -> Action { fail(Self.repetitionMessage(loop)) }

    static func repetitionMessage(_ loop: RepetitionDetector.Loop) -> String {
        let piece = loop.piece.count > 60 ? String(loop.piece.prefix(60)) + "…" : loop.piece
        return "the model repeated \"\(piece)\" \(loop.repeats) times in a row; its turn was stopped there"
    }

    /// The model could not answer (a transport or server error after its own retries).
    mutating func modelFailed(_ message: String) -> Action { fail("the model failed: \(message)") }

    mutating func cancelled() -> Action { fail("cancelled") }

    // MARK: - Transitions

    private mutating func ask(turn: Int) -> Action {
        let finalOnly = turn >= limits.maximumTurns
        if let failure = ungrounded(finalOnly: finalOnly) { return fail(failure) }
        state = .awaitingTurn(turn: turn, finalOnly: finalOnly)
        return .generate(turn: turn, schema: stepSchema(finalOnly: finalOnly).json, finalOnly: finalOnly)
    }

    private mutating func repair(turn: Int, finalOnly: Bool, _ message: String, counted: Bool = true) -> Action {
        if counted { repairs += 1 }
        if repairs > limits.maximumRepairs {
            return fail("gave up after \(limits.maximumRepairs) repair turns; last problem: \(message)")
        }
        // A repair spends a turn: at the limit the next ask offers only the final branch.
        let nextTurn = turn + 1
        let nextFinalOnly = finalOnly || nextTurn >= limits.maximumTurns
        if let failure = ungrounded(finalOnly: nextFinalOnly) { return fail(failure) }
        state = .awaitingTurn(turn: nextTurn, finalOnly: nextFinalOnly)
        return .repair(turn: nextTurn, message: message, schema: stepSchema(finalOnly: nextFinalOnly).json, finalOnly: nextFinalOnly)
    }

    private mutating func fail(_ message: String) -> Action {
        state = .finished
        return .fail(message)
    }

    /// A grounded field no call offered in the next turn could back: the answer would run free.
    private func ungrounded(finalOnly: Bool) -> GroundingFailure? {
        grounding.failure(offering: finalOnly ? [] : Set(offeredTools))
    }

    private mutating func fail(_ failure: GroundingFailure) -> Action {
        groundingFailure = failure
        return fail(failure.description)
    }
}
