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
public struct AgentStateMachine: Sendable {
    public struct Limits: Sendable {
        public var maximumTurns: Int
        public var maximumRepairs: Int
        public var maximumRepeats: Int
        public var maximumCallsPerTurn: Int
        public init(maximumTurns: Int = 10, maximumRepairs: Int = 3, maximumRepeats: Int = 1, maximumCallsPerTurn: Int = 1) {
            self.maximumTurns = maximumTurns
            self.maximumRepairs = maximumRepairs
            self.maximumRepeats = maximumRepeats
            self.maximumCallsPerTurn = maximumCallsPerTurn
        }
    }

    /// A tool the model may call, with its compiled argument schema.
    public struct ToolSchema: Sendable {
        public var name: String
        public var arguments: GenerationSchema
        public init(name: String, arguments: GenerationSchema) {
            self.name = name
            self.arguments = arguments
        }
    }

    public enum Action: Sendable, Equatable {
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

    public struct ToolOutcome: Sendable, Equatable {
        public var call: ToolCallRequest
        public var result: GeneratedContent?
        public var error: String?
        public init(call: ToolCallRequest, result: GeneratedContent?, error: String?) {
            self.call = call
            self.result = result
            self.error = error
        }
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
    private let extraFinalCheck: @Sendable (GeneratedContent) -> [String]
    public private(set) var grounding: GroundingGuard
    private var repairs = 0
    private var callCounts: [ToolCallRequest: Int] = [:]
    /// Tools left out of the step schema: their one possible call has been answered.
    private var exhausted: Set<String> = []

