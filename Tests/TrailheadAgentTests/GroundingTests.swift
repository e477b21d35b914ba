import Foundation
import Testing
import Trailhead
import TrailheadModels

@testable import TrailheadAgent

/// A grounding rule narrows the answer wherever its path reaches, the way the session's setup
/// check found it: through a recursive type's `$ref` and through alternatives.
@Suite struct GroundingTests {
    struct Cities: Tool {
        let name = "cities"
        let description = "Names cities."
        struct Arguments: Generable { var region: String }
        struct Found: Generable { var names: [String] }
        func call(arguments: Arguments) async throws -> Found { Found(names: ["Lisbon", "Porto"]) }
    }

    /// A stop of a route, with detours that are stops too (its schema is a definition, reached by `$ref`).
    struct Stop: Generable {
        var city: String
        var detours: [Stop]
    }

    struct Route: Generable {
        var stops: [Stop]
    }

    @Test func aFieldBehindAReferenceIsNarrowedAsTheSetupCheckFoundIt() async throws {
        #expect(Route.generationSchema.json["properties"]?["stops"]?["items"] == ["$ref": "#/$defs/Stop"])
        let model = ScriptedModel(outputs: [
            #"{"name":"cities","arguments":{"region":"north"}}"#,
            #"{"answer":{"stops":[{"city":"Atlantis","detours":[]}]}}"#,  // not a city the tool returned
            #"{"answer":{"stops":[{"city":"Porto","detours":[]}]}}"#,
        ], path: "grounding")
        let session = LanguageModelSession(
            model: model, tools: [Cities()], grounding: Grounding([.field("/stops/*/city", from: "cities", at: "/names/*")]))
        let response = try await session.respond(to: "A route.", generating: Route.self)
        #expect(response.content.stops.map(\.city) == ["Porto"])
        #expect(response.turns == 3, "the invented city was refused and repaired")
        let repairs = session.transcript.compactMap { entry -> String? in if case .repair(let repair) = entry { repair.message } else { nil } }
        #expect(repairs.first?.contains("Atlantis") == true, "\(repairs)")
    }

    @Test func aFieldInsideAlternativesIsNarrowedInEach() async throws {
        let answer = try GenerationSchema(json: [
            "type": "object",
            "properties": ["city": ["anyOf": [["type": "string"], ["type": "object", "properties": ["name": ["type": "string"]], "required": ["name"]]]]],
            "required": ["city"], "additionalProperties": false,
        ])
        let model = ScriptedModel(outputs: [
            #"{"name":"cities","arguments":{"region":"north"}}"#,
            #"{"answer":{"city":"Atlantis"}}"#,
            #"{"answer":{"city":"Lisbon"}}"#,
        ], path: "grounding")
        let session = LanguageModelSession(model: model, tools: [Cities()], grounding: Grounding([.field("/city", from: "cities", at: "/names/*")]))
        let response = try await session.respond(to: "A city.", schema: answer)
        #expect(response.content == ["city": "Lisbon"])
        #expect(response.turns == 3)
    }

    struct Stays: Tool {
        let name = "stays"
        let description = "Places around a town."
        struct Arguments: Generable { var town: String }
        struct Found: Generable {
            var town: String
            var places: [Place]
        }
        struct Place: Generable {
            var name: String
            var kind: String
        }
        func call(arguments: Arguments) async throws -> Found {
            Found(town: "Sintra", places: [.init(name: "Sintra", kind: "town"), .init(name: "Pena Palace", kind: "museum"),
                                           .init(name: "Hotel Central", kind: "lodging"), .init(name: "MOORISH CASTLE", kind: "museum")])
        }
    }

    @Test func exclusionsLeaveValuesOutOfTheNarrowedField() async throws {
        struct Visit: Generable { var place: String }
        let model = ScriptedModel(outputs: [
            #"{"name":"stays","arguments":{"town":"Sintra"}}"#,
            #"{"answer":{"place":"Pena Palace"}}"#,
        ], path: "grounding")
        let recorder = RequestLog(model)
        let session = LanguageModelSession(
            model: recorder, tools: [Stays()],
            grounding: Grounding([.field("/place", from: "stays", at: "/places/*/name", except: [
                .valueAt("/town"), .member("kind", in: ["lodging"]), .values(["Moorish Castle"]),
            ])]))
        let response = try await session.respond(to: "Where to?", generating: Visit.self)
        #expect(response.content.place == "Pena Palace")
        let last = try #require(recorder.schemas.last?.jsonString)
        #expect(last.contains(#""enum":["Pena Palace"]"#), "the town, the hotel and an excluded name (any case) are left out: \(last)")
    }

