import Testing
import TrailheadSchema
import TripPlanner
@testable import TrailheadAgent

/// The loop's decisions, event by event, for a small trip-like session.
@Suite struct AgentStateMachineTests {
    let calendarArgs = try! GenerationSchema(json: [
        "type": "object", "properties": ["start": ["type": "string"], "end": ["type": "string"]],
        "required": ["start", "end"], "additionalProperties": false,
    ])
    let poiArgs = try! GenerationSchema(json: [
        "type": "object", "properties": ["landmark": ["type": "string"], "limit": ["type": "integer", "maximum": 50]],
        "required": ["landmark"], "additionalProperties": false,
    ])

    /// Two days, one activity each: a date and a place per day, grounded by the tools.
    let answer = SchemaBuilder.object(properties: [
        "title": .string(), "destination": .string(), "description": .string(), "rationale": .string(),
        "days": .array(of: .object(properties: [
            "date": .string(),
            "activities": .array(of: .object(properties: ["time": .string(), "place": .string(), "category": .string(), "note": .string()]), count: 1),
        ]), count: 2),
    ]).declaredSchema

    func machine(maximumTurns: Int = 10, calendar: GenerationSchema? = nil) -> AgentStateMachine {
        let guardrail = GroundingGuard(
            rules: [
                .init(tool: "calendarFreeDays", target: ["days", "*", "date"]) { JSONPath("/freeDays/*")!.strings(in: $0) },
                .init(tool: "findPointsOfInterest", target: ["days", "*", "activities", "*", "place"]) { JSONPath("/results/*/name")!.strings(in: $0) },
            ], enabledTools: ["calendarFreeDays", "findPointsOfInterest"])
        return AgentStateMachine(
            tools: [.init(name: "calendarFreeDays", arguments: calendar ?? calendarArgs), .init(name: "findPointsOfInterest", arguments: poiArgs)],
            outputSchema: answer.json, grounding: guardrail,
            limits: .init(maximumTurns: maximumTurns), extraFinalCheck: Itinerary.check)
    }

    let freeDays: GeneratedContent = ["timeZone": "America/Los_Angeles", "freeDays": ["2026-12-19", "2026-12-20", "2026-12-21"], "busyDays": []]
    let places: GeneratedContent = ["landmark": ["name": "Joshua Tree National Park", "latitude": 34, "longitude": -116],
                                    "results": [["name": "Barker Dam Nature Trail", "category": "hike", "latitude": 34.02, "longitude": -116.14, "distanceKm": 3.1],
                                                ["name": "Skull Rock Nature Trail", "category": "hike", "latitude": 34.0, "longitude": -116.06, "distanceKm": 2.8]]]

    /// A final answer visiting `places` in turn, one a day.
    func final(dates: [String], places: [String] = ["Barker Dam Nature Trail", "Skull Rock Nature Trail"]) -> GeneratedContent {
        ["answer": [
            "title": "Desert Days", "destination": "Joshua Tree National Park", "description": "Rocks and stars in the desert.",
            "rationale": "Both days are free this month.",
            "days": .array(dates.enumerated().map { index, date in
                ["date": .string(date), "activities": [["time": "morning", "place": .string(places[index % places.count]), "category": "hike", "note": "An easy loop at dawn."]]]
            }),
        ]]
    }

    @Test func firstTurnOffersOnlyToolsUntilGrounded() throws {
        var m = machine()
        guard case .generate(1, let schema, false) = m.start() else { Issue.record("expected generate"); return }
        // No answer yet: the first call of at most 8 (a branch per tool, each of which may hold the next call).
        #expect(schema["$ref"]?.stringValue == "#/$defs/call8")
        let branches = schema["$defs"]?["call8"]?["anyOf"]?.arrayValue ?? []
        #expect(branches.compactMap { $0["properties"]?["name"]?["const"]?.stringValue } == ["calendarFreeDays", "findPointsOfInterest"])
        #expect(branches.allSatisfy { $0["properties"]?["and"]?["$ref"] == "#/$defs/call7" })
        #expect(!schema.jsonString.contains("\"answer\""))
    }

    @Test func finalBeforeToolsAnsweredIsRepaired() {
        var m = machine()
        _ = m.start()
        let action = m.modelAnswered(final(dates: ["2026-12-19", "2026-12-20"]), text: "")
        guard case .repair(2, let message, _, false) = action else { Issue.record("expected repair, got \(action)"); return }
        #expect(message.contains("calendarFreeDays"))
        #expect(message.contains("findPointsOfInterest"))
    }

