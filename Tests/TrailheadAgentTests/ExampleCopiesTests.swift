import Foundation
import Testing
import Trailhead
import TrailheadModels

@testable import TrailheadAgent

/// "Here is an example, but don't copy it": the session refuses an answer that repeats a text of
/// the instructions' example which neither the request nor a tool said (scripted model).
@Suite struct ExampleCopiesTests {
    typealias RecordingModel = LanguageModelSessionTests.RecordingModel
    typealias Weather = LanguageModelSessionTests.Weather
    typealias Advice = LanguageModelSessionTests.Advice

    let keys = StepSchema.keys
    let example = Advice(umbrella: true, reason: "Showers all day in Bergen.")

    func session(_ model: RecordingModel) -> LanguageModelSession {
        LanguageModelSession(model: model, tools: [Weather()]) {
            "Help travellers pack."
            "Here is an example, but don't copy it:"
            example
        }
    }

    func answer(_ reason: String) -> String { #"{"\#(keys.final)":{"umbrella":true,"reason":"\#(reason)"}}"# }

    func repairs(_ session: LanguageModelSession) -> [String] {
        session.transcript.entries.compactMap { entry in if case .repair(let repair) = entry { repair.message } else { nil } }
    }

    @Test func theInstructionsKeepTheirExamplesApart() throws {
        let expected = try example.generatedContent()
        let instructions = Instructions {
            "Help travellers pack."
            example
        }
        #expect(instructions.examples == [expected])
        #expect(instructions.text.hasPrefix("Help travellers pack.\n{"))
        #expect(Instructions("plain").examples.isEmpty)
    }

    @Test func anAnswerCopyingTheExampleIsRepairedNamingWhereAndWhat() async throws {
        let model = RecordingModel([answer("Showers all day in Bergen."), answer("Rain in Porto until noon.")])
        let session = session(model)
        let response = try await session.respond(to: "Do I need an umbrella in Porto?", generating: Advice.self)
        #expect(response.content.reason == "Rain in Porto until noon.")
        let messages = repairs(session)
        #expect(messages.count == 1)
        #expect(messages[0].contains("/reason") && messages[0].contains("\"Showers all day in Bergen.\"") && messages[0].contains("example"))
    }

    @Test func aRepairAnsweredWordForWordAsBeforeIsAskedAgainSampling() async throws {
        // Greedy, the same context gives the same answer: the third turn samples (seeded).
        let copy = answer("Showers all day in Bergen.")
        let model = RecordingModel([copy, copy, answer("Rain in Porto until noon.")])
        let session = session(model)
        let response = try await session.respond(
            to: "Do I need an umbrella in Porto?", generating: Advice.self, options: GenerationOptions(sampling: .greedy))
        #expect(response.content.reason == "Rain in Porto until noon.")
        #expect(model.requests.map(\.options.temperature) == [0, 0, 0.7])
        #expect(model.requests[2].options.seed == 3 && model.requests[2].options.topK == 40)
    }

    @Test func aTextTheRequestOrAToolSaidIsNoCopy() async throws {
        // The request says the example's words itself: repeating them is answering it.
        let model = RecordingModel([answer("Showers all day in Bergen.")])
        let session = session(model)
        let response = try await session.respond(to: "The forecast: showers all day in Bergen. Umbrella?", generating: Advice.self)
        #expect(response.content.reason == "Showers all day in Bergen.")
        #expect(repairs(session).isEmpty)
    }

    @Test func oneWordValuesAreChoicesNotCopies() {
        let copies = ExampleCopies(examples: [["kind": "sightseeing", "title": "Chureito Pagoda"]], request: "Plan Kyoto.")
        #expect(copies.problems(in: ["kind": "sightseeing", "title": "Kinkaku-ji Temple"], schema: [:]).isEmpty)
        #expect(copies.problems(in: ["days": [["title": "chureito pagoda"]]], schema: [:]) .count == 1)
        // A value the answer's schema offers (an enum the request allows) is the request's.
        #expect(copies.problems(in: ["title": "Chureito Pagoda"], schema: ["enum": ["Chureito Pagoda"]]).isEmpty)
    }
}
