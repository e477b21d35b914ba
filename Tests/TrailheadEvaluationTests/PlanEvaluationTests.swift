import Testing
import TrailheadSchema
import TripPlanner

@testable import TrailheadEvaluation

/// `agent eval`'s checks of what a person reads, one by one, on plans with the faults the 1.5B
/// model's plans had: glued or cut words, texts that stop mid-sentence, a note written three
/// times, a hotel, a town or the destination as the morning's activity.
@Suite struct PlanEvaluationTests {
    let request = TripRequest(landmark: "Yellowstone National Park", days: 1, from: "2026-12-01", to: "2026-12-31")

    var facts: ToolFacts {
        var facts = ToolFacts()
        facts.add(tool: "findPointsOfInterest", result: [
            "landmark": ["name": "Yellowstone National Park", "latitude": 44.4, "longitude": -110.6],
            "results": [
                ["name": "Old Faithful", "category": "landmark", "latitude": 44.46, "longitude": -110.83, "distanceKm": 30],
                ["name": "Grand Prismatic Spring", "category": "viewpoint", "latitude": 44.52, "longitude": -110.84, "distanceKm": 28],
                ["name": "Old Faithful Inn", "category": "lodging", "latitude": 44.46, "longitude": -110.83, "distanceKm": 30],
                ["name": "West Yellowstone", "category": "town", "latitude": 44.66, "longitude": -111.1, "distanceKm": 50],
                ["name": "McCarran LeConte Camp", "category": "campground", "latitude": 44.5, "longitude": -110.5, "distanceKm": 10],
                ["name": "Mystic Falls Trail", "category": "hike", "latitude": 44.49, "longitude": -110.86, "distanceKm": 31,
                 "description": "Moderate 2.4-mile loop to a 70-foot waterfall, with 120 steps down to the river."],
                ["name": "Bridge Bay Marina", "category": "marina", "latitude": 44.53, "longitude": -110.44, "distanceKm": 20,
                 "description": "Boat rentals on Yellowstone Lake, with swimming in summer."],
                ["name": "Lake Lodge", "category": "lodging", "latitude": 44.56, "longitude": -110.4, "distanceKm": 24,
                 "description": "Log lodge on the lakeshore with cabins and a cafeteria, central for stargazing."],
            ],
        ])
        return facts
    }

    func itinerary(_ activities: [(String, String)], description: String = "Geysers and hot springs in one day.",
                   rationale: String = "The day is free for you.") -> Partial<Itinerary> {
        Partial([
            "title": "Geyser Day", "destination": "Yellowstone National Park", "description": .string(description), "rationale": .string(rationale),
            "days": [["date": "2026-12-05", "activities": .array(activities.map { place, note in
                ["time": "morning", "place": .string(place), "note": .string(note)]
            })]],
        ])
    }

    func check(_ name: String, of itinerary: Partial<Itinerary>) throws -> PlanEvaluation.Check {
        let evaluation = PlanEvaluation(itinerary: itinerary, request: request, facts: facts, plugins: ["poi"])
        return try #require(evaluation.checks.first { $0.name == name })
    }

    let good = [("Old Faithful", "Arrive early for the first eruption."), ("Grand Prismatic Spring", "See it from the overlook trail.")]