    @Test func aValidCallRunsAndItsOutputGroundsTheFinalBranch() throws {
        var m = machine()
        _ = m.start()
        let cal = ToolCallRequest(tool: "calendarFreeDays", arguments: ["start": "2026-12-01", "end": "2026-12-31"])
        #expect(m.modelAnswered(["name": "calendarFreeDays", "arguments": cal.arguments], text: "") == .runTools(turn: 1, calls: [cal]))
        guard case .generate(2, let schema2, false) = m.toolsFinished([.init(call: cal, result: freeDays, error: nil)]) else { Issue.record("expected generate"); return }
        #expect(!schema2.jsonString.contains("\"answer\""), "POIs are still missing")
        let poi = ToolCallRequest(tool: "findPointsOfInterest", arguments: ["landmark": "Joshua Tree National Park"])
        #expect(m.modelAnswered(["name": "findPointsOfInterest", "arguments": poi.arguments], text: "") == .runTools(turn: 2, calls: [poi]))
        guard case .generate(3, let schema3, false) = m.toolsFinished([.init(call: poi, result: places, error: nil)]) else { Issue.record("expected generate"); return }
        // The final branch is offered, with dates and places narrowed to the tools' values.
        let step = try GenerationSchema(json: schema3)
        #expect(step.validate(final(dates: ["2026-12-19", "2026-12-20"])).isEmpty)
        #expect(!step.validate(final(dates: ["2026-12-19", "2026-12-25"])).isEmpty, "an invented date is outside the enum")
        #expect(!step.validate(final(dates: ["2026-12-19", "2026-12-20"], places: ["Barker Dam Nature Trail", "Made-up Falls"])).isEmpty)
        guard case .finish(_, turns: 3) = m.modelAnswered(final(dates: ["2026-12-19", "2026-12-20"]), text: "") else { Issue.record("expected finish"); return }
    }

    @Test func invalidArgumentsUnknownToolsAndRepeatsAreFedBack() {
        var m = machine()
        _ = m.start()
        guard case .repair(_, let badArgs, _, _) = m.modelAnswered(["name": "findPointsOfInterest", "arguments": ["landmark": "X", "limit": 500]], text: "") else { Issue.record("expected repair"); return }
        #expect(badArgs.contains("/limit"))
        guard case .repair(_, let unknown, _, _) = m.modelAnswered(["name": "weather", "arguments": [:]], text: "") else { Issue.record("expected repair"); return }
        #expect(unknown.contains("unknown tool \"weather\""))
        let poi = ToolCallRequest(tool: "findPointsOfInterest", arguments: ["landmark": "X"])
        #expect(m.modelAnswered(["name": "findPointsOfInterest", "arguments": poi.arguments], text: "") == .runTools(turn: 3, calls: [poi]))
        _ = m.toolsFinished([.init(call: poi, result: places, error: nil)])
        guard case .repair(_, let repeated, _, _) = m.modelAnswered(["name": "findPointsOfInterest", "arguments": poi.arguments], text: "") else { Issue.record("expected repair"); return }
        #expect(repeated.contains("already have the result"))
        // The repeated tool leaves the step schema: the next turn cannot repeat it again.
        #expect(!m.offeredTools.contains("findPointsOfInterest"))
    }

    @Test func choicesAlreadyAskedLeaveTheEnum() throws {
        let byCategory = try GenerationSchema(json: [
            "type": "object", "properties": ["category": ["enum": ["hike", "museum"]]], "required": ["category"], "additionalProperties": false,
        ])
        var m = AgentStateMachine(
            tools: [.init(name: "places", arguments: byCategory, isReadOnly: true)], outputSchema: ["type": "string"],
            grounding: GroundingGuard(rules: [], enabledTools: []))
        _ = m.start()
        let hike = ToolCallRequest(tool: "places", arguments: ["category": "hike"])
        _ = m.modelAnswered(["name": "places", "arguments": hike.arguments], text: "")
        guard case .generate(2, let schema, _) = m.toolsFinished([.init(call: hike, result: ["results": []], error: nil)]) else {
            Issue.record("expected generate"); return
        }
        #expect(schema.jsonString.contains(#""enum":["museum"]"#), "\(schema.jsonString)")
        let museum = ToolCallRequest(tool: "places", arguments: ["category": "museum"])
        _ = m.modelAnswered(["name": "places", "arguments": museum.arguments], text: "")
        _ = m.toolsFinished([.init(call: museum, result: ["results": []], error: nil)])
        #expect(m.offeredTools.isEmpty, "every category asked: only the answer is left")
    }