    @Test func anExclusionByMemberNeedsAPathEndingInAMember() async throws {
        struct Visit: Generable { var place: String }
        let session = LanguageModelSession(
            model: ScriptedModel(outputs: [], path: "grounding"), tools: [Cities()],
            grounding: Grounding([.field("/place", from: "cities", at: "/names/*", except: [.member("kind", in: ["town"])])]))
        do {
            _ = try await session.respond(to: "?", generating: Visit.self)
            Issue.record("expected a setup error")
        } catch let error as LanguageModelSession.GenerationError {
            guard case .setup(let setup) = error else { Issue.record("expected setup, got \(error)"); return }
            #expect(setup.message.contains("/names/*"), "\(setup.message)")
        }
    }

    @Test func aToolThatCannotBackTheAnswerEndsTheSessionWithItsOwnWords() async throws {
        struct Visit: Generable { var place: String }
        struct Lost: Tool {
            let name = "lost"
            let description = "Knows no town."
            struct Arguments: Generable { var town: String }
            struct Found: Generable { var names: [String] }
            struct Unknown: Error, CustomStringConvertible { var description: String { "unknown town 'Qwrtp'" } }
            func call(arguments: Arguments) async throws -> Found { throw Unknown() }
        }
        let recorder = RequestLog(ScriptedModel(outputs: [#"{"answer":{"place":"Qwrtp Beach"}}"#], path: "grounding"))
        let session = LanguageModelSession(
            model: recorder, tools: [Lost()], grounding: Grounding([.field("/place", from: "lost", at: "/names/*")]))
        do {
            _ = try await session.respond(to: "Where to?", generating: Visit.self, prefetching: [ToolCallRequest(tool: "lost", arguments: ["town": "Qwrtp"])])
            Issue.record("expected no answer")
        } catch let error as LanguageModelSession.GenerationError {
            guard case .ungrounded(let failure) = error else { Issue.record("expected ungrounded, got \(error)"); return }
            #expect(failure.tool == "lost")
            #expect(failure.error == "unknown town 'Qwrtp'")
            #expect("\(error)".contains("lost failed: unknown town 'Qwrtp'"), "\(error)")
        }
        #expect(recorder.schemas.isEmpty, "the model was never asked")
        #expect(session.transcript.entries.last?.kind == .error)
    }
}

extension GroundingTests {
    struct Sights: Tool {
        let name = "sights"
        let description = "Sights of a town, described."
        struct Arguments: Generable { var town: String }
        struct Found: Generable {
            var sights: [Sight]
        }
        struct Sight: Generable {
            var name: String
            var description: String?
            var destination: Bool?
        }
        func call(arguments: Arguments) async throws -> Found {
            Found(sights: [
                .init(name: "Pena Palace", description: "A Romanticist castle on a hill above Sintra."), .init(name: "Quinta", description: nil),
                .init(name: "Sintra-Cascais Natural Park", destination: true), .init(name: "Moorish Castle"), .init(name: "Monserrate Palace"),
            ])
        }
    }

    struct Tour: Generable {
        var stops: [Stop]
        struct Stop: Generable {
            var place: String
            var reason: String
            var about: String?
        }
    }

    @Test func aQuotedFieldIsTheToolsWordsNeverTheModels() async throws {
        let recorder = RequestLog(ScriptedModel(outputs: [
            #"{"name":"sights","arguments":{"town":"Sintra"}}"#,
            #"{"answer":{"stops":[{"place":"Pena Palace","reason":"A view for the whole family."},{"place":"Quinta","reason":"Gardens."}]}}"#,
        ], path: "grounding"))
        let session = LanguageModelSession(
            model: recorder, tools: [Sights()],
            grounding: Grounding(
                [.field("/stops/*/place", from: "sights", at: "/sights/*/name")],
                quotes: [.quote("/stops/*/about", from: "sights", items: "/sights/*", member: "description", where: "name", equals: "place")]))
        let response = try await session.respond(to: "A tour.", generating: Tour.self)
        #expect(response.content.stops.map(\.about) == ["A Romanticist castle on a hill above Sintra.", nil], "the tool's words, or none")
        #expect(response.content.stops.first?.reason == "A view for the whole family.")
        let answerSchema = try #require(recorder.schemas.last?.jsonString)
        #expect(!answerSchema.contains("about"), "the model never writes a quoted field: \(answerSchema)")
    }

    @Test func aQuoteOfAFieldTheAnswerLacksIsASetupError() async throws {
        let session = LanguageModelSession(
            model: ScriptedModel(outputs: [], path: "grounding"), tools: [Sights()],
            grounding: Grounding(quotes: [.quote("/stops/*/facts", from: "sights", items: "/sights/*", member: "description", where: "name", equals: "place")]))
        await #expect(throws: LanguageModelSession.GenerationError.self) { try await session.respond(to: "?", generating: Tour.self) }
    }
}

extension GroundingTests {
    struct Itinerary: Generable {
        var days: [Day]
        struct Day: Generable { var visits: [String] }
    }

    @Test func aRepeatedValueOfADistinctFieldIsRepairedNamingTheValuesNotUsedYetAndPinned() async throws {
        let repeated = #"{"answer":{"days":[{"visits":["Pena Palace","Moorish Castle"]},{"visits":["Pena Palace","Moorish Castle"]}]}}"#
        let recorder = RequestLog(ScriptedModel(outputs: [
            #"{"name":"sights","arguments":{"town":"Sintra"}}"#,
            repeated,
            repeated,  // as the 1.5B model did, told what was wrong: refused by the pinned schema
            #"{"answer":{"days":[{"visits":["Pena Palace","Moorish Castle"]},{"visits":["Quinta","Monserrate Palace"]}]}}"#,
        ], path: "grounding"))
        let session = LanguageModelSession(
            model: recorder, tools: [Sights()],
            grounding: Grounding([.field("/days/*/visits/*", from: "sights", at: "/sights/*/name", except: [.flagged("destination")], distinct: true)]))
        let response = try await session.respond(to: "Two days in Sintra.", generating: Itinerary.self)
        #expect(response.content.days.map(\.visits) == [["Pena Palace", "Moorish Castle"], ["Quinta", "Monserrate Palace"]])
        #expect(response.turns == 4, "two repairs, then the answer is taken")
        let repairs = session.transcript.compactMap { entry -> String? in if case .repair(let repair) = entry { repair.message } else { nil } }
        #expect(repairs.count == 2)
        let message = try #require(repairs.first)
        #expect(message.contains(#"/days/1/visits/0: "Pena Palace" is already at /days/0/visits/0"#), "\(message)")
        #expect(message.contains(#"/days/1/visits/1: "Moorish Castle" is already at /days/0/visits/1"#), "\(message)")
        #expect(message.contains(#"not used yet: "Quinta", "Monserrate Palace""#), "only values the rule allows: \(message)")
        #expect(!message.contains("Natural Park"), "a value the tool flags is never offered: \(message)")
        let answerSchema = try #require(recorder.schemas.last?.jsonString)
        #expect(!answerSchema.contains("Natural Park"), "\(answerSchema)")
        // After the repeat, the turn's schema keeps each place given first and shares the unused
        // ones out among the repeats: the same answer cannot be written again.
        #expect(!recorder.schemas[1].jsonString.contains("prefixItems"), "nothing pinned before a repeat")
        let pinned = recorder.schemas[2].jsonString
        for values in [#"["Pena Palace"]"#, #"["Moorish Castle"]"#, #"["Quinta"]"#, #"["Monserrate Palace"]"#] {
            #expect(pinned.contains(#""enum":"# + values), "\(values) in \(pinned)")
        }
        #expect(repairs.last?.contains("/days/1/visits/0") == true, "the same answer again breaks the pinned schema: \(repairs)")
    }

    @Test func aDistinctRuleNeedsAField() async throws {
        let session = LanguageModelSession(
            model: ScriptedModel(outputs: [], path: "grounding"), tools: [Sights()],
            grounding: Grounding([.init(field: nil, tool: "sights", values: "/sights/*/name", enough: nil, atLeast: 1, except: [], distinct: true)]))
        await #expect(throws: LanguageModelSession.GenerationError.self) { try await session.respond(to: "?", generating: Itinerary.self) }
    }
}

/// A model that remembers the schema of every request it was sent.
final class RequestLog: LanguageModel, @unchecked Sendable {
    let model: any LanguageModel
    private let lock = NSLock()
    private var storage: [GeneratedContent] = []
    init(_ model: any LanguageModel) { self.model = model }
    var id: String { model.id }
    var availability: ModelAvailability { get async { .available } }
    var schemas: [GeneratedContent] { lock.withLock { storage } }
    func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        lock.withLock { storage.append(request.schema?.json ?? .null) }
        return model.generate(request)
    }
}