    @Test func aGoodPlanPassesTheTextChecks() throws {
        let evaluation = PlanEvaluation(itinerary: itinerary(good), request: request, facts: facts, plugins: ["poi"])
        #expect(evaluation.passed, "\(evaluation.checks.filter { !$0.passed })")
        #expect(evaluation.checks.suffix(5).map(\.name) == [
            "words well formed", "texts end a sentence", "no note repeated", "activities are things to do", "statements agree with the tools",
        ])
    }

    @Test func gluedWordsFail() throws {
        for glued in ["A quiet,undeveloped beach.", "Boats for a Staycation,!", "Stop at the Canyon VisitorEducation center.",
                      "Come forana'strip of sand.", "Walk  slowly here."] {
            let result = try check("words well formed", of: itinerary([good[0], ("Grand Prismatic Spring", glued)]))
            #expect(!result.passed, "\(glued)")
        }
        let named = try check("words well formed", of: itinerary([good[0], ("McCarran LeConte Camp", "Camp at McCarran LeConte, 1,500 m up.")]))
        #expect(named.passed, "a name the tool spelt is a word, and so is a number: \(named.detail)")
        let apostrophes = try check("words well formed", of: itinerary([good[0], ("Grand Prismatic Spring", "Don't miss it at eight o'clock.")]))
        #expect(apostrophes.passed, "\(apostrophes.detail)")
    }

    @Test func aTextThatStopsMidSentenceFails() throws {
        let cut = try check("texts end a sentence", of: itinerary([good[0], ("Grand Prismatic Spring", "Walk the boardwalk to see the…")]))
        #expect(!cut.passed)
        #expect(cut.detail.contains("does not end a sentence"))
        let unended = try check("texts end a sentence", of: itinerary(good, description: "Geysers and hot springs in one"))
        #expect(!unended.passed)
    }

    @Test func aNoteWrittenTwiceFails() throws {
        let same = "Easy hike with stunning views."
        let result = try check("no note repeated", of: itinerary([("Old Faithful", same), ("Grand Prismatic Spring", "easy hike with stunning views.")]))
        #expect(!result.passed)
        #expect(result.detail == "\"Easy hike with stunning views.\" more than once")
    }

    @Test func lodgingTownsAndTheDestinationAreNotThingsToDo() throws {
        let hotel = try check("activities are things to do", of: itinerary([("Old Faithful Inn", "Check in early."), good[1]]))
        #expect(hotel.detail == "Old Faithful Inn is a lodging, not a thing to do")
        let town = try check("activities are things to do", of: itinerary([("West Yellowstone", "Walk the main street."), good[1]]))
        #expect(town.detail == "West Yellowstone is a town, not a thing to do")
        let destination = try check("activities are things to do", of: itinerary([("Yellowstone National Park", "See it all."), good[1]]))
        #expect(destination.detail == "Yellowstone National Park is the destination itself")
    }

    @Test func aPlaceTheToolMarksADestinationIsNotAThingToDo() throws {
        let request = TripRequest(landmark: "Grand Canyon Village", days: 1, from: "2026-12-01", to: "2026-12-31")
        var facts = ToolFacts()
        facts.add(tool: "findPointsOfInterest", result: [
            "landmark": ["name": "Grand Canyon Village", "latitude": 36.05, "longitude": -112.14],
            "results": [
                ["name": "Grand Canyon National Park", "category": "landmark", "latitude": 36.06, "longitude": -112.14, "distanceKm": 1.5,
                 "description": "national park: A mile-deep canyon.", "destination": true],
                ["name": "Mather Point", "category": "viewpoint", "latitude": 36.06, "longitude": -112.11, "distanceKm": 3,
                 "description": "The busiest overlook."],
            ],
        ])
        let itinerary: Partial<Itinerary> = Partial([
            "title": "Canyon Days", "destination": "Grand Canyon Village", "description": "The canyon in one day.", "rationale": "The day is free.",
            "days": [["date": "2026-12-05", "activities": [
                ["time": "morning", "place": "Grand Canyon National Park"], ["time": "afternoon", "place": "Mather Point"],
            ]]],
        ])
        let evaluation = PlanEvaluation(itinerary: itinerary, request: request, facts: facts, plugins: ["poi"])
        let check = try #require(evaluation.checks.first { $0.name == "activities are things to do" })
        #expect(check.detail == "Grand Canyon National Park is a destination in itself, not a thing to do there")
    }

    /// "statements agree with the tools" of a plan whose rationale is `rationale`.
    func statements(_ rationale: String) throws -> PlanEvaluation.Check {
        try check("statements agree with the tools", of: itinerary(good, rationale: rationale))
    }

    @Test func aKindOfPlaceTheToolContradictsFails() throws {
        let museum = try statements("McCarran LeConte Camp is a quiet museum.")
        #expect(!museum.passed)
        #expect(museum.detail == "McCarran LeConte Camp is called a museum, but the tool gives it as a campground")
        #expect(!(try statements("Start at the Old Faithful Inn museum.")).passed, "a kind word right after the name")
        #expect(!(try statements("Rest at Bridge Bay Marina, a trail for families.")).passed, "said of it after a comma")
        #expect(!(try statements("Walk to the trail Grand Prismatic Spring.")).passed, "right before it")
    }

    @Test func aNumberTheToolContradictsFails() throws {
        let length = try statements("Hike the 5-mile Mystic Falls Trail before lunch.")
        #expect(!length.passed)
        #expect(length.detail == #"Mystic Falls Trail: "5-mile", but the tool says "2.4-mile", "70-foot""#)
        #expect(!(try statements("Mystic Falls Trail, with its 300 steps, is steep.")).passed, "a count of what the tool counts")
        #expect(!(try statements("Old Faithful, about 80 km away, erupts often.")).passed, "the distance from the landmark")
    }

    @Test func statementsTheToolsBackOrCannotCheckPass() throws {
        for rationale in [
            "Old Faithful Inn is a historic hotel.",  // its category
            "Lake Lodge is a lodge for stargazing.",  // its category, and the tool says "stargazing"
            "Stargazing at Grand Prismatic Spring.",  // "at" between: no kind is said of the place
            "Hike the 2.5-mile Mystic Falls Trail past its 70-foot falls.",  // within rounding of 2.4 miles
            "Mystic Falls Trail, about 4 km, ends at a waterfall.",  // 2.4 miles in km
            "Mystic Falls Trail has 120 steps.",
            "Old Faithful, 30 km away, erupts often.",  // the tool's distance
            "Old Faithful, 10 km from West Yellowstone.",  // from elsewhere: not checked
            "Grand Prismatic Spring is 370 feet across.",  // the tool gives no length for it: not checked
            "Mystic Falls Trail, a 30-minute walk from the lodge.",  // from elsewhere: not checked
            "Bridge Bay Marina is a small beach for swimming.",  // the tool's description says "swimming"
            "The Yellowstone National Park trails are open.",  // plural: where, not what
            "Two geysers and the West Yellowstone museum.",  // a kind word after a town says where
        ] {
            let result = try statements(rationale)
            #expect(result.passed, "\(rationale): \(result.detail)")
        }
    }
}