    /// Tools that change things (a file system's, as BFCL's conversations have): after a call that
    /// succeeded, what was asked before may be asked again; an immediate repeat is still refused.
    @Test func aChangeLetsEarlierCallsBeMadeAgain() throws {
        let path = try GenerationSchema(json: [
            "type": "object", "properties": ["path": ["type": "string"]], "required": ["path"], "additionalProperties": false,
        ])
        let move = try GenerationSchema(json: [
            "type": "object", "properties": ["source": ["type": "string"], "destination": ["type": "string"]],
            "required": ["source", "destination"], "additionalProperties": false,
        ])
        let nothing = try GenerationSchema(json: ["type": "object", "properties": [:], "additionalProperties": false])
        var m = AgentStateMachine(
            tools: [.init(name: "mv", arguments: move), .init(name: "mkdir", arguments: path), .init(name: "pwd", arguments: nothing, isReadOnly: true)],
            outputSchema: ["type": "string"], grounding: GroundingGuard(rules: [], enabledTools: []))
        _ = m.start()
        func call(_ request: ToolCallRequest) -> AgentStateMachine.Action { m.modelAnswered(["name": .string(request.tool), "arguments": request.arguments], text: "") }
        let mv = ToolCallRequest(tool: "mv", arguments: ["source": "report.pdf", "destination": "temp"])
        let mkdir = ToolCallRequest(tool: "mkdir", arguments: ["path": "temp"])
        let pwd = ToolCallRequest(tool: "pwd", arguments: [:])

        #expect(call(pwd) == .runTools(turn: 1, calls: [pwd]))
        _ = m.toolsFinished([.init(call: pwd, result: ["current_working_directory": "/"], error: nil)])
        #expect(!m.offeredTools.contains("pwd"), "its one call has answered")
        #expect(call(mv) == .runTools(turn: 2, calls: [mv]))
        _ = m.toolsFinished([.init(call: mv, result: nil, error: "mv: no such directory: temp")])
        guard case .repair(_, let repeated, _, _) = call(mv) else { Issue.record("a failed call changed nothing: moving again is a repeat"); return }
        #expect(repeated.contains("already have the result"))
        #expect(!m.offeredTools.contains("mv"))

        #expect(call(mkdir) == .runTools(turn: 4, calls: [mkdir]))
        _ = m.toolsFinished([.init(call: mkdir, result: nil, error: nil)])
        #expect(m.offeredTools == ["mv", "mkdir", "pwd"], "the folder is made: every earlier question may be asked again")
        #expect(call(mv) == .runTools(turn: 5, calls: [mv]))
        _ = m.toolsFinished([.init(call: mv, result: nil, error: nil)])
        guard case .repair = call(mv) else { Issue.record("the call that just ran, at once again, is a repeat"); return }

        // A call that returns what it returned before changed nothing: mkdir again (its first
        // result) leaves pwd answered.
        #expect(call(pwd) == .runTools(turn: 7, calls: [pwd]))
        _ = m.toolsFinished([.init(call: pwd, result: ["current_working_directory": "/"], error: nil)])
        #expect(call(mkdir) == .runTools(turn: 8, calls: [mkdir]))
        _ = m.toolsFinished([.init(call: mkdir, result: nil, error: nil)])
        #expect(!m.offeredTools.contains("pwd"), "nothing changed: its one call has still answered")
    }

