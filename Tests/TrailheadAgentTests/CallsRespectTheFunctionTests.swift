import Foundation
import Testing
import Trailhead
import TrailheadModels

@testable import TrailheadAgent

/// Calls that respect the function, with scripted models: argument objects closed by default,
/// placeholders of optional parameters left out, a chain that cannot hold the same call twice,
/// calls kept when a later part of the turn fails, and the first decision read from the model's
/// probabilities (`ToolDecision`).
@Suite struct CallsRespectTheFunctionTests {
    typealias RecordingModel = LanguageModelSessionTests.RecordingModel
    let keys = StepSchema.keys

    /// A tool whose schema comes as JSON, as a plugin's or another framework's function does:
    /// `additionalProperties` unsaid unless given. Remembers the arguments it was called with.
    final class Lookup: Tool, @unchecked Sendable {
        typealias Arguments = GeneratedContent
        let name = "lookup"
        let description = "Looks people up."
        let schema: GeneratedContent
        let readOnly: Bool
        private let lock = NSLock()
        private var storage: [GeneratedContent] = []
        var calls: [GeneratedContent] { lock.withLock { storage } }

        let failsOnEmptyQuery: Bool

        init(additionalProperties: GeneratedContent? = nil, readOnly: Bool = true, failsOnEmptyQuery: Bool = false) {
            self.failsOnEmptyQuery = failsOnEmptyQuery
            var schema: JSONObject = [
                "type": "object",
                "properties": ["query": ["type": "string"], "group": ["type": "string"]],
                "required": ["query"],
            ]
            if let additionalProperties { schema["additionalProperties"] = additionalProperties }
            self.schema = .object(schema)
            self.readOnly = readOnly
        }
        var parameters: GenerationSchema { try! GenerationSchema(json: schema) }
        var isReadOnly: Bool { readOnly }
        func call(arguments: GeneratedContent) async throws -> String {
            lock.withLock { storage.append(arguments) }
            if failsOnEmptyQuery, arguments["query"]?.stringValue == "" { throw CocoaError(.featureUnsupported) }
            return "found \(arguments["query"]?.stringValue ?? "")"
        }
    }

