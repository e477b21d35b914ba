import Foundation
import Testing
import Trailhead
import TrailheadModels

@testable import TrailheadAgent

/// Tool calling in any session, with scripted models: the tool-calling mode, several calls in one
/// turn, bounded free text, loops stopped, responses that end with their calls. Each test reads
/// the step schema the model was sent, turn by turn.
@Suite struct ToolCallingTests {
    typealias RecordingModel = LanguageModelSessionTests.RecordingModel
    typealias Weather = LanguageModelSessionTests.Weather

    struct Clock: Tool {
        let name = "clock"
        let description = "Tells the time in a city."
        struct Arguments: Generable {
            var city: String
            static let generationSchema = SchemaBuilder.object(properties: ["city": .string()]).declaredSchema
        }
        func call(arguments: Arguments) async throws -> String { "12:00 in \(arguments.city)" }
    }

    let keys = StepSchema.keys

    func call(_ tool: String, _ city: String) -> String { #"{"\#(keys.call)":"\#(tool)","\#(keys.arguments)":{"city":"\#(city)"}}"# }
    func answer(_ text: String) -> String { #"{"\#(keys.final)":"\#(text)"}"# }

    /// What a step schema offers: "answer", a tool's name, or "several" (a call that may hold
    /// the next call of the same turn).
    func offered(_ request: ModelRequest) -> Set<String> {
        let schema = request.schema!.json
        var found: Set<String> = []
        func visit(_ branch: GeneratedContent) {
            if let reference = branch["$ref"]?.stringValue, let name = reference.split(separator: "/").last {
                return visit(schema["$defs"]![String(name)]!)
            }
            if let branches = branch["anyOf"]?.arrayValue { return branches.forEach(visit) }
            guard let properties = branch["properties"] else { return }
            if properties[keys.final] != nil { found.insert("answer") }
            if let name = properties[keys.call]?["const"]?.stringValue { found.insert(name) }
            if properties[keys.next] != nil { found.insert("several") }
        }
        visit(schema)
        return found
    }

    /// Calls chained in one turn, as the step schema has them.
    func chain(_ calls: [String]) -> String {
        calls.reversed().reduce("") { next, call in next.isEmpty ? call : String(call.dropLast()) + #","\#(keys.next)":"# + next + "}" }
    }

    func session(_ model: RecordingModel) -> LanguageModelSession {
        LanguageModelSession(model: model, tools: [Weather(), Clock()], instructions: "Help travellers.")
    }

    @Test func allowedOffersEveryToolSeveralCallsAndTheAnswerFromTheFirstTurn() async throws {
        let model = RecordingModel([answer("Pack for rain.")])
        let response = try await session(model).respond(to: "Rain in Porto?")
        #expect(response.content == "Pack for rain.")
        #expect(offered(model.requests[0]) == ["weather", "clock", "several", "answer"])
    }

    @Test func requiredNeverOffersTheAnswerBeforeAToolHasAnswered() async throws {
        let model = RecordingModel([call("weather", "Porto"), answer("Take an umbrella.")])
        let response = try await session(model).respond(to: "Rain in Porto?", options: GenerationOptions(toolCallingMode: .required))
        #expect(response.content == "Take an umbrella.")
        #expect(!offered(model.requests[0]).contains("answer"))
        #expect(offered(model.requests[0]).contains("weather"))
        #expect(offered(model.requests[1]).contains("answer"))
    }

    @Test func requiredRepairsAnAnswerGivenBeforeAnyCall() async throws {
        // A model that ignores the grammar (a scripted one can) is sent back to call a tool first.
        let model = RecordingModel([answer("No need."), call("weather", "Porto"), answer("Take an umbrella.")])
        let session = session(model)
        let response = try await session.respond(to: "Rain in Porto?", options: GenerationOptions(toolCallingMode: .required))
        #expect(response.content == "Take an umbrella.")
        let repairs = session.transcript.entries.compactMap { entry -> String? in
            if case .repair(let repair) = entry { return repair.message } else { return nil }
        }
        #expect(repairs.count == 1 && repairs[0].contains("call"))
        #expect(!offered(model.requests[1]).contains("answer"))
    }

    @Test func disallowedNeverOffersATool() async throws {
        let model = RecordingModel([answer("Probably rain.")])
        let session = session(model)
        let response = try await session.respond(to: "Rain in Porto?", options: GenerationOptions(toolCallingMode: .disallowed))
        #expect(response.content == "Probably rain.")
        #expect(offered(model.requests[0]) == ["answer"])
        // The system message still lists the tools: the prompt prefix stays the same for every mode.
        #expect(model.requests[0].messages[0].content.contains("weather("))
    }

    @Test func aNamedToolIsTheFirstTurnsOnlyBranch() async throws {
        let model = RecordingModel([call("clock", "Porto"), answer("It is noon.")])
        let response = try await session(model).respond(to: "Rain in Porto?", options: GenerationOptions(toolCallingMode: .named("clock")))
        #expect(response.content == "It is noon.")
        #expect(offered(model.requests[0]) == ["clock"])
        #expect(model.requests[0].schema!.json["anyOf"] == nil)
        #expect(offered(model.requests[1]).contains("answer"))
        #expect(offered(model.requests[1]).contains("weather"))
    }

    @Test func aNamedToolTheSessionLacksIsASetupError() async throws {
        let model = RecordingModel([answer("x")])
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session(model).respond(to: "Rain?", options: GenerationOptions(toolCallingMode: .named("radar")))
        }
        #expect(model.requests.isEmpty)
    }

    @Test func aGenericSessionMakesSeveralCallsInOneTurn() async throws {
        let several = chain([call("weather", "Porto"), call("clock", "Lisbon")])
        let model = RecordingModel([several, answer("Rain in Porto; noon in Lisbon.")])
        let session = session(model)
        let response = try await session.respond(to: "Rain in Porto, and the time in Lisbon?")
        #expect(response.content == "Rain in Porto; noon in Lisbon.")
        #expect(response.turns == 2)
        let calls = session.transcript.entries.compactMap { entry -> (Int, String)? in
            if case .toolCall(let call) = entry { return (call.turn, call.tool) } else { return nil }
        }
        #expect(calls.map(\.0) == [1, 1])
        #expect(calls.map(\.1) == ["weather", "clock"])
        // Both results reach the model before its answer.
        let feedback = model.requests[1].messages.last!.content
        #expect(feedback.contains("weather returned") && feedback.contains("clock returned"))
    }

    @Test func moreCallsThanTheLimitInOneTurnAreRepairedNotRun() async throws {
        let three = chain([call("weather", "Porto"), call("weather", "Lisbon"), call("clock", "Faro")])
        let model = RecordingModel([three, call("weather", "Porto"), answer("Rain in Porto.")])
        let session = session(model)
        session.configuration.limits.maximumCallsPerTurn = 2
        let response = try await session.respond(to: "Rain in Porto and Lisbon, and the time in Faro?")
        #expect(response.content == "Rain in Porto.")
        #expect(model.requests[1].messages.last!.content.contains("At most 2 calls in one answer; you made 3."))
        let calls = session.transcript.entries.compactMap { entry -> String? in
            if case .toolCall(let call) = entry { return call.tool } else { return nil }
        }
        #expect(calls == ["weather"])
    }

    @Test func aTurnThatMustMakeSeveralCallsRequiresTheLinks() throws {
        let city: GeneratedContent = ["type": "object", "properties": ["city": ["type": "string", "maxLength": 20]], "required": ["city"], "additionalProperties": false]
        let step = StepSchema(tools: [.init(name: "weather", arguments: city), .init(name: "clock", arguments: city)], final: nil, maximumCalls: 4, minimumCalls: 3)
        #expect(step.json["$ref"]?.stringValue == "#/$defs/call4")
        let defs = try #require(step.json["$defs"])
        // The first call must hold a second, which must hold a third; the third may hold a fourth, the last.
        for (name, next, required) in [("call4", "#/$defs/call3", true), ("call3", "#/$defs/call2", true), ("call2", "#/$defs/call1", false)] {
            for branch in try #require(defs[name]?["anyOf"]?.arrayValue) {
                #expect(branch["properties"]?[keys.next]?["$ref"]?.stringValue == next)
                #expect((branch["required"]?.arrayValue ?? []).contains(.string(keys.next)) == required)
            }
        }
        #expect(try #require(defs["call1"]?["anyOf"]?.arrayValue).allSatisfy { $0["properties"]?[keys.next] == nil })
        // Each tool's arguments are written once, and the chain has a longest form.
        #expect(defs["tool.weather"] == city)
        let schema = try GenerationSchema(json: step.json)
        let longest = try #require(schema.longestAnswerBytes)
        let one = #"{"name":"weather","arguments":{"city":"\#(String(repeating: "x", count: 20))"}}"#
        let four = chain(Array(repeating: one, count: 4))
        #expect(schema.isValid(try GeneratedContent(json: four)))
        #expect(!schema.isValid(try GeneratedContent(json: chain(Array(repeating: one, count: 5)))), "a fifth call is past the chain")
        #expect(!schema.isValid(try GeneratedContent(json: chain(Array(repeating: one, count: 2)))), "three calls are required")
        #expect(longest >= four.utf8.count)
    }

    @Test func aFreeTextAnswerIsBoundedByDefault() async throws {
        let withTools = RecordingModel([answer("Rain.")])
        _ = try await session(withTools).respond(to: "Rain in Porto?")
        #expect(withTools.requests[0].options.maxTokens == LanguageModelSession.Configuration().maximumTextTokens)
        let plain = RecordingModel(["Rain."])
        _ = try await LanguageModelSession(model: plain).respond(to: "Rain in Porto?")
        #expect(plain.requests[0].options.maxTokens == 512)
        // The caller's own limit wins.
        let limited = RecordingModel(["Rain."])
        _ = try await LanguageModelSession(model: limited).respond(to: "Rain?", options: GenerationOptions(maximumResponseTokens: 40))
        #expect(limited.requests[0].options.maxTokens == 40)
    }

    @Test func aTextAnswerCutAtItsBoundIsKept() async throws {
        let model = RecordingModel([#"{"\#(keys.final)":"Rain all week, so pack a"#])
        model.finishReason = "length"
        let response = try await session(model).respond(to: "Rain in Porto?")
        #expect(response.content == "Rain all week, so pack a")
        #expect(model.requests.count == 1)
    }

    @Test func aRepeatingAnswerIsStoppedAndReported() async throws {
        let loop = String(repeating: "Sushi Sake, ", count: 40)
        let plain = RecordingModel(["The best places are " + loop])
        let session = LanguageModelSession(model: plain)
        await #expect(throws: LanguageModelSession.GenerationError.self) { try await session.respond(to: "Sushi in Tokyo?") }
        guard case .error(let failure)? = session.transcript.entries.last else { Issue.record("no error entry"); return }
        #expect(failure.message.contains("repeated \"") && failure.message.contains("Sushi Sake"), "\(failure.message)")
        // Stopped within a few repetitions of the loop, not at the end of the text.
        guard case .modelTurn(let turn)? = session.transcript.entries.dropLast().last else { Issue.record("no model turn"); return }
        #expect(turn.finishReason == "repetition")
        #expect(turn.text.count < 20 + "Sushi Sake, ".count * 12)

        let wrapped = RecordingModel([#"{"\#(keys.final)":"The best: "# + loop + #""}"#])
        await #expect(throws: LanguageModelSession.GenerationError.self) { try await self.session(wrapped).respond(to: "Sushi?") }
    }

    @Test func aResponseCanEndWithItsCalls() async throws {
        let model = RecordingModel([call("weather", "Porto")])
        let session = session(model)
        var configuration = session.configuration
        configuration.stopsAfterToolCalls = true
        session.configuration = configuration
        let response = try await session.respond(to: "Rain in Porto?")
        #expect(model.requests.count == 1)
        let content = try GeneratedContent(json: response.content)
        #expect(content.arrayValue?.first?["tool"] == "weather")
        #expect(content.arrayValue?.first?["result"]?["sky"] == "rain")
    }

    @Test func theSystemMessageShowsEachToolsSignature() async throws {
        let model = RecordingModel([answer("ok")])
        _ = try await session(model).respond(to: "Hi")
        let system = model.requests[0].messages[0].content
        #expect(system.contains("- weather(city: string): Tells the weather of a city."))
        #expect(system.contains("- clock(city: string): Tells the time in a city."))
    }
}