    /// After a search whose query found tools that can still be called, the next turn calls one of
    /// them or searches again; a search that found only a tool already answered leaves the answer
    /// offered and commits to nothing else.
    @Test func aSearchCommitsTheNextTurnToWhatItFound() throws {
        let query = try GenerationSchema(json: [
            "type": "object", "properties": ["query": ["type": "string"]], "required": ["query"], "additionalProperties": false,
        ])
        let text = try GenerationSchema(json: [
            "type": "object", "properties": ["content": ["type": "string"]], "required": ["content"], "additionalProperties": false,
        ])
        let nothing = try GenerationSchema(json: ["type": "object", "properties": [:], "additionalProperties": false])
        var m = AgentStateMachine(
            tools: [.init(name: "searchTools", arguments: query), .init(name: "ls", arguments: nothing), .init(name: "post", arguments: text)],
            outputSchema: ["type": "string"], grounding: GroundingGuard(rules: [], enabledTools: []), searchTool: "searchTools")
        _ = m.start()
        func search(_ words: String, finds names: [String]) -> AgentStateMachine.Action {
            let call = ToolCallRequest(tool: "searchTools", arguments: ["query": .string(words)])
            _ = m.modelAnswered(["name": "searchTools", "arguments": call.arguments], text: "")
            return m.toolsFinished([.init(call: call, result: ["tools": .array(names.map { ["name": .string($0), "usage": .string($0 + "()")] })], error: nil)])
        }
        guard case .generate(_, let afterSearch, _) = search("post", finds: ["post"]) else { Issue.record("expected generate"); return }
        #expect(afterSearch["properties"]?["answer"] == nil && !afterSearch.jsonString.contains(#""answer""#), "found post: the turn calls")
        #expect(m.offeredTools == ["searchTools", "post"])
        let ls = ToolCallRequest(tool: "ls", arguments: [:])
        guard case .generate = search("list", finds: ["ls"]) else { Issue.record("expected generate"); return }
        #expect(m.offeredTools == ["searchTools", "ls"], "the commitment is to what this search found")
        _ = m.modelAnswered(["name": "ls", "arguments": [:]], text: "")
        _ = m.toolsFinished([.init(call: ls, result: ["files": ["a.txt"]], error: nil)])
        guard case .generate(_, let afterUseless, _) = search("list files", finds: ["ls"]) else { Issue.record("expected generate"); return }
        #expect(afterUseless.jsonString.contains(#""answer""#), "ls has answered: nothing found can be called, the answer is offered")
        #expect(m.offeredTools == ["searchTools", "post"], "and post is not forced")
    }

    @Test func repairsAreBounded() {
        var m = machine()
        _ = m.start()
        var last: AgentStateMachine.Action = .fail("")
        for _ in 0..<4 { last = m.modelAnswered(nil, text: "not json") }
        guard case .fail(let message) = last else { Issue.record("expected fail, got \(last)"); return }
        #expect(message.contains("repair"))
    }

    @Test func atTheTurnLimitOnlyTheFinalBranchIsOffered() {
        var m = machine(maximumTurns: 2)
        _ = m.start()
        let cal = ToolCallRequest(tool: "calendarFreeDays", arguments: ["start": "2026-12-01", "end": "2026-12-31"])
        _ = m.modelAnswered(["name": "calendarFreeDays", "arguments": cal.arguments], text: "")
        guard case .generate(2, let schema, true) = m.toolsFinished([.init(call: cal, result: freeDays, error: nil)]) else { Issue.record("expected final-only turn"); return }
        #expect(schema["properties"]?["answer"] != nil, "only the final branch: \(schema.jsonString.prefix(200))")
        guard case .repair(_, let message, _, true) = m.modelAnswered(["name": "calendarFreeDays", "arguments": cal.arguments], text: "") else { Issue.record("expected repair"); return }
        #expect(message.contains("final answer"))
    }

    @Test func aPlaceIsVisitedOnce() {
        var m = machine(maximumTurns: 1)
        _ = m.start()
        guard case .repair(_, let message, _, _) = m.modelAnswered(final(dates: ["2026-12-19", "2026-12-20"], places: ["Keys View"]), text: "") else { Issue.record("expected repair"); return }
        #expect(message.contains("different place"))
    }

    @Test func finalDatesMustBeDistinct() {
        var m = machine(maximumTurns: 1)
        guard case .generate(1, _, true) = m.start() else { Issue.record("expected final-only"); return }
        guard case .repair(_, let message, _, _) = m.modelAnswered(final(dates: ["2026-12-19", "2026-12-19"]), text: "") else { Issue.record("expected repair"); return }
        #expect(message.contains("different date"))
    }

    // MARK: - Never without a way forward