    func call(_ arguments: String) -> String { #"{"\#(keys.call)":"lookup","\#(keys.arguments)":\#(arguments)}"# }
    func answer(_ text: String) -> String { #"{"\#(keys.final)":"\#(text)"}"# }

    /// The arguments schema of `lookup` in a step schema the model was sent.
    func lookupArguments(_ request: ModelRequest) -> GeneratedContent? {
        let schema = request.schema!.json
        return schema["$defs"]?["tool.lookup"] ?? findCall(schema, in: schema)
    }

    private func findCall(_ branch: GeneratedContent, in schema: GeneratedContent) -> GeneratedContent? {
        if let reference = branch["$ref"]?.stringValue, let name = reference.split(separator: "/").last {
            return findCall(schema["$defs"]![String(name)]!, in: schema)
        }
        if let branches = branch["anyOf"]?.arrayValue { return branches.lazy.compactMap { findCall($0, in: schema) }.first }
        return branch["properties"]?[keys.arguments]
    }

    func repairs(_ session: LanguageModelSession) -> [String] {
        session.transcript.entries.compactMap { if case .repair(let repair) = $0 { repair.message } else { nil } }
    }

    func toolCalls(_ session: LanguageModelSession) -> [Transcript.ToolCall] {
        session.transcript.entries.compactMap { if case .toolCall(let call) = $0 { call } else { nil } }
    }

    // MARK: - Closed argument objects

    @Test func anUndeclaredKeyIsOutsideTheGrammarAndRefusedByValidation() async throws {
        let tool = Lookup()
        let model = RecordingModel([call(#"{"query":"Ana","query ":"x"}"#), call(#"{"query":"Ana"}"#), answer("Ana lives in LA.")])
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.toolDecision = .modelsChoice
        let response = try await session.respond(to: "Where does Ana live?")
        #expect(response.content == "Ana lives in LA.")
        // The grammar: the arguments object the model was sent is closed.
        #expect(lookupArguments(model.requests[0])?["additionalProperties"] == false)
        #expect(session.parameters(ofTool: "lookup")?.json["additionalProperties"] == false)
        // Validation: the call with the stray key was not made; the model was told why.
        #expect(tool.calls == [["query": "Ana"]])
        #expect(repairs(session).count == 1)
        #expect(repairs(session).first?.contains("query ") == true)
    }

    @Test func anExplicitAdditionalPropertiesSchemaIsHonoured() async throws {
        let tool = Lookup(additionalProperties: ["type": "string"])
        let model = RecordingModel([call(#"{"query":"Ana","city":"Los Angeles"}"#), answer("Done.")])
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.toolDecision = .modelsChoice
        _ = try await session.respond(to: "Find Ana in Los Angeles")
        #expect(lookupArguments(model.requests[0])?["additionalProperties"] == ["type": "string"])
        #expect(tool.calls == [["query": "Ana", "city": "Los Angeles"]])
    }

    @Test func closingReachesNestedObjectsAndLeavesFreeFormMapsOpen() {
        let schema: GeneratedContent = [
            "type": "object",
            "properties": [
                "filter": ["type": "object", "properties": ["city": ["type": "string"]]],
                "tags": ["type": "array", "items": ["type": "object", "properties": ["key": ["type": "string"]]]],
                "extra": ["type": "object"],
            ],
        ]
        let closed = ClosedArguments.close(schema)
        #expect(closed["additionalProperties"] == false)
        #expect(closed["properties"]?["filter"]?["additionalProperties"] == false)
        #expect(closed["properties"]?["tags"]?["items"]?["additionalProperties"] == false)
        #expect(closed["properties"]?["extra"]?["additionalProperties"] == nil)
    }

    // MARK: - Placeholders

    @Test func aPlaceholderInAnOptionalParameterIsDroppedAndSaid() async throws {
        let tool = Lookup()
        let model = RecordingModel([call(#"{"query":"Ben","group":"None"}"#), answer("Ben is in San Diego.")])
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.toolDecision = .modelsChoice
        _ = try await session.respond(to: "Where does Ben live?")
        #expect(tool.calls == [["query": "Ben"]])
        #expect(toolCalls(session).first?.dropped == [#"group: "None""#])
    }

    @Test func placeholdersAreOnlyDroppedFromOptionalParametersThatDoNotListThem() {
        let schema: GeneratedContent = [
            "type": "object",
            "properties": ["query": ["type": "string"], "kind": ["type": "string", "enum": ["any", "cafe"]], "group": ["type": "string"]],
            "required": ["query"],
        ]
        let (arguments, dropped) = PlaceholderArguments.drop(
            from: ["query": "none", "kind": "any", "group": " N/A "], schema: schema)
        #expect(arguments == ["query": "none", "kind": "any"])
        #expect(dropped == [#"group: " N/A ""#])
        for value in ["None", "null", "", "unknown", "Any"] {
            #expect(PlaceholderArguments.drop(from: ["query": "x", "group": .string(value)], schema: schema).arguments == ["query": "x"])
        }
        #expect(PlaceholderArguments.drop(from: ["query": "x", "group": "friends"], schema: schema).dropped.isEmpty)
    }

    // MARK: - Chains

    /// `calls` chained in one turn, as the step schema has them.
    func chain(_ calls: [String]) -> String {
        calls.reversed().reduce("") { next, call in next.isEmpty ? call : String(call.dropLast()) + #","\#(keys.next)":"# + next + "}" }
    }

    @Test func aChainCannotHoldTheSameCallTwice() async throws {
        let tool = Lookup()
        // The model starts the same call over and over: the turn stops at the first repeat.
        let link = call(#"{"query":"Ana"}"#)
        let runaway = String(chain(Array(repeating: link, count: 6)).dropLast(3))
        let model = RecordingModel([runaway, answer("Ana lives in LA.")])
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.toolDecision = .modelsChoice
        let response = try await session.respond(to: "Where does Ana live?")
        #expect(response.content == "Ana lives in LA.")
        #expect(tool.calls == [["query": "Ana"]])
        // What the model reads it said is the chain it made, once each.
        #expect(model.requests[1].messages.contains(.assistant(#"{"name":"lookup","arguments":{"query":"Ana"}}"#)))
    }

    @Test func aChainTheGrammarEndedWhereTheModelWantedAnotherCallIsAskedAgainLonger() async throws {
        // After its one call the model all but certainly wants another (`},{"`, a list of calls,
        // which the chain's grammar does not allow): the turn is asked again with two calls at least.
        let tool = Lookup()
        let wantsMore = [TokenProbability(token: #"},{""#, probability: 0.995), TokenProbability(token: "}}", probability: 0.005)]
        let model = RecordingModel(
            [call(#"{"query":"Ana"}"#), chain([call(#"{"query":"Ana"}"#), call(#"{"query":"Ben"}"#)]), answer("LA and San Diego.")],
            nextTokenProbabilities: wantsMore)
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.limits.maximumCallsPerTurn = 2
        let response = try await session.respond(to: "Where do Ana and Ben live?")
        #expect(response.content == "LA and San Diego.")
        #expect(tool.calls == [["query": "Ana"], ["query": "Ben"]], "the first, one-call version of the turn did not run")
        #expect(!model.requests[1].messages.contains(.assistant(call(#"{"query":"Ana"}"#))), "the shorter chain is not read as said")
        let second = model.requests[1].schema!.json.jsonString
        #expect(!offersAnswer(model.requests[1]) && second.contains(#""required":["name","arguments","and"]"#), Comment(rawValue: second))
        let turns = session.transcript.entries.compactMap { if case .modelTurn(let turn) = $0 { turn } else { nil } }
        #expect(turns.map(\.chainContinuation) == [0.995, nil, nil], "two calls is the limit: not asked again")

        // A model that closes its chain is left to it.
        let closes = [TokenProbability(token: "}}", probability: 0.9), TokenProbability(token: ",", probability: 0.1)]
        let other = RecordingModel([call(#"{"query":"Ana"}"#), answer("LA.")], nextTokenProbabilities: closes)
        let single = LanguageModelSession(model: other, tools: [Lookup()])
        _ = try await single.respond(to: "Where does Ana live?")
        #expect(other.requests.count == 2)
        #expect(ToolDecision.chainEnd(#"{"name":"a","arguments":{"x":1},"and":{"name":"b","arguments":{}} } "#, links: 2) == #"{"name":"a","arguments":{"x":1},"and":{"name":"b","arguments":{}"#)
        #expect(ToolDecision.chainEnd(#"{"name":"a","arguments":{}"#, links: 2) == nil)
    }

    @Test func aTurnAskedAgainLongerThatRunsAwayKeepsTheCallsItHadMade() async throws {
        // BFCL's parallel_23: asked again for two calls, the model wrote its first call's number
        // on and on ("duration":10000…) until the repetition detector stopped the turn, and the
        // response failed, its one valid call lost.
        let tool = Lookup()
        let wantsMore = [TokenProbability(token: #"},{""#, probability: 0.995), TokenProbability(token: "}}", probability: 0.005)]
        let runaway = #"{"name":"lookup","arguments":{"query":"Ana1"# + String(repeating: "00", count: 60)
        let model = RecordingModel([call(#"{"query":"Ana"}"#), runaway, answer("Ana lives in LA.")], nextTokenProbabilities: wantsMore)
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.limits.maximumCallsPerTurn = 2
        let response = try await session.respond(to: "Where does Ana live?")
        #expect(response.content == "Ana lives in LA.")
        #expect(tool.calls == [["query": "Ana"]], "the call made before the turn was asked again ran, once")
        #expect(model.requests[2].messages.contains(.assistant(call(#"{"query":"Ana"}"#))), "the model reads the chain that ran")
        let turns = session.transcript.entries.compactMap { if case .modelTurn(let turn) = $0 { turn } else { nil } }
        #expect(turns.count == 3)
        #expect(turns[1].finishReason?.contains("asked for one call more, kept the 1 it had made") == true, Comment(rawValue: turns[1].finishReason ?? "nil"))
    }

    @Test func aCallAddedWhenAskedForMoreKeepsOnlyValuesFromTheConversation() async throws {
        // BFCL's parallel_1: "a change in time of 4 seconds, then repeat with 10 seconds"; asked
        // for one call more, the model added a third call with 14 seconds, which nobody gave.
        let tool = Lookup()
        let leans = [TokenProbability(token: #"},{""#, probability: 0.7), TokenProbability(token: "}}", probability: 0.3)]
        let two = chain([call(#"{"query":"Ana"}"#), call(#"{"query":"Ben"}"#)])
        let three = chain([call(#"{"query":"Ana"}"#), call(#"{"query":"Ben"}"#), call(#"{"query":"Cleo"}"#)])
        let model = RecordingModel([two, three, answer("Both live in LA.")], nextTokenProbabilities: leans)
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.limits.maximumCallsPerTurn = 3
        let response = try await session.respond(to: "Where do Ana and Ben live?")
        #expect(response.content == "Both live in LA.")
        // (Read-only lookups run at once: in any order.)
        #expect(Set(tool.calls) == [["query": "Ana"], ["query": "Ben"]], "Cleo is not in the request: the chain stays as the model made it")
        let turns = session.transcript.entries.compactMap { if case .modelTurn(let turn) = $0 { turn } else { nil } }
        #expect(turns[1].finishReason?.contains(#"lookup.query: "Cleo" is not in the conversation"#) == true, Comment(rawValue: turns[1].finishReason ?? "nil"))
        #expect(turns[1].finishReason?.contains("kept the 2 it had made") == true)

        // Named in the request, the added call stands; and so does any at a share of 0.99 or more.
        let named = Lookup()
        let asked = RecordingModel([two, three, answer("All live in LA.")], nextTokenProbabilities: leans)
        let grounded = LanguageModelSession(model: asked, tools: [named])
        grounded.configuration.limits.maximumCallsPerTurn = 3
        _ = try await grounded.respond(to: "Where do Ana, Ben and cleo live?")
        #expect(Set(named.calls) == [["query": "Ana"], ["query": "Ben"], ["query": "Cleo"]])
        let sure = Lookup()
        let wantsMore = [TokenProbability(token: #"},{""#, probability: 0.995), TokenProbability(token: "}}", probability: 0.005)]
        let certain = LanguageModelSession(model: RecordingModel([two, three, answer("All live in LA.")], nextTokenProbabilities: wantsMore), tools: [sure])
        certain.configuration.limits.maximumCallsPerTurn = 3
        _ = try await certain.respond(to: "Where do Ana and Ben live?")
        #expect(sure.calls.count == 3)
    }

    @Test func anAddedCallBringsAValueOfTheConversationsThatTheCallsBeforeItLack() {
        func calls(_ arguments: [GeneratedContent]) -> [ToolCallRequest] { arguments.map { ToolCallRequest(tool: "f", arguments: $0) } }
        func reasons(_ added: [GeneratedContent], after earlier: [GeneratedContent], _ conversation: String) -> [String] {
            AddedCallGrounding.reasons(against: calls(added), after: calls(earlier), in: conversation)
        }
        let earlier: [GeneratedContent] = [["b_field": 5, "area": 2, "d_time": 4], ["b_field": 5, "area": 2, "d_time": 10]]
        let request = "A field of 5 Tesla, area of 2 square meters and 4 seconds, then repeat with 10 seconds."
        #expect(reasons([["b_field": 5, "area": 2, "d_time": 14]], after: earlier, request) == ["f.d_time: 14 is not in the conversation"])
        #expect(reasons([["b_field": 5, "area": 2, "d_time": 10]], after: Array(earlier.prefix(1)), request).isEmpty)
        // Each value given, but each used already: the calls before it, mixed (BFCL's parallel_21,
        // and parallel_multiple_5 with another tool).
        let crimes: [GeneratedContent] = [["location": "San Francisco", "year": 2019], ["location": "Texas", "year": 2018]]
        #expect(reasons([["location": "San Francisco", "year": 2018]], after: crimes, "San Francisco in 2019 and Texas in 2018")
            == ["f only uses values of the calls before it"])
        let gcd = [ToolCallRequest(tool: "gcd", arguments: ["a": 96, "b": 128]), ToolCallRequest(tool: "lcm", arguments: ["a": 15, "b": 25])]
        let request2 = "The GCD of 96 and 128, and the LCM of 15 and 25."
        #expect(AddedCallGrounding.reasons(against: [ToolCallRequest(tool: "gcd", arguments: ["a": 15, "b": 25])], after: gcd, in: request2)
            == ["gcd only uses values of the calls before it"])
        #expect(AddedCallGrounding.reasons(against: [ToolCallRequest(tool: "lcm", arguments: ["a": 96, "b": 7])], after: gcd, in: request2)
            == ["lcm.b: 7 is not in the conversation"])
        // A rate written as a percentage, a list of numbers, thousands, names in any case, arrays.
        let rates = "Invest 1,000 dollars at 5% for 10,15 and 20 years in new york and Boston."
        #expect(reasons([["amount": 1000, "rate": 0.05, "years": 15, "city": "New York"]], after: [], rates).isEmpty)
        #expect(reasons([["years": 25, "cities": ["Boston", "Paris"], "compound": true]], after: [], rates)
            == ["f.years: 25 is not in the conversation", "f.cities[]: \"Paris\" is not in the conversation"])
        #expect(AddedCallGrounding.numbers(in: "5,10 and 15; 1,000.5 or .25.") == [5, 10, 510, 15, 1, 1000.5, 0.5, 0.25].reduce(into: Set<Double>()) { $0.insert($1) })
    }

    @Test func theWatcherStopsAtTheFirstRepeatedLink() {
        var watcher = ChainSalvage.RepeatWatcher()
        let text = chain([call(#"{"query":"Ana"}"#), call(#"{"query":"Ben"}"#), call(#"{"query":"Ana"}"#), call(#"{"query":"Eve"}"#)])
        var stoppedAt: Int?
        for (index, character) in text.enumerated() where watcher.append(String(character)) {
            stoppedAt = index
            break
        }
        let stopped = try! #require(stoppedAt)
        #expect(ChainSalvage.completeLinks(in: String(text.prefix(stopped + 1))).map { $0.arguments["query"] } == ["Ana", "Ben"])
    }

    @Test func aFailedLaterLinkKeepsTheEarlierCalls() async throws {
        let tool = Lookup()
        let model = RecordingModel([
            chain([call(#"{"query":"Ana"}"#), call(#"{"query":"Ben","phone":true}"#)]),
            answer("Ana lives in LA."),
        ])
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.toolDecision = .modelsChoice
        let response = try await session.respond(to: "Where do Ana and Ben live?")
        #expect(response.content == "Ana lives in LA.")
        #expect(tool.calls == [["query": "Ana"]])
        // The model read the result of the first and why the second was not called.
        let feedback = model.requests[1].messages.last?.content ?? ""
        #expect(feedback.contains("found Ana"))
        #expect(feedback.contains("not called"))
    }

    /// A tool with side effects that logs when each call starts and ends; the first call is the slowest.
    final class Mover: Tool, @unchecked Sendable {
        typealias Arguments = GeneratedContent
        let name = "lookup"
        let description = "Changes something."
        var parameters: GenerationSchema { try! GenerationSchema(json: ["type": "object", "properties": ["query": ["type": "string"]]]) }
        private let lock = NSLock()
        private var storage: [String] = []
        var log: [String] { lock.withLock { storage } }
        func call(arguments: GeneratedContent) async throws -> String {
            let query = arguments["query"]?.stringValue ?? ""
            lock.withLock { storage.append("start \(query)") }
            try await Task.sleep(nanoseconds: query == "mkdir" ? 50_000_000 : 1_000_000)
            lock.withLock { storage.append("end \(query)") }
            return "done \(query)"
        }
    }

    @Test func callsOfAToolWithSideEffectsRunOneAfterAnotherInTheOrderWritten() async throws {
        let tool = Mover()
        let model = RecordingModel([
            chain([call(#"{"query":"mkdir"}"#), call(#"{"query":"mv"}"#), call(#"{"query":"ls"}"#)]), answer("Moved."),
        ])
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.toolDecision = .modelsChoice
        _ = try await session.respond(to: "Make the folder, then move the file into it.")
        #expect(tool.log == ["start mkdir", "end mkdir", "start mv", "end mv", "start ls", "end ls"])
        // The transcript holds the outputs in the same order.
        let outputs = session.transcript.entries.compactMap { if case .toolOutput(let output) = $0 { output.result?.stringValue } else { nil } }
        #expect(outputs == ["done mkdir", "done mv", "done ls"])
    }

    @Test func aTurnCutInALaterLinkKeepsTheFinishedLinks() async throws {
        let tool = Lookup()
        let cut = String(chain([call(#"{"query":"Ana"}"#), call(#"{"query":"Ben and then a very long"}"#)]).dropLast(20))
        let model = RecordingModel([cut, answer("Ana lives in LA.")])
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.toolDecision = .modelsChoice
        _ = try await session.respond(to: "Where does Ana live?")
        #expect(tool.calls == [["query": "Ana"]])
    }

    @Test func aFailedResponseReportsTheCallsItMade() async throws {
        let tool = Lookup()
        let model = RecordingModel([call(#"{"query":"Ana"}"#), "not json", "not json", "not json", "not json"])
        let session = LanguageModelSession(model: model, tools: [tool])
        session.configuration.toolDecision = .modelsChoice
        do {
            _ = try await session.respond(to: "Where does Ana live?")
            Issue.record("the response should have failed")
        } catch {
            #expect("\(error)".contains(#"calls made before the failure: lookup {"query":"Ana"} (answered)"#))
        }
    }

    @Test func aCallThatReturnedNothingReadsAsASuccess() {
        let outcomes = [
            AgentStateMachine.ToolOutcome(call: ToolCallRequest(tool: "mkdir", arguments: ["dir_name": "temp"]), result: .null, error: nil),
            AgentStateMachine.ToolOutcome(call: ToolCallRequest(tool: "cd", arguments: ["folder": "x"]), result: nil, error: "no such folder"),
        ]
        #expect(AgentLoop.feedback(outcomes) { _, result in result } == "mkdir succeeded: it returns nothing\ncd failed: no such folder")
    }

    // MARK: - The first decision

    @Test func theDecisionRuleAddsUpEachKeysProbability() {
        let candidates = [
            TokenProbability(token: "answer", probability: 0.6), TokenProbability(token: "name", probability: 0.25),
            TokenProbability(token: "n", probability: 0.05), TokenProbability(token: "arguments", probability: 0.1),
        ]
        let probability = try! #require(ToolDecision.callProbability(candidates, callKey: "name", answerKey: "answer"))
        #expect(abs(probability - 0.3 / 0.9) < 1e-9)
        let standard = ToolDecision.standard
        // Read-only tools: a call from 0.2 on.
        #expect(standard.decide(callProbability: probability, at: .init(offered: ["a"], readOnly: ["a"])) == .call(only: nil))
        #expect(standard.decide(callProbability: 0.19, at: .init(offered: ["a"], readOnly: ["a"])) == .modelsChoice)
        // A tool with side effects: a call when it is the more probable choice.
        #expect(standard.decide(callProbability: 0.9, at: .init(offered: ["w"], readOnly: [])) == .call(only: nil))
        #expect(standard.decide(callProbability: 0.49, at: .init(offered: ["w"], readOnly: [])) == .modelsChoice)
        #expect(!ToolDecision(threshold: nil).mayCommit(at: .init(offered: ["w"], readOnly: [])))
        // Both: an unlikely call goes to the read-only tools alone; a likely one to any tool.
        #expect(standard.decide(callProbability: 0.3, at: .init(offered: ["a", "w"], readOnly: ["a"])) == .call(only: ["a"]))
        #expect(standard.decide(callProbability: 0.7, at: .init(offered: ["a", "w"], readOnly: ["a"])) == .call(only: nil))
        #expect(ToolDecision(threshold: nil).decide(callProbability: 0.7, at: .init(offered: ["a", "w"], readOnly: ["a"])) == .modelsChoice)
        // A later turn: read-only tools from 0.3; a tool with side effects is the model's own choice.
        #expect(standard.decide(callProbability: 0.25, at: .init(offered: ["a"], readOnly: ["a"], later: true)) == .modelsChoice)
        #expect(standard.decide(callProbability: 0.3, at: .init(offered: ["a"], readOnly: ["a"], later: true)) == .call(only: nil))
        #expect(standard.decide(callProbability: 0.9, at: .init(offered: ["a", "w"], readOnly: ["a"], later: true)) == .modelsChoice)
        #expect(!standard.mayCommit(at: .init(offered: ["a", "w"], readOnly: ["a"], later: true)))
        #expect(ToolDecision.modelsChoice.decide(callProbability: 0.99, at: .init(offered: ["a"], readOnly: ["a"])) == .modelsChoice)
        #expect(ToolDecision.callProbability([TokenProbability(token: "x", probability: 1)], callKey: "name", answerKey: "answer") == nil)
        #expect(ToolDecision.standard.threshold(at: .init(offered: ["a"], readOnly: ["a"])) == 0.2)
        #expect(ToolDecision.standard.threshold(at: .init(offered: ["w"], readOnly: [])) == 0.5)
        #expect(ToolDecision.standard.threshold(at: .init(offered: ["a"], readOnly: ["a"], later: true)) == 0.3)
        // Right after a turn whose calls all failed: as a first turn, read-only tools from 0.3.
        let afterFailure = ToolDecision.Moment(offered: ["a", "w"], readOnly: ["a"], later: true, afterFailure: true)
        #expect(standard.mayCommit(at: afterFailure))
        #expect(standard.decide(callProbability: 0.5, at: afterFailure) == .call(only: nil))
        #expect(standard.decide(callProbability: 0.3, at: afterFailure) == .call(only: ["a"]))
        #expect(standard.decide(callProbability: 0.29, at: afterFailure) == .modelsChoice)
        #expect(standard.threshold(at: .init(offered: ["a"], readOnly: ["a"], later: true, afterFailure: true)) == 0.3)
        #expect(standard.threshold(at: .init(offered: ["w"], readOnly: [], later: true, afterFailure: true)) == 0.5)
        #expect(!ToolDecision(afterFailureThreshold: nil).mayCommit(at: afterFailure), "without the rule, a later turn's: side effects not asked")
        #expect(ToolDecision.Moment(offered: ["w"], readOnly: [], afterFailure: true).afterFailure == false, "only a later turn follows a failure")
        #expect(ToolDecision.fromEnvironment([ToolDecision.afterFailureVariable: "off"]).afterFailureThreshold == nil)
        #expect(ToolDecision.fromEnvironment([ToolDecision.environmentVariable: "0.5"]).readOnlyThreshold == 0.5)
        #expect(ToolDecision.fromEnvironment([ToolDecision.environmentVariable: "off"]).readOnlyThreshold == nil)
        #expect(ToolDecision.fromEnvironment([ToolDecision.environmentVariable: "7"]) == .standard)
        #expect(ToolDecision.fromEnvironment([ToolDecision.laterVariable: "off", ToolDecision.sideEffectsVariable: "0.6"])
            == ToolDecision(threshold: 0.6, laterReadOnlyThreshold: nil))
        #expect(ToolDecision.fromEnvironment([ToolDecision.checkedChainVariable: "off", ToolDecision.chainVariable: "0.9"])
            == ToolDecision(chainThreshold: 0.9, checkedChainThreshold: nil))
        // At a chain's end: at 0.99 the added call is kept as written, from one half it is checked.
        #expect(standard.continuesChain(0.995) == .askAgain(checked: false))
        #expect(standard.continuesChain(0.6) == .askAgain(checked: true))
        #expect(standard.continuesChain(0.4) == .ends)
        #expect(standard.continuesChain(nil) == .ends)
        #expect(ToolDecision(checkedChainThreshold: nil).continuesChain(0.6) == .ends)
    }

    func offersAnswer(_ request: ModelRequest) -> Bool { request.schema!.json.jsonString.contains(#""\#(keys.final)""#) }

    @Test func aLikelyEnoughCallOfAReadOnlyToolIsCommittedTo() async throws {
        // (0.25: above the first turn's threshold, below a later turn's.)
        let probabilities = [TokenProbability(token: "answer", probability: 0.75), TokenProbability(token: "name", probability: 0.25)]
        let model = RecordingModel([call(#"{"query":"Ana"}"#), answer("Ana lives in LA.")], nextTokenProbabilities: probabilities)
        let session = LanguageModelSession(model: model, tools: [Lookup(readOnly: true)])
        session.configuration.toolDecision = .standard
        _ = try await session.respond(to: "Where does Ana live?")
        #expect(!offersAnswer(model.requests[0]), "committed to a call: the first turn offers no answer")
        #expect(offersAnswer(model.requests[1]))
        let turn = session.transcript.entries.compactMap { if case .modelTurn(let turn) = $0 { turn } else { nil } }.first
        #expect(turn?.callProbability == 0.25)
        #expect(turn?.committedToCall == true)
    }

    /// A tool with side effects, beside a read-only one.
    struct AddContact: Tool {
        let name = "addContact"
        let description = "Adds a person to the address book."
        struct Arguments: Generable {
            var name: String
            static let generationSchema = SchemaBuilder.object(properties: ["name": .string()]).declaredSchema
        }
        func call(arguments: Arguments) async throws -> String { "added" }
    }

    @Test func withAToolWithSideEffectsBesideAnUnlikelyCallGoesToTheReadOnlyToolsAlone() async throws {
        let probabilities = [TokenProbability(token: "answer", probability: 0.7), TokenProbability(token: "name", probability: 0.3)]
        let model = RecordingModel([call(#"{"query":"Ana"}"#), answer("Ana lives in LA.")], nextTokenProbabilities: probabilities)
        let session = LanguageModelSession(model: model, tools: [Lookup(readOnly: true), AddContact()])
        session.configuration.toolDecision = .standard
        _ = try await session.respond(to: "Where does Ana live?")
        let first = model.requests[0].schema!.json.jsonString
        #expect(!offersAnswer(model.requests[0]))
        #expect(first.contains(#""lookup""#) && !first.contains(#""addContact""#))
        #expect(model.requests[1].schema!.json.jsonString.contains(#""addContact""#), "after the call, every tool again")
    }

    @Test func aTurnAfterAToolAnsweredCommitsToACallOnceWhenTheModelLeansTowardsOne() async throws {
        // The model's share of a call stays at 0.4: the first turn and one later turn are
        // committed to a call, the turn after that offers the answer again.
        let probabilities = [TokenProbability(token: "answer", probability: 0.6), TokenProbability(token: "name", probability: 0.4)]
        let model = RecordingModel(
            [call(#"{"query":"Kyoto"}"#), call(#"{"query":"Kyoto museums"}"#), answer("The Kyoto National Museum.")],
            nextTokenProbabilities: probabilities)
        let session = LanguageModelSession(model: model, tools: [Lookup(readOnly: true)])
        session.configuration.toolDecision = .standard
        let response = try await session.respond(to: "What museums are there in Kyoto?")
        #expect(response.content == "The Kyoto National Museum.")
        #expect(model.requests.map(offersAnswer) == [false, false, true])
        let turns = session.transcript.entries.compactMap { if case .modelTurn(let turn) = $0 { turn } else { nil } }
        #expect(turns.map(\.committedToCall) == [true, true, nil], "once committed after a call, the probabilities are not asked again")
        #expect(turns.map(\.callProbability) == [0.4, 0.4, nil])

        // A committed later turn whose calls all failed gives its commitment back, once: the
        // model reads the error and is committed again to mend the call.
        let mended = RecordingModel(
            [call(#"{"query":"Kyoto"}"#), call(#"{"query":""}"#), call(#"{"query":"Kyoto museums"}"#), answer("The Kyoto National Museum.")],
            nextTokenProbabilities: probabilities)
        let third = LanguageModelSession(model: mended, tools: [Lookup(readOnly: true, failsOnEmptyQuery: true)])
        third.configuration.toolDecision = .standard
        _ = try await third.respond(to: "What museums are there in Kyoto?")
        #expect(mended.requests.map(offersAnswer) == [false, false, false, true])

        // Below the later threshold, the model's own choice after the first call.
        let unlikely = [TokenProbability(token: "answer", probability: 0.8), TokenProbability(token: "name", probability: 0.2)]
        let other = RecordingModel([call(#"{"query":"Ana"}"#), answer("Ana lives in LA.")], nextTokenProbabilities: unlikely)
        let second = LanguageModelSession(model: other, tools: [Lookup(readOnly: true)])
        second.configuration.toolDecision = .standard
        _ = try await second.respond(to: "Where does Ana live?")
        #expect(other.requests.map(offersAnswer) == [false, true])
    }

    @Test func aTurnAfterEveryCallFailedIsDecidedAsAFirstTurnOnceInAResponse() async throws {
        // A tool with side effects at a share of 0.6: the first turn is committed, its call
        // fails, the turn after it is committed again (no answer offered); that call fails too,
        // and the turn after offers the answer: once a response.
        let likely = [TokenProbability(token: "answer", probability: 0.4), TokenProbability(token: "name", probability: 0.6)]
        let model = RecordingModel(
            [call(#"{"query":""}"#), call(#"{"query":""}"#), answer("Could not look it up.")], nextTokenProbabilities: likely)
        let session = LanguageModelSession(model: model, tools: [Lookup(readOnly: false, failsOnEmptyQuery: true)])
        session.configuration.toolDecision = .standard
        _ = try await session.respond(to: "Move the report")
        #expect(model.requests.map(offersAnswer) == [false, false, true])
        let turns = session.transcript.entries.compactMap { if case .modelTurn(let turn) = $0 { turn } else { nil } }
        #expect(turns.map(\.committedToCall) == [true, true, nil])

        // At 0.4 a tool with side effects stays the model's own choice after a failure too; a
        // later turn after a call that answered is not asked.
        let unlikely = [TokenProbability(token: "answer", probability: 0.6), TokenProbability(token: "name", probability: 0.4)]
        let other = RecordingModel([call(#"{"query":""}"#), answer("Could not look it up.")], nextTokenProbabilities: unlikely)
        let second = LanguageModelSession(model: other, tools: [Lookup(readOnly: false, failsOnEmptyQuery: true)])
        second.configuration.toolDecision = .standard
        _ = try await second.respond(to: "Move the report")
        #expect(other.requests.map(offersAnswer) == [true, true])
        let answered = RecordingModel([call(#"{"query":"report"}"#), answer("Moved.")], nextTokenProbabilities: likely)
        let third = LanguageModelSession(model: answered, tools: [Lookup(readOnly: false)])
        third.configuration.toolDecision = .standard
        _ = try await third.respond(to: "Move the report")
        #expect(answered.requests.map(offersAnswer) == [false, true])
    }

    @Test func anUnlikelyCallOrAToolWithSideEffectsKeepsTheModelsChoice() async throws {
        let unlikely = [TokenProbability(token: "answer", probability: 0.9), TokenProbability(token: "name", probability: 0.1)]
        let model = RecordingModel([answer("Bonjour.")], nextTokenProbabilities: unlikely)
        let session = LanguageModelSession(model: model, tools: [Lookup(readOnly: true)])
        session.configuration.toolDecision = .standard
        _ = try await session.respond(to: "Translate 'hello' into French")
        #expect(offersAnswer(model.requests[0]))

        let evens = [TokenProbability(token: "answer", probability: 0.55), TokenProbability(token: "name", probability: 0.45)]
        let writes = RecordingModel([answer("Not now.")], nextTokenProbabilities: evens)
        let other = LanguageModelSession(model: writes, tools: [Lookup(readOnly: false)])
        other.configuration.toolDecision = .standard
        _ = try await other.respond(to: "Add Ana")
        #expect(offersAnswer(writes.requests[0]), "a tool with side effects: a call only when it is the more probable choice")
    }
}
