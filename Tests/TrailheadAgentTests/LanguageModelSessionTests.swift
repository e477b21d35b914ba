import Foundation
import Testing
import Trailhead
import TrailheadModels

@testable import TrailheadAgent

/// The session API as a developer uses it, with scripted models (deterministic) and real tools.
@Suite struct LanguageModelSessionTests {
    // MARK: - Fixtures: a tool and typed answers

    struct Weather: Tool {
        let name = "weather"
        let description = "Tells the weather of a city."
        struct Arguments: Generable {
            var city: String
            static let generationSchema = SchemaBuilder.object(properties: ["city": .string()]).declaredSchema
        }
        struct Report: Generable {
            var city: String
            var sky: String
            static let generationSchema = SchemaBuilder.object(properties: ["city": .string(), "sky": .string(enum: ["sunny", "rain"])]).declaredSchema
        }
        func call(arguments: Arguments) async throws -> Report {
            guard arguments.city != "Atlantis" else { throw WeatherError(city: arguments.city) }
            return Report(city: arguments.city, sky: arguments.city == "Lisbon" ? "sunny" : "rain")
        }
    }

    struct WeatherError: Error, CustomStringConvertible {
        var city: String
        var description: String { "no weather station in \(city)" }
    }

    struct Advice: Generable, Equatable {
        var umbrella: Bool
        var reason: String
        static let generationSchema = SchemaBuilder.object(properties: ["umbrella": .boolean(), "reason": .string()]).declaredSchema
        struct PartiallyGenerated: Decodable, Sendable { var umbrella: Bool?; var reason: String? }
    }

    /// A model that replays outputs and remembers every request it was sent.
    final class RecordingModel: LanguageModel, @unchecked Sendable {
        let script: ScriptedModel
        private let lock = NSLock()
        private var storage: [ModelRequest] = []
        var finishReason: String?
        init(_ outputs: [String], nextTokenProbabilities: [TokenProbability]? = nil) {
            script = ScriptedModel(outputs: outputs, path: "recording", chunkSize: 3, nextTokenProbabilities: nextTokenProbabilities)
        }
        func nextTokenProbabilities(for messages: [ChatMessage], continuing prefix: String, count: Int) async throws -> [TokenProbability]? {
            try await script.nextTokenProbabilities(for: messages, continuing: prefix, count: count)
        }
        var id: String { "recording" }
        var availability: ModelAvailability { get async { .available } }
        var requests: [ModelRequest] { lock.withLock { storage } }
        func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
            lock.withLock { storage.append(request) }
            let reason = finishReason
            let upstream = script.generate(request)
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        for try await event in upstream {
                            if case .completed(var response) = event, let reason {
                                response.finishReason = reason
                                continuation.yield(.completed(response))
                            } else {
                                continuation.yield(event)
                            }
                        }
                        continuation.finish()
                    } catch { continuation.finish(throwing: error) }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    // MARK: - Answers

    @Test func textWithoutToolsIsOnePlainTurn() async throws {
        let model = RecordingModel(["Take an umbrella."])
        let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
        let response = try await session.respond(to: "Rain in Porto?")
        #expect(response.content == "Take an umbrella.")
        #expect(response.turns == 1)
        #expect(model.requests.first?.schema == nil, "free text is not constrained")
        #expect(session.transcript.map(\.kind) == [.instructions, .prompt, .modelTurn, .response])
    }

    @Test func aToolIsCalledAndATypedAnswerComesBack() async throws {
        let model = RecordingModel([
            #"{"name":"weather","arguments":{"city":"Porto"}}"#,
            #"{"answer":{"umbrella":true,"reason":"It rains in Porto."}}"#,
        ])
        let session = LanguageModelSession(model: model, tools: [Weather()], instructions: "Help travellers.")
        let response = try await session.respond(to: "Do I need an umbrella in Porto?", generating: Advice.self)
        #expect(response.content == Advice(umbrella: true, reason: "It rains in Porto."))
        #expect(response.model == "scripted:recording")
        #expect(response.turns == 2)
        #expect(response.transcriptEntries.map(\.kind) == [.instructions, .prompt, .modelTurn, .toolCall, .toolOutput, .modelTurn, .response])
        guard case .toolOutput(let output) = response.transcriptEntries.first(where: { $0.kind == .toolOutput }) else {
            Issue.record("no tool output"); return
        }
        #expect(output.result == ["city": "Porto", "sky": "rain"], "a Generable output is recorded as its JSON")
        // The model read the tool's result before answering, and the step protocol came from the session.
        let second = try #require(model.requests.last)
        #expect(second.messages.last?.content == #"weather returned: {"city":"Porto","sky":"rain"}"#)
        #expect(second.messages.first?.content.contains("\"name\": TOOL") == true)
        #expect(second.messages.first?.content.contains("- weather(city: string): Tells the weather of a city.") == true)
    }

