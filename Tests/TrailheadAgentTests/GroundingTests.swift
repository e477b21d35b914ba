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
}