    @Test func aToolThatFailedIsAskedAgainAndTheSameErrorTwiceEndsTheResponse() throws {
        var m = machine()
        _ = m.start()
        let cal = ToolCallRequest(tool: "calendarFreeDays", arguments: ["start": "2026-12-01", "end": "2026-12-31"])
        _ = m.modelAnswered(["name": "calendarFreeDays", "arguments": cal.arguments], text: "")
        _ = m.toolsFinished([.init(call: cal, result: freeDays, error: nil)])
        let poi = ToolCallRequest(tool: "findPointsOfInterest", arguments: ["landmark": "Nowhere"])
        _ = m.modelAnswered(["name": "findPointsOfInterest", "arguments": poi.arguments], text: "")
        // The tool failed, and the model chooses its landmark: a different call could help, so the
        // next turn offers the tool and no answer (whose places would run free).
        guard case .generate(3, let schema, false) = m.toolsFinished([.init(call: poi, result: nil, error: "unknown landmark 'Nowhere'")]) else {
            Issue.record("expected generate"); return
        }
        #expect(!schema.jsonString.contains("\"answer\""), "\(schema.jsonString.prefix(300))")
        #expect(schema.jsonString.contains("findPointsOfInterest"))
        guard case .repair(_, let message, _, _) = m.modelAnswered(final(dates: ["2026-12-19", "2026-12-20"]), text: "") else {
            Issue.record("expected repair"); return
        }
        #expect(message.contains("findPointsOfInterest"))
        // The same error for other arguments: the failure is not the model's to fix.
        let other = ToolCallRequest(tool: "findPointsOfInterest", arguments: ["landmark": "Elsewhere"])
        _ = m.modelAnswered(["name": "findPointsOfInterest", "arguments": other.arguments], text: "")
        guard case .fail(let failed) = m.toolsFinished([.init(call: other, result: nil, error: "unknown landmark 'Nowhere'")]) else {
            Issue.record("expected fail"); return
        }
        #expect(failed.contains("findPointsOfInterest failed: unknown landmark 'Nowhere'"), "\(failed)")
        #expect(m.groundingFailure?.tool == "findPointsOfInterest")
        #expect(m.groundingFailure?.field == "/days/*/activities/*/place")
    }

