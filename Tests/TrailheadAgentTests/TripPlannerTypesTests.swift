import PointsOfInterestTypes
import Testing
import TrailheadAgent
import TrailheadSchema

@testable import TripPlanner

/// The flagship on its own types: the draft and the itinerary derive the schemas once written by
/// hand, the planner fills in a draft as an itinerary, and tools' results are read typed.
@Suite struct TripPlannerTypesTests {
    let request = TripRequest(landmark: "Joshua Tree National Park", days: 3, from: "2026-12-01", to: "2026-12-31", companions: ["Ana"])

    @Test func theDraftsSchemaIsTheOneWrittenByHandBefore() throws {
        let planner = TripPlanner(request: request)
        let activity = SchemaBuilder.object(properties: ["place": .string(), "about": .string().optional])
        let day = SchemaBuilder.object(properties: ["activities": .array(of: activity, count: planner.activitiesPerDay)])
        let handWritten = SchemaBuilder.object(properties: [
            "title": .text(words: TripPlanner.titleWords),
            "description": .sentence(words: TripPlanner.textWords),
            "rationale": .sentence(words: TripPlanner.textWords),
            "days": .array(of: day, count: request.days),
        ]).declaredSchema
        #expect(planner.draftSchema.json == handWritten.json)
        #expect(planner.draftSchema.promptDescription == handWritten.promptDescription)
    }

