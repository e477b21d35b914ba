import Testing
import Trailhead
import TrailheadModels

@testable import TripPlanner

/// The planner on a scripted model over a points-of-interest tool that answers like the bundled
/// one around Grand Canyon Village: the national park around the village is marked a destination,
/// beside a hotel, a town and the things to do.
@Suite struct TripPlannerRepairTests {
    struct Places: Tool {
        let name = "findPointsOfInterest"
        let description = "Find real places near a landmark."
        enum Kind: String, CaseIterable, Generable { case hike, viewpoint, museum, lodging, town, landmark }
        struct Arguments: Generable {
            var landmark: String?
            var category: Kind?
        }
        struct Output: Generable {
            var landmark: Location
            var results: [Result]
        }
        struct Location: Generable { var name: String }
        struct Result: Generable {
            var name: String
            var category: Kind
            var distanceKm: Double
            var description: String?
            var destination: Bool?
        }
        func call(arguments: Arguments) async throws -> Output {
            Output(landmark: .init(name: "Grand Canyon Village"), results: [
                .init(name: "Grand Canyon National Park", category: .landmark, distanceKm: 1.5, description: "national park: A mile-deep canyon.", destination: true),
                .init(name: "Bright Angel Trail", category: .hike, distanceKm: 0.4, description: "Inner-canyon trail; the 3-mile round trip is a taster."),
                .init(name: "El Tovar Hotel", category: .lodging, distanceKm: 0.2, description: "Historic rim-side hotel."),
                .init(name: "Mather Point", category: .viewpoint, distanceKm: 3, description: "The busiest overlook."),
                .init(name: "Tusayan", category: .town, distanceKm: 9, description: "town of 558 people in Arizona"),
                .init(name: "Yavapai Geology Museum", category: .museum, distanceKm: 2.4, description: "Geology exhibits on the rim."),
                .init(name: "Rim Trail", category: .hike, distanceKm: 0.5, description: "Easy, mostly paved path along the rim."),
                .init(name: "Hopi Point", category: .viewpoint, distanceKm: 5, description: "A sunset viewpoint."),
                .init(name: "Shoshone Point", category: .viewpoint, distanceKm: 8, description: "A quiet point at the end of a forest walk."),
            ])
        }
    }

    let request = TripRequest(landmark: "Grand Canyon Village", days: 2, from: "2026-12-01", to: "2026-12-31")

    static func answer(_ places: [[String]]) -> String {
        let days = places.map { day in #"{"activities":["# + day.map { #"{"place":"\#($0)"}"# }.joined(separator: ",") + "]}" }
        return #"{"answer":{"title":"Canyon Days","description":"Trails and viewpoints on the South Rim.","rationale":"Both days are free for you.","days":["#
            + days.joined(separator: ",") + "]}}"
    }

    @Test func aRepeatedPlaceIsRepairedNamingThePlacesNotUsedYetAndTheNextAnswerIsTaken() async throws {
        let recorder = RequestLog(ScriptedModel(outputs: [
            Self.answer([["Bright Angel Trail", "Mather Point"], ["Bright Angel Trail", "Rim Trail"]]),
            Self.answer([["Bright Angel Trail", "Mather Point"], ["Hopi Point", "Rim Trail"]]),
        ], path: "planner"))
        let planner = TripPlanner(request: request)
        let session = planner.makeSession(model: recorder, tools: [Places()])
        let response = try await planner.plan(with: session, options: GenerationOptions(temperature: 0)).collect()
        #expect(response.content.days.map { $0.activities.map(\.place) } == [["Bright Angel Trail", "Mather Point"], ["Hopi Point", "Rim Trail"]])
        #expect(response.turns == 2, "one repair, then the answer")

        let repairs = session.transcript.compactMap { entry -> String? in if case .repair(let repair) = entry { repair.message } else { nil } }
        #expect(repairs.count == 1)
        let message = try #require(repairs.first)
        #expect(message.contains(#"/days/1/activities/0/place: "Bright Angel Trail" is already at /days/0/activities/0/place"#), "\(message)")
        #expect(message.contains(#"not used yet: "Yavapai Geology Museum", "Hopi Point", "Shoshone Point""#), "\(message)")
        for notToDo in ["Grand Canyon National Park", "El Tovar Hotel", "Tusayan"] {
            #expect(!message.contains(notToDo), "only things to do are offered: \(message)")
        }
        // The answer's places are the things to do alone: not the national park around the village.
        let schema = try #require(recorder.schemas.first?.jsonString)
        #expect(schema.contains(#""Bright Angel Trail""#) && !schema.contains("Grand Canyon National Park"), "\(schema)")
        // The repair's turn keeps the places given first and offers the unused ones for the repeat.
        let pinned = try #require(recorder.schemas.last?.jsonString)
        #expect(pinned.contains(#""enum":["Yavapai Geology Museum","Hopi Point","Shoshone Point"]"#), "\(pinned)")
        #expect(pinned.contains(#""enum":["Bright Angel Trail"]"#) && pinned.contains(#""enum":["Rim Trail"]"#), "\(pinned)")
        let grammar = try GBNFGrammar(schemaJSON: try #require(recorder.schemas.last))
        #expect(grammar.text.contains("Shoshone Point") && grammar.isExact, "the pinned schema compiles to an exact grammar")
        #expect(try GenerationSchema(json: try #require(recorder.schemas.last)).longestAnswerBytes != nil, "and keeps a bounded answer")
        let itinerary = planner.itinerary(from: Partial(try response.content.generatedContent()), transcript: session.transcript.entries)
        #expect(itinerary.lodging == "El Tovar Hotel")
        #expect(itinerary.days?.first?.activities?.first?.about == "Inner-canyon trail; the 3-mile round trip is a taster.")
    }

    @Test func aDestinationInItselfIsNotAThingToDo() async throws {
        let planner = TripPlanner(request: request)
        let found = try await Places().call(arguments: .init()).generatedContent()
        let read = planner.summarize(tool: "findPointsOfInterest", result: found)["results"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(!read.contains("Grand Canyon National Park"), "the model never reads it as a choice: \(read)")
        #expect(read.contains("Mather Point"))

        var facts = ToolFacts()
        facts.add(tool: "findPointsOfInterest", result: found)
        #expect(facts.destinations == ["Grand Canyon National Park"], "agent eval fails a plan that visits it (PlanEvaluationTests)")
    }
}