    @Test func aToolErrorIsReadByTheModelAndTheRunGoesOn() async throws {
        let model = RecordingModel([
            #"{"name":"weather","arguments":{"city":"Atlantis"}}"#,
            #"{"answer":{"umbrella":false,"reason":"No data for Atlantis."}}"#,
        ])
        let session = LanguageModelSession(model: model, tools: [Weather()])
        let response = try await session.respond(to: "Umbrella in Atlantis?", generating: Advice.self)
        #expect(response.content.umbrella == false)
        #expect(model.requests.last?.messages.last?.content == "weather failed: no weather station in Atlantis")
    }

    @Test func aSecondRespondContinuesTheConversation() async throws {
        let model = RecordingModel(["Lisbon is sunny.", "Then no umbrella."])
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        _ = try await session.respond(to: "Weather in Lisbon?")
        _ = try await session.respond(to: "Umbrella?")
        let messages = try #require(model.requests.last).messages
        #expect(messages.map(\.content) == ["Be brief.", "Weather in Lisbon?", "Lisbon is sunny.", "Umbrella?"],
                "the second request repeats the first exchange word for word, so a server's prompt cache serves it")
        #expect(session.transcript.filter { $0.kind == .instructions }.count == 1)
    }

    @Test func aSchemaKnownAtRunTime() async throws {
        let schema = try GenerationSchema(json: ["type": "object", "properties": ["n": ["type": "integer"]], "required": ["n"], "additionalProperties": false])
        let session = LanguageModelSession(model: RecordingModel([#"{"n":7}"#]))
        let response = try await session.respond(to: "A number.", schema: schema)
        #expect(response.content == ["n": 7])
    }

    // MARK: - Streaming

    @Test func streamingYieldsGrowingSnapshotsOfTheAnswerOnly() async throws {
        let model = RecordingModel([
            #"{"name":"weather","arguments":{"city":"Lisbon"}}"#,
            #"{"answer":{"umbrella":false,"reason":"Sunny all day in Lisbon."}}"#,
        ])
        let session = LanguageModelSession(model: model, tools: [Weather()])
        let stream = session.streamResponse(to: "Umbrella in Lisbon?", generating: Advice.self)
        var reasons: [String] = []
        for try await snapshot in stream {
            #expect(snapshot.rawContent["tool"] == nil, "a tool-call turn is not an answer")
            if let reason = snapshot.content.reason { reasons.append(reason) }
        }
        #expect(reasons.count > 2, "the reason arrives in pieces: \(reasons)")
        #expect(zip(reasons, reasons.dropFirst()).allSatisfy { $1.hasPrefix($0) }, "each snapshot extends the last")
        #expect(reasons.last == "Sunny all day in Lisbon.")
        let response = try await stream.collect()
        #expect(response.content == Advice(umbrella: false, reason: "Sunny all day in Lisbon."))
    }

    @Test func streamingText() async throws {
        let session = LanguageModelSession(model: RecordingModel(["It is sunny in Lisbon today."]))
        var last = ""
        for try await snapshot in session.streamResponse(to: "Weather?") { last = snapshot.content }
        #expect(last == "It is sunny in Lisbon today.")
    }

    // MARK: - Prefetching

    @Test func prefetchedCallsRunBeforeTheFirstTurnAndFailuresAreToldToTheModel() async throws {
        let model = RecordingModel([#"{"answer":{"umbrella":true,"reason":"Rain in Porto."}}"#])
        let session = LanguageModelSession(model: model, tools: [Weather()])
        let response = try await session.respond(
            to: "Umbrella?", generating: Advice.self,
            prefetching: [
                ToolCallRequest(tool: "weather", arguments: ["city": "Porto"]),
                ToolCallRequest(tool: "weather", arguments: ["city": "Atlantis"]),
            ])
        #expect(response.turns == 1, "the model's only turn is the answer")
        let calls = session.transcript.compactMap { entry -> Transcript.ToolCall? in if case .toolCall(let call) = entry { call } else { nil } }
        #expect(calls.map(\.turn) == [0, 0])
        #expect(calls.allSatisfy { $0.prefetched == true })
        let kinds = session.transcript.map(\.kind)
        #expect(kinds.firstIndex(of: .toolOutput)! < kinds.firstIndex(of: .modelTurn)!, "prefetched calls answered before the first turn")
        let prompt = try #require(model.requests.first?.messages.last?.content)
        #expect(prompt.contains(#"weather returned: {"city":"Porto","sky":"rain"}"#), "\(prompt)")
        #expect(prompt.contains("weather failed: no weather station in Atlantis"), "\(prompt)")
    }

    // MARK: - Setup errors and bounds

    @Test func aGroundingPathNoSchemaHasIsAnErrorNamingBoth() async throws {
        let session = LanguageModelSession(
            model: RecordingModel([]), tools: [Weather()], grounding: Grounding([.field("/reason", from: "weather", at: "/temperature")]))
        do {
            _ = try await session.respond(to: "?", generating: Advice.self)
            Issue.record("expected a setup error")
        } catch let error as LanguageModelSession.GenerationError {
            guard case .setup(let setup) = error else { Issue.record("expected setup, got \(error)"); return }
            #expect(setup.message.contains("weather"))
            #expect(setup.message.contains("/temperature"))
        }
        let wrongField = LanguageModelSession(
            model: RecordingModel([]), tools: [Weather()], grounding: Grounding([.field("/city", from: "weather", at: "/city")]))
        await #expect(throws: LanguageModelSession.GenerationError.self) { try await wrongField.respond(to: "?", generating: Advice.self) }
    }

    @Test func groundingNarrowsTheAnswerToWhatTheToolReturned() async throws {
        struct Pick: Generable {
            var city: String
            static let generationSchema = SchemaBuilder.object(properties: ["city": .string()]).declaredSchema
        }
        let model = RecordingModel([#"{"name":"weather","arguments":{"city":"Lisbon"}}"#, #"{"answer":{"city":"Lisbon"}}"#])
        let session = LanguageModelSession(model: model, tools: [Weather()], grounding: Grounding([.field("/city", from: "weather", at: "/city")]))
        _ = try await session.respond(to: "Pick a city.", generating: Pick.self)
        let first = try #require(model.requests.first?.schema?.json.jsonString)
        #expect(!first.contains("final"), "the answer is offered only after the tool answered")
        let last = try #require(model.requests.last?.schema?.json.jsonString)
        #expect(last.contains(#""enum":["Lisbon"]"#), "\(last)")
    }

    @Test func duplicateToolNamesAreRefused() async {
        let session = LanguageModelSession(model: RecordingModel([]), tools: [Weather(), Weather()])
        await #expect(throws: LanguageModelSession.GenerationError.self) { try await session.respond(to: "?") }
    }

    @Test func aTurnCutAtTheTokenLimitIsInTheTranscript() async throws {
        let model = RecordingModel([#"{"answer":{"umbrella":true,"rea"#, #"{"answer":{"umbrella":true,"reason":"Rain."}}"#])
        model.finishReason = "length"
        let session = LanguageModelSession(model: model, tools: [Weather()])
        _ = try? await session.respond(to: "Umbrella?", generating: Advice.self)
        let turns = session.transcript.compactMap { entry -> Transcript.ModelTurn? in if case .modelTurn(let turn) = entry { turn } else { nil } }
        #expect(turns.first?.finishReason == "length")
        #expect(turns.first?.text == #"{"answer":{"umbrella":true,"rea"#)
    }

    @Test func theTranscriptFileReadsBackAsTheSessionsTranscript() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = LanguageModelSession(
            model: RecordingModel([#"{"name":"weather","arguments":{"city":"Porto"}}"#, #"{"answer":{"umbrella":true,"reason":"Rain."}}"#]),
            tools: [Weather()])
        session.configuration.transcriptFile = try TranscriptWriter(path: path)
        _ = try await session.respond(to: "Umbrella?", generating: Advice.self)
        let read = try TranscriptReader.read(path: path).entries
        #expect(read == session.transcript.entries)
        let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(session.transcript))
        #expect(decoded == session.transcript, "Transcript is Codable")
    }
}