    @Test func theItinerarysSchemaIsTheOneWrittenByHandBefore() throws {
        let handWritten = SchemaBuilder.object(properties: [
            "title": .text(words: 2...8, description: "A short title of your own"),
            "destination": .string(description: "The landmark"),
            "description": .sentence(words: 4...20, description: "One sentence on this trip"),
            "rationale": .sentence(words: 4...20, description: "Why these dates and places suit the travellers"),
            "days": .array(of: SchemaBuilder.object(properties: [
                "date": .string(description: "A free day, YYYY-MM-DD", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"),
                "activities": .array(of: SchemaBuilder.object(properties: [
                    "time": .enumeration(TimeOfDay.self),
                    "place": .string(description: "A place the tool returned"),
                    "category": .string(description: "Its category").optional,
                    "note": .sentence(words: 3...12, description: "One sentence of advice").optional,
                    "about": .string(description: "What the tool says of the place").optional,
                ]), minItems: 2, maxItems: 3),
            ]), minItems: 1, maxItems: 14),
            "companions": .array(of: .string(), maxItems: 8).described("People from the request, as the contacts tool names them").optional,
            "lodging": .string(description: "Where the travellers stay, a lodging place the tool returned").optional,
        ]).declaredSchema
        #expect(Itinerary.generationSchema.json == handWritten.json)
    }

    var facts: ToolFacts {
        var facts = ToolFacts()
        facts.add(tool: "calendarFreeDays", result: ["timeZone": "UTC", "freeDays": ["2026-12-02", "2026-12-05", "2026-12-06", "2026-12-07"], "busyDays": []])
        facts.add(tool: "findPointsOfInterest", result: [
            "landmark": ["name": "Joshua Tree", "latitude": 34, "longitude": -116],
            "results": [
                ["name": "Keys View", "category": "viewpoint", "latitude": 33.9, "longitude": -116.2, "distanceKm": 3],
                ["name": "Joshua Tree Saloon", "category": "restaurant", "latitude": 34.1, "longitude": -116.3, "distanceKm": 9],
            ],
        ])
        facts.add(tool: "searchContacts", result: ["contacts": [["name": "Ana Lima", "homeCity": "Lisbon"], ["name": "Bruno Lima"]]])
        return facts
    }

    @Test func aDraftIsFilledInWithWhatThePlannerDecides() throws {
        let planner = TripPlanner(request: request)
        let draft = TripPlanner.Draft(
            title: "Desert Days", description: "Rocks and stars.", rationale: "Free days.",
            days: [.init(activities: [.init(place: "Joshua Tree Saloon"), .init(place: "Keys View", about: "A viewpoint on the crest.")])])
        let itinerary = planner.itinerary(from: draft, facts: facts)
        #expect(itinerary.destination == "Joshua Tree National Park")
        #expect(itinerary.days?.first?.date == "2026-12-05", "the first stretch of three free days")
        #expect(itinerary.days?.first?.activities?.map(\.place) == ["Keys View", "Joshua Tree Saloon"], "a dinner moves to the evening")
        #expect(itinerary.days?.first?.activities?.map(\.time) == [.afternoon, .evening])
        #expect(itinerary.days?.first?.activities?.last?.category == "restaurant")
        #expect(itinerary.companions == ["Ana Lima"], "only people the request names")
        #expect(itinerary.content.jsonString.hasPrefix(#"{"title":"Desert Days","destination":"Joshua Tree National Park","description""#))
        let whole = try itinerary.content.decode(as: Itinerary.self)
        #expect(whole.days[0].activities[0].about == "A viewpoint on the crest.", "what the tool says of the place")
        #expect(whole.days[0].activities[0].note == nil, "the model writes no note")
    }

    @Test func aDraftStillBeingWrittenGivesAnItinerarySoFar() throws {
        let planner = TripPlanner(request: request)
        let itinerary = planner.itinerary(from: Partial(["title": "Desert", "days": [["activities": [["place": "Keys View"]]]]]), facts: facts)
        #expect(itinerary.title == "Desert")
        #expect(itinerary.description == nil)
        #expect(itinerary.days?.first?.activities?.first?.about == nil)
        #expect(ItineraryFormat.text.render(itinerary).contains("Keys View (viewpoint)"))
    }

    @Test func theModelReadsOnlyWhatItPlansWith() throws {
        let planner = TripPlanner(request: request)
        let places = planner.summarize(tool: "findPointsOfInterest", result: [
            "results": [["name": "Keys View", "category": "viewpoint", "latitude": 33.9, "longitude": -116.2, "distanceKm": 3,
                         "description": "A viewpoint on the crest of the Little San Bernardino Mountains, over the Coachella Valley"]],
        ])
        #expect(places == ["results": [["name": "Keys View", "category": "viewpoint", "description": "A viewpoint on the crest of the Little San Berna…"]]])
        #expect(planner.summarize(tool: "calendarFreeDays", result: ["freeDays": ["2026-12-05", "2026-12-06", "2026-12-07"]])
                == ["tripDays": "Saturday 5 December 2026, Sunday 6 December 2026, Monday 7 December 2026"])
        #expect(planner.summarize(tool: "searchContacts", result: ["contacts": [["name": "Ana Lima", "emails": ["a@x"], "homeCity": "Lisbon"]]])
                == ["contacts": [["name": "Ana Lima", "homeCity": "Lisbon"]]])
        #expect(planner.summarize(tool: "findPointsOfInterest", result: ["error": "x"]) == ["results": []])
    }

    @Test func aRequestReadsBackAsItWasRecorded() throws {
        #expect(request.content == ["landmark": "Joshua Tree National Park", "days": 3, "from": "2026-12-01", "to": "2026-12-31", "companions": ["Ana"]])
        #expect(TripRequest(content: request.content) == request)
        #expect(TripRequest(content: ["landmark": "Zion", "days": 2, "from": "2026-12-01", "to": "2026-12-03"])?.companions == [])
        #expect(TripRequest(content: ["landmark": "Zion"]) == nil)
    }

    // MARK: - Never a plan from nothing; things to do

    @Test func aRequestNoPlanCanAnswerIsRefusedNamingBothNumbers() {
        #expect(TripRequest(landmark: "  ", days: 2, from: "2026-12-01", to: "2026-12-31").problem?.contains("the landmark is empty") == true)
        #expect(TripRequest(landmark: "Zion", days: 5, from: "2026-12-10", to: "2026-12-11").problem
                == "a 5-day trip does not fit the window 2026-12-10…2026-12-11, which has 2 days")
        #expect(TripRequest(landmark: "Zion", days: 2, from: "2026-12-10", to: "2026-12-11").problem == nil)
        #expect(TripRequest(landmark: "Zion", days: 2, from: "2026-12-12", to: "2026-12-11").problem?.contains("after its end") == true)
    }

    @Test func fewerFreeDaysThanTheTripIsTheRequestsProblem() {
        let planner = TripPlanner(request: TripRequest(landmark: "Zion", days: 5, from: "2026-12-01", to: "2026-12-10"))
        let short = GroundingFailure(tool: "calendarFreeDays", error: nil, found: 3, needed: 5, values: "/freeDays/*", field: nil)
        #expect(planner.requestProblem(short) == "a 5-day trip does not fit the free days of 2026-12-01…2026-12-10: the calendar leaves 3 free")
        let unknown = GroundingFailure(tool: "findPointsOfInterest", error: "unknown landmark 'Zion'", found: 0, needed: 10, values: "/results/*/name",
                                       field: "/days/*/activities/*/place")
        #expect(planner.requestProblem(unknown) == nil, "an unknown landmark is the tool's answer, not a usage error")
        let few = GroundingFailure(tool: "findPointsOfInterest", found: 6, needed: 10, values: "/results/*/name", field: "/days/*/activities/*/place")
        #expect(planner.requestProblem(few) == "a 5-day trip needs 10 places to visit, and the points-of-interest tool knows 6 around Zion")
        #expect(planner.grounding.rules.map(\.atLeast) == [10, 5], "a place for each activity, a free day for each day")
    }

    let around: GeneratedContent = [
        "landmark": ["name": "Joshua Tree National Park", "latitude": 34, "longitude": -116],
        "results": [
            ["name": "Joshua Tree National Park", "category": "landmark", "latitude": 34, "longitude": -116, "distanceKm": 0],
            ["name": "Keys View", "category": "viewpoint", "latitude": 33.9, "longitude": -116.2, "distanceKm": 3],
            ["name": "Twentynine Palms Inn", "category": "lodging", "latitude": 34.1, "longitude": -116.0, "distanceKm": 12],
            ["name": "Twentynine Palms", "category": "town", "latitude": 34.1, "longitude": -116.0, "distanceKm": 12],
            ["name": "Palm Springs International Airport", "category": "airport", "latitude": 33.8, "longitude": -116.5, "distanceKm": 40],
        ],
    ]

    @Test func lodgingTownsAirportsAndTheDestinationAreNotThingsToDo() throws {
        let planner = TripPlanner(request: request)
        #expect(planner.summarize(tool: "findPointsOfInterest", result: around) == ["results": [["name": "Keys View", "category": "viewpoint"]]],
                "the model reads only things to do")
        var facts = ToolFacts()
        facts.add(tool: "findPointsOfInterest", result: around)
        let draft = TripPlanner.Draft(
            title: "Desert Days", description: "Rocks and stars.", rationale: "Free days.", days: [.init(activities: [.init(place: "Keys View")])])
        #expect(planner.itinerary(from: draft, facts: facts).lodging == "Twentynine Palms Inn", "where the travellers stay is its own field")
        #expect(ItineraryFormat.text.render(planner.itinerary(from: draft, facts: facts)).contains("Staying at Twentynine Palms Inn"))
    }

    @Test func aCampgroundIsWhereTheTravellersStay() {
        var facts = ToolFacts()
        facts.add(tool: "findPointsOfInterest", result: ["results": [
            ["name": "Keys View", "category": "viewpoint"], ["name": "Jumbo Rocks Campground", "category": "campground"],
        ]])
        let planner = TripPlanner(request: request)
        #expect(planner.itinerary(from: TripPlanner.Draft(title: "Desert Days", description: "Rocks.", rationale: "Free.", days: []), facts: facts).lodging
                == "Jumbo Rocks Campground")
        #expect(!planner.isThingToDo(Partial(["name": "Jumbo Rocks Campground", "category": "campground"]), around: nil))
    }
}
