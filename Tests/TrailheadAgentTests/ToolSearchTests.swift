import Foundation
import Synchronization
import Testing
import TrailheadModels
import TrailheadSchema

@testable import TrailheadAgent

/// Above a threshold of tools the model sees `searchTools`; what a search finds joins the next
/// turn's step schema.
@Suite struct ToolSearchTests {
    typealias Fixtures = LanguageModelSessionTests

    /// 100 tools: ten actions on ten subjects, each with its own parameters.
    static let hundredTools: [CatalogTool] = {
        let actions = ["calculate", "find", "convert", "book", "list", "send", "cancel", "update", "translate", "estimate"]
        let subjects: [(String, [String])] = [
            ("triangle area", ["base", "height"]), ("flight", ["origin", "destination", "date"]), ("hotel room", ["city", "nights"]),
            ("stock price", ["ticker", "exchange"]), ("currency amount", ["amount", "from_currency", "to_currency"]),
            ("email message", ["recipient", "subject"]), ("calendar event", ["title", "start_time"]), ("recipe", ["ingredients", "servings"]),
            ("movie ticket", ["movie", "showtime"]), ("loan payment", ["principal", "rate", "years"]),
        ]
        return actions.flatMap { action in
            subjects.map { subject, parameters in
                let words = subject.split(separator: " ").map(String.init)
                let name = ([action] + words).joined(separator: "_")
                return CatalogTool(name: name, description: "\(action.capitalized)s the \(subject) from its \(parameters.joined(separator: " and ")).", parameterNames: parameters)
            }
        }
    }()

    @Test func theIndexFindsTheRightToolAmongAHundred() {
        let index = ToolSearchIndex(Self.hundredTools.map { ToolSearchIndex.Document(name: $0.name, description: $0.description, parameters: $0.parameters) })
        #expect(index.search("area of a triangle with base 10 and height 5", limit: 3).first == "calculate_triangle_area")
        #expect(index.search("convert 100 US dollars to euros, amount from_currency to_currency", limit: 3).first == "convert_currency_amount")
        #expect(index.search("book a flight from Paris to Rome tomorrow", limit: 3).first == "book_flight")
        #expect(index.search("cancel my movie ticket", limit: 1) == ["cancel_movie_ticket"])
        #expect(index.search("zzz qqq", limit: 5).isEmpty, "no shared term, no result")
        #expect(ToolSearchIndex.terms("findPointsOfInterest") == ["find", "point", "interest"])
    }

    @Test func aSessionWithAHundredToolsSearchesThenCallsWhatItFound() async throws {
        // Given a session over 100 tools and a model that searches, then calls what it found…
        let model = Fixtures.RecordingModel([
            LanguageModelSession.stepText(calling: "searchTools", arguments: ["query": "triangle area base height"]),
            LanguageModelSession.stepText(calling: "calculate_triangle_area", arguments: ["base": 10, "height": 5]),
            LanguageModelSession.stepText(answering: "The area is 25."),
        ])
        let session = LanguageModelSession(model: model, tools: Self.hundredTools, instructions: "Use the tools.")
        let answer = try await session.respond(to: "What is the area of a triangle of base 10 and height 5?")
        #expect(answer.content == "The area is 25.")

        // …the system message lists only the search tool…
        let system = try #require(model.requests.first?.messages.first?.content)
        #expect(system.contains("searchTools"))
        #expect(!system.contains("calculate_triangle_area"))
        #expect(system.contains("100 more tools are not listed"))
        // …the first turn may only search (or answer), the second may call what was found.
        let first = try #require(model.requests[0].schema?.json.jsonString)
        #expect(first.contains("searchTools") && !first.contains("calculate_triangle_area"))
        let second = try #require(model.requests[1].schema?.json.jsonString)
        #expect(second.contains("calculate_triangle_area"))
        #expect(!second.contains("book_flight"), "tools the search did not find stay out")
        #expect(model.requests[1].messages.last?.content.contains("calculate_triangle_area(") == true, "the search result shows how to call it")
        let called = session.transcript.compactMap { if case .toolCall(let call) = $0 { call.tool } else { nil } }
        #expect(called == ["searchTools", "calculate_triangle_area"])
    }