    @Test func aFailedCallOfTheRequestEndsTheResponseBeforeAnyTurn() throws {
        var m = machine()
        let poi = ToolCallRequest(tool: "findPointsOfInterest", arguments: ["landmark": "Xqzzyville Qwrtp"])
        let error = "unknown landmark 'Xqzzyville Qwrtp'; give latitude and longitude instead"
        m.prefetched([.init(call: poi, result: nil, error: error)])
        guard case .fail(let message) = m.start() else { Issue.record("expected fail before the first turn"); return }
        #expect(message.contains("findPointsOfInterest failed: \(error)"), "\(message)")
        #expect(m.groundingFailure == GroundingFailure(
            tool: "findPointsOfInterest", error: error, found: 0, needed: 1, values: "", field: "/days/*/activities/*/place"))
    }

    @Test func tooFewValuesWhenTheToolCannotBeAskedAgainEndTheResponse() throws {
        let rules = GroundingGuard(
            rules: [.init(tool: "findPointsOfInterest", target: ["days", "*", "activities", "*", "place"], atLeast: 3, valuesPath: "/results/*/name") {
                JSONPath("/results/*/name")!.strings(in: $0)
            }], enabledTools: ["findPointsOfInterest"])
        var m = AgentStateMachine(
            tools: [.init(name: "findPointsOfInterest", arguments: poiArgs)], outputSchema: answer.json, grounding: rules,
            limits: .init(maximumToolTurns: 1))
        _ = m.start()
        let poi = ToolCallRequest(tool: "findPointsOfInterest", arguments: ["landmark": "Joshua Tree National Park"])
        _ = m.modelAnswered(["name": "findPointsOfInterest", "arguments": poi.arguments], text: "")
        // Two places where three are needed, and the one tool turn is spent.
        guard case .fail(let message) = m.toolsFinished([.init(call: poi, result: places, error: nil)]) else { Issue.record("expected fail"); return }
        #expect(message == "findPointsOfInterest returned 2 values at /results/*/name, and the answer's /days/*/activities/*/place needs at least 3")
    }

    @Test func factsWithoutAFieldHoldBackTheAnswerUntilTheyAreEnough() throws {
        let rules = GroundingGuard(
            rules: [.init(tool: "calendarFreeDays", target: nil, atLeast: 4, valuesPath: "/freeDays/*") { JSONPath("/freeDays/*")!.strings(in: $0) }],
            enabledTools: ["calendarFreeDays"])
        var m = AgentStateMachine(tools: [.init(name: "calendarFreeDays", arguments: calendarArgs)], outputSchema: answer.json, grounding: rules)
        let cal = ToolCallRequest(tool: "calendarFreeDays", arguments: ["start": "2026-12-01", "end": "2026-12-31"])
        m.prefetched([.init(call: cal, result: freeDays, error: nil)])
        // Three free days of four needed; the model may still ask for another window.
        guard case .generate(1, let schema, false) = m.start() else { Issue.record("expected generate"); return }
        #expect(!schema.jsonString.contains("\"answer\""))
    }

    @Test func anArrayWhoseToolFoundNothingMayBeEmpty() throws {
        let rules = GroundingGuard(
            rules: [.init(tool: "findPointsOfInterest", target: ["days", "*", "activities", "*"]) { JSONPath("/results/*/name")!.strings(in: $0) }],
            enabledTools: ["findPointsOfInterest"])
        var m = AgentStateMachine(tools: [.init(name: "findPointsOfInterest", arguments: poiArgs)], outputSchema: answer.json, grounding: rules)
        let poi = ToolCallRequest(tool: "findPointsOfInterest", arguments: ["landmark": "Joshua Tree National Park"])
        m.prefetched([.init(call: poi, result: ["results": []], error: nil)])
        guard case .generate(1, let schema, false) = m.start() else { Issue.record("expected generate"); return }
        #expect(schema.jsonString.contains("\"answer\""), "nothing found is an answer for an array: an empty one")
    }

    @Test func aCallWhoseArgumentsAreFixedIsLeftOutOnceAnswered() throws {
        let fixed = try GenerationSchema(json: [
            "type": "object", "properties": ["start": ["const": "2026-12-01"], "end": ["const": "2026-12-31"]],
            "required": ["start", "end"], "additionalProperties": false,
        ])
        var m = machine(calendar: fixed)
        let cal = ToolCallRequest(tool: "calendarFreeDays", arguments: ["start": "2026-12-01", "end": "2026-12-31"])
        m.prefetched([.init(call: cal, result: freeDays, error: nil)])
        #expect(m.offeredTools == ["findPointsOfInterest"])
        guard case .generate(1, let schema, false) = m.start() else { Issue.record("expected generate"); return }
        #expect(!schema.jsonString.contains("calendarFreeDays"), "the answered calendar is not offered again")
    }

    @Test func withoutToolsTheAnswerIsNotWrapped() throws {
        let answer: GeneratedContent = ["type": "object", "properties": ["n": ["type": "integer"]], "required": ["n"], "additionalProperties": false]
        var m = AgentStateMachine(tools: [], outputSchema: answer, grounding: GroundingGuard(rules: [], enabledTools: []))
        guard case .generate(1, let schema, _) = m.start() else { Issue.record("expected generate"); return }
        #expect(schema == answer)
        guard case .finish(let content, 1) = m.modelAnswered(["n": 3], text: "{\"n\":3}") else { Issue.record("expected finish"); return }
        #expect(content == ["n": 3])
    }

    @Test func aToolWhoseGroundingHasEnoughValuesIsNotOfferedAgain() throws {
        let places = GroundingGuard(
            rules: [.init(tool: "findPointsOfInterest", target: ["days", "*", "activities", "*", "place"], enough: 2) { JSONPath("/results/*/name")!.strings(in: $0) }],
            enabledTools: ["findPointsOfInterest"])
        var m = AgentStateMachine(tools: [.init(name: "findPointsOfInterest", arguments: poiArgs)], outputSchema: answer.json, grounding: places)
        let poi = ToolCallRequest(tool: "findPointsOfInterest", arguments: ["landmark": "Joshua Tree National Park"])
        m.prefetched([.init(call: poi, result: self.places, error: nil)])
        #expect(m.offeredTools.isEmpty, "two places returned, two were enough")
        guard case .generate(1, let schema, false) = m.start() else { Issue.record("expected generate"); return }
        #expect(schema["properties"]?["answer"] != nil, "the answer is the only branch")
    }
}