    /// - Parameter extraFinalCheck: checks beyond the schema (e.g. distinct dates), returning problems.
    public init(
        tools: [ToolSchema], outputSchema: GeneratedContent, grounding: GroundingGuard, limits: Limits = Limits(),
        extraFinalCheck: @escaping @Sendable (GeneratedContent) -> [String] = { _ in [] }
    ) {
        self.tools = Dictionary(tools.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        self.toolOrder = tools.map(\.name)
        self.outputSchema = outputSchema
        self.grounding = grounding
        self.limits = limits
        self.extraFinalCheck = extraFinalCheck
    }

    /// True when the model answers with the output schema itself (there are no tools).
    public var answersDirectly: Bool { toolOrder.isEmpty }

    /// The tools the model may still call.
    public var offeredTools: [String] { toolOrder.filter { !exhausted.contains($0) } }

    /// The step schema of a turn, given what is grounded so far.
    public func stepSchema(finalOnly: Bool) -> StepSchema {
        let offered = finalOnly ? [] : offeredTools
        // (Not a ternary with `nil`: GeneratedContent is nil-literal expressible, and would become `null`.)
        var final: GeneratedContent?
        if finalOnly || offered.isEmpty || grounding.isSatisfied { final = grounding.narrow(outputSchema) }
        return StepSchema(
            tools: offered.map { StepSchema.ToolBranch(name: $0, arguments: tools[$0]!.arguments.json) },
            final: final, maximumCalls: limits.maximumCallsPerTurn, wrapsFinal: !answersDirectly)
    }

    /// Calls made before the first turn (prefetched from the request): they count as made, and
    /// their results ground the answer, as if the model had asked for them.
    public mutating func prefetched(_ outcomes: [ToolOutcome]) {
        for outcome in outcomes { record(outcome) }
    }

    // MARK: - Events

    public mutating func start() -> Action {
        guard case .idle = state else { return .fail("the loop was already started") }
        return ask(turn: 1)
    }

    /// The model answered turn `turn` with `parsed` (nil when its text was not JSON); `cutAt`
    /// is its token count when the token limit stopped it.
    public mutating func modelAnswered(_ parsed: GeneratedContent?, text: String, cutAt: Int? = nil) -> Action {
        guard case .awaitingTurn(let turn, let finalOnly) = state else { return .fail("unexpected model turn") }
        if let cutAt, parsed == nil {
            return repair(turn: turn, finalOnly: finalOnly, "Your answer was cut at the token limit after \(cutAt) tokens, before its JSON closed. Answer again, shorter.")
        }
        guard let parsed else {
            return repair(turn: turn, finalOnly: finalOnly, "Your answer was not one JSON object. Answer with exactly one JSON object matching the schema.")
        }
        guard let step = answersDirectly ? .final(parsed) : Step(parsed) else {
            return repair(turn: turn, finalOnly: finalOnly, "Answer with {\"tool\": …, \"arguments\": …} to call a tool or {\"final\": …} to finish.")
        }
        switch step {
        case .final(let content):
            if !finalOnly, !grounding.isSatisfied, !offeredTools.isEmpty {
                return repair(turn: turn, finalOnly: false, "Not yet: call \(grounding.missingTools.joined(separator: ", ")) first.")
            }
            let narrowed = grounding.narrow(outputSchema)
            var problems: [String] = []
            do {
                problems = try GenerationSchema(json: narrowed).validate(content).map(\.description)
            } catch {
                return fail("the output schema is invalid: \(error)")
            }
            problems += extraFinalCheck(content)
            if !problems.isEmpty {
                return repair(turn: turn, finalOnly: finalOnly, "Your final answer is invalid: " + problems.prefix(5).joined(separator: "; "))
            }
            state = .finished
            return .finish(content, turns: turn)
        case .call(let calls):
            if finalOnly { return repair(turn: turn, finalOnly: true, "No more tool calls: give your final answer now.") }
            var problems: [String] = []
            for call in calls {
                guard let tool = tools[call.tool] else {
                    problems.append("unknown tool \"\(call.tool)\"; the tools are \(toolOrder.joined(separator: ", "))")
                    continue
                }
                let violations = tool.arguments.validate(call.arguments)
                if !violations.isEmpty {
                    problems.append("\(call.tool) arguments: " + violations.prefix(5).map(\.description).joined(separator: "; "))
                }
                if callCounts[call, default: 0] >= limits.maximumRepeats {
                    problems.append("you already called \(call.tool) with these arguments: use its result, or call another tool")
                }
            }
            if !problems.isEmpty { return repair(turn: turn, finalOnly: false, problems.joined(separator: "\n")) }
            for call in calls { callCounts[call, default: 0] += 1 }
            state = .runningTools(turn: turn, calls: calls)
            return .runTools(turn: turn, calls: calls)
        }
    }

    /// The calls of the current turn finished (in any order).
    public mutating func toolsFinished(_ outcomes: [ToolOutcome]) -> Action {
        guard case .runningTools(let turn, _) = state else { return .fail("unexpected tool outputs") }
        for outcome in outcomes { record(outcome) }
        repairs = 0
        return ask(turn: turn + 1)
    }

    private mutating func record(_ outcome: ToolOutcome) {
        callCounts[outcome.call, default: 0] = max(callCounts[outcome.call, default: 0], 1)
        grounding.record(tool: outcome.call.tool, result: outcome.result)
        if let tool = tools[outcome.call.tool], Self.fixedArguments(tool.arguments.json) != nil { exhausted.insert(tool.name) }
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

    /// The model could not answer (a transport or server error after its own retries).
    public mutating func modelFailed(_ message: String) -> Action { fail("the model failed: \(message)") }

    public mutating func cancelled() -> Action { fail("cancelled") }

    // MARK: - Transitions

    private mutating func ask(turn: Int) -> Action {
        let finalOnly = turn >= limits.maximumTurns
        state = .awaitingTurn(turn: turn, finalOnly: finalOnly)
        return .generate(turn: turn, schema: stepSchema(finalOnly: finalOnly).json, finalOnly: finalOnly)
    }

    private mutating func repair(turn: Int, finalOnly: Bool, _ message: String) -> Action {
        repairs += 1
        if repairs > limits.maximumRepairs {
            return fail("gave up after \(limits.maximumRepairs) repair turns; last problem: \(message)")
        }
        // A repair spends a turn: at the limit the next ask offers only the final branch.
        let nextTurn = turn + 1
        let nextFinalOnly = finalOnly || nextTurn >= limits.maximumTurns
        state = .awaitingTurn(turn: nextTurn, finalOnly: nextFinalOnly)
        return .repair(turn: nextTurn, message: message, schema: stepSchema(finalOnly: nextFinalOnly).json, finalOnly: nextFinalOnly)
    }

    private mutating func fail(_ message: String) -> Action {
        state = .finished
        return .fail(message)
    }
}