    @Test func aTurnAfterASearchThatFoundToolsCallsNotAnswers() async throws {
        let model = Fixtures.RecordingModel([
            LanguageModelSession.stepText(calling: "searchTools", arguments: ["query": "zzz"]),
            LanguageModelSession.stepText(calling: "searchTools", arguments: ["query": "triangle area"]),
            LanguageModelSession.stepText(calling: "calculate_triangle_area", arguments: ["base": 10, "height": 5]),
            LanguageModelSession.stepText(answering: "The area is 25."),
        ])
        let session = LanguageModelSession(model: model, tools: Self.hundredTools, instructions: "Use the tools.")
        _ = try await session.respond(to: "What is the area of a triangle of base 10 and height 5?")
        let schemas = try model.requests.map { try #require($0.schema?.json.jsonString) }
        #expect(schemas.count == 4)
        #expect(schemas[1].contains(#""answer""#), "a query that found nothing leaves the answer offered…")
        #expect(schemas[1].contains("calculate_triangle_area"), "…and the request's words found the tool")
        #expect(model.requests[1].messages.last?.content.contains("Nothing matched the query") == true)
        #expect(!schemas[2].contains(#""answer""#), "after a search that found tools, the turn calls: \(schemas[2])")
        #expect(schemas[2].contains("calculate_triangle_area"))
        #expect(schemas[3].contains(#""answer""#), "after the call, the answer is offered again")
    }

    @Test func searchingThePromptOffersItsToolsInTheFirstTurn() async throws {
        let model = Fixtures.RecordingModel([
            LanguageModelSession.stepText(calling: "convert_currency_amount", arguments: ["amount": 100, "from_currency": "USD", "to_currency": "EUR"]),
            LanguageModelSession.stepText(answering: "92 euros."),
        ])
        let session = LanguageModelSession(model: model, tools: Self.hundredTools, instructions: "Use the tools.")
        session.configuration.toolSearch.searchesPrompt = true
        _ = try await session.respond(to: "Convert an amount of 100 dollars to another currency.")
        let first = try #require(model.requests.first?.schema?.json.jsonString)
        #expect(first.contains("convert_currency_amount"))
        let prefetched = session.transcript.compactMap { if case .toolCall(let call) = $0, call.prefetched == true { call.tool } else { nil } }
        #expect(prefetched == ["searchTools"])
    }

    @Test func aCallOfAToolNotFoundYetIsRepaired() async throws {
        let model = Fixtures.RecordingModel([
            LanguageModelSession.stepText(calling: "book_flight", arguments: ["origin": "Paris", "destination": "Rome", "date": "tomorrow"]),
            LanguageModelSession.stepText(answering: "Done."),
        ])
        let session = LanguageModelSession(model: model, tools: Self.hundredTools, instructions: "Use the tools.")
        _ = try await session.respond(to: "Book a flight.")
        let repair = session.transcript.compactMap { if case .repair(let repair) = $0 { repair.message } else { nil } }
        #expect(repair.first?.contains("book_flight has not been found yet") == true)
    }

    @Test func fewToolsAreListedAndTheThresholdAndModesDecide() {
        let few = LanguageModelSession(model: ScriptedModel(outputs: []), tools: Array(Self.hundredTools.prefix(3)))
        #expect(few.searchTool(few.configuration) == nil)
        #expect(few.systemMessage.contains("calculate_triangle_area"))
        var always = few.configuration
        always.toolSearch = .always
        #expect(few.searchTool(always) != nil)
        let many = LanguageModelSession(model: ScriptedModel(outputs: []), tools: Self.hundredTools)
        var never = many.configuration
        never.toolSearch = .never
        #expect(many.searchTool(never) == nil)
        #expect(many.searchTool(many.configuration) != nil, "100 tools are more than 16")
    }

    @Test func automaticSearchCountsTheListingAgainstTheModelsContext() async throws {
        // 100 tools (about 7,300 tokens of listing): searched on a 4,096-token context, listed on a
        // 32,768-token one, whatever their number.
        for (context, searched) in [(4_096, true), (32_768, false)] {
            let model = ScriptedModel(outputs: [LanguageModelSession.stepText(answering: "Done.")], contextSize: context)
            let session = LanguageModelSession(model: model, tools: Self.hundredTools)
            _ = try await session.respond(to: "Hello")
            let system = session.transcript.compactMap { if case .instructions(let instructions) = $0 { instructions.text } else { nil } }.first ?? ""
            #expect(system.contains("searchTools") == searched, "context \(context)")
            #expect(system.contains("calculate_triangle_area") == !searched, "context \(context)")
        }
        #expect(ToolSearch.automatic.applies(toolCount: 29, listing: [], listingShare: 1_700.0 / 4_096) == false)
        #expect(ToolSearch.automatic.applies(toolCount: 3, listing: [], listingShare: 2_100.0 / 4_096) == true)
    }

    @Test func prewarmWarmsTheSystemMessageTheFirstResponseSends() async throws {
        // Before, prewarm built the system message before the listing was counted: on a
        // 32,768-token context it warmed the search tool's message, and the response listed the tools.
        for (context, searched) in [(4_096, true), (32_768, false)] {
            let model = PrewarmRecorder(base: ScriptedModel(outputs: [LanguageModelSession.stepText(answering: "Done.")], contextSize: context))
            let session = LanguageModelSession(model: model, tools: Self.hundredTools)
            session.prewarm()
            _ = try await session.respond(to: "Hello")
            let system = session.transcript.compactMap { if case .instructions(let instructions) = $0 { instructions.text } else { nil } }.first ?? ""
            #expect(system.contains("searchTools") == searched, "context \(context)")
            let warmed = model.prefixes.withLock { $0 }
            let warmedWhatWasSent = warmed == [[.system(system)]]
            #expect(warmedWhatWasSent, "context \(context): warmed \(warmed.count) prefixes, search tool \(warmed.first?.first?.content.contains("searchTools") ?? false)")
        }
    }

    /// A model that keeps the prefixes it was asked to prewarm.
    final class PrewarmRecorder: LanguageModel {
        let base: ScriptedModel
        let prefixes = Mutex<[[ChatMessage]]>([])
        init(base: ScriptedModel) { self.base = base }
        var id: String { base.id }
        var availability: ModelAvailability { get async { .available } }
        var contextSize: Int? { get async { await base.contextSize } }
        func prewarm(prefix: [ChatMessage]) async throws { prefixes.withLock { $0.append(prefix) } }
        func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> { base.generate(request) }
    }

    /// A tool of the catalogue: string parameters, a fixed answer.
    struct CatalogTool: Tool {
        typealias Arguments = GeneratedContent
        let name: String
        let description: String
        let parameters: GenerationSchema

        init(name: String, description: String, parameterNames: [String]) {
            self.name = name
            self.description = description
            let properties = JSONObject(parameterNames.map { ($0, ["type": ["string", "number"]] as GeneratedContent) })
            parameters = try! GenerationSchema(json: [
                "type": "object", "properties": .object(properties), "required": .array(parameterNames.map { .string($0) }),
                "additionalProperties": false,
            ])
        }

        func call(arguments: GeneratedContent) async throws -> GeneratedContent { ["status": "done"] }
    }
}
