// The trip planner of Apple's Foundation Models code-along, written against Trailhead. The types
// are the seed's: their schemas are derived from the declarations, the `@Guide`s are a table keyed
// by each type's CodingKeys (a misspelt member does not compile), and snapshots are read through
// the types' own members. The seed's tool asked MapKit; this one asks the points-of-interest index,
// through the bundled plugin.
//
//     TripPlanner "Joshua Tree National Park" [--days 3] [--model local|local:test|scripted:FILE] [--transcript FILE]
import Foundation
import Trailhead

// MARK: - Guided generation

struct Itinerary: Generable {
    let title: String
    let destinationName: String
    let description: String
    let rationale: String
    let days: [DayPlan]
    static let guides = GuideTable(CodingKeys.self, [
        .title: [.description("An exciting name for the trip."), .words(2...8)],
        .description: [.words(4...20)],
        .rationale: [.description("An explanation of how the itinerary meets the user's special requests."), .words(4...20)],
        .days: [.description("A list of day-by-day plans."), .count(1...7)],
    ])
}

struct DayPlan: Generable {
    let title: String
    let subtitle: String
    let destination: String
    let activities: [Activity]
    static let guides = GuideTable(CodingKeys.self, [
        .title: [.description("A unique and exciting title for this day plan."), .words(2...8)],
        .subtitle: [.words(2...10)], .activities: [.count(3)],
    ])
}

struct Activity: Generable {
    let type: Kind
    let title: String
    let description: String
    static let guides = GuideTable(CodingKeys.self, [.title: [.words(1...8)], .description: [.words(3...15)]])
}

enum Kind: String, Codable, CaseIterable {
    case sightseeing, foodAndDining, shopping, hotelAndLodging
}

extension Itinerary {
    static let exampleTripToJapan = Itinerary(
        title: "Onsen Trip to Japan", destinationName: "Mt. Fuji",
        description: "Sip tea, relax in hot springs and enjoy scenic views.",
        rationale: "Hot springs and quiet views suit a slow week.",
        days: [DayPlan(
            title: "Sushi and Sightseeing", subtitle: "Spend your final day enjoying sushi", destination: "Mt. Fuji",
            activities: [
                Activity(type: .foodAndDining, title: "The Restaurant at Lake Kawaguchi", description: "Savor a bowl of noodles."),
                Activity(type: .sightseeing, title: "Chureito Pagoda", description: "Climb the steps for views."),
                Activity(type: .hotelAndLodging, title: "Fuji Onsen Ryokan", description: "Soak in the hot springs."),
            ])])
}

// MARK: - Tool calling

struct FindPointsOfInterestTool: Tool {
    let name = "findPointsOfInterest"
    let description = "Finds points of interest for a landmark."
    /// It only looks places up: the session calls it rather than let the model guess (`ToolDecision`).
    let isReadOnly = true
    let landmark: String
    /// Where places come from (the seed used MapKit).
    let places: ToolRegistry

    enum Category: String, Codable, CaseIterable {
        case campground, lodging, cafe, museum, marina, restaurant, viewpoint, hike
    }

    struct Arguments: Generable {
        let pointOfInterest: Category
        let naturalLanguageQuery: String
        static let guides = GuideTable(CodingKeys.self, [
            .pointOfInterest: [.description("This is the type of destination to look up for.")],
            .naturalLanguageQuery: [.description("The natural language query of what to search for."), .words(1...5)],
        ])
    }

    /// The seed's MapKit search looked 20 km around the landmark; where the index has nothing of
    /// a kind that close (Joshua Tree's restaurants are in the towns around it), it looks farther,
    /// as a map search does, so the model is told what exists rather than left to make it up.
    static let radiiKm: [Double] = [20, 50, 100]

    /// The seed returned a sentence; a typed result lets the session ground the itinerary in it
    /// (`ItineraryPlanner.grounding`).
    struct Found: Generable {
        let kind: String
        let places: [String]
    }

    func call(arguments: Arguments) async throws -> Found {
        let kind = arguments.pointOfInterest.rawValue
        for radius in Self.radiiKm {
            let found = try await places.call(
                "findPointsOfInterest", arguments: ["landmark": .string(landmark), "category": .string(kind), "radiusKm": .number(radius)])
            let names = (found["results"]?.arrayValue ?? []).prefix(5).compactMap { $0["name"]?.stringValue }
            if !names.isEmpty { return Found(kind: kind, places: names) }
        }
        return Found(kind: kind, places: [])
    }
}

// MARK: - The planner

final class ItineraryPlanner: Sendable {
    let landmark: String
    let session: LanguageModelSession

    /// What Foundation Models cannot say: every activity is a place the tool returned. The session
    /// narrows the titles to the places found so far, and offers the answer once there are three.
    /// Without it, the 1.5B model looked up viewpoints, campgrounds and restaurants, and then
    /// wrote "Hotel A", "Hotel B" and "Hotel C".
    static let grounding = Grounding([.field("/days/*/activities/*/title", from: "findPointsOfInterest", at: "/places/*", atLeast: 3)])

    init(landmark: String, model: some LanguageModel, places: ToolRegistry) {
        self.landmark = landmark
        session = LanguageModelSession(
            model: model, tools: [FindPointsOfInterestTool(landmark: landmark, places: places)], grounding: Self.grounding
        ) {
            "Your job is to create an itinerary for the user."
            "Each day needs an activity, hotel and restaurant."
            "Always use the findPointsOfInterest tool to find businesses and activities in \(landmark), especially hotels and restaurants."
            "Here is an example, but don't copy it:"
            Itinerary.exampleTripToJapan
        }
    }

    func suggestItinerary(dayCount: Int, show: (Itinerary.PartiallyGenerated) -> Void) async throws -> Itinerary {
        // The seed's `.anyOf(landmarkNames)` and `.count(3)`, for this request.
        let schema = try Itinerary.generationSchema.narrowed { edit in
            edit.allow([.string(landmark)], at: ["destinationName"])
            edit.count(dayCount, at: ["days"])
        }
        let stream = session.streamResponse(
            to: Prompt {
                "Generate a \(dayCount)-day itinerary to \(landmark)."
                "Give it a fun title and description."
            }, generating: Itinerary.self, schema: schema, includeSchemaInPrompt: false,
            options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 700))
        for try await partial in stream { show(partial.content) }
        return try await stream.collect().content
    }

    func prewarm() { session.prewarm() }
}

// MARK: - The program: availability, prewarm, streaming

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...index + 1) }
    return arguments[index + 1]
}
let modelSpec = option("--model") ?? "local"
let dayCount = Int(option("--days") ?? "3") ?? 3
let transcriptPath = option("--transcript")
let landmark = arguments.first ?? "Joshua Tree National Park"
let home = ProcessInfo.processInfo.environment["TRAILHEAD_HOME"] ?? FileManager.default.currentDirectoryPath
let places = ToolRegistry(.checkout(home))
defer { places.shutdown() }
let model: any LanguageModel
do { model = try ModelSpecifier.model(modelSpec) } catch {
    print("No model \(modelSpec): \(error)")
    exit(2)
}

switch await model.availability {
case .available:
    let planner = ItineraryPlanner(landmark: landmark, model: model, places: places)
    if let transcriptPath {
        do { planner.session.configuration.transcriptFile = try TranscriptWriter(path: transcriptPath) } catch {
            print("No transcript at \(transcriptPath): \(error)")
            exit(2)
        }
    }
    planner.prewarm()
    var shownDays = 0
    let itinerary: Itinerary
    do {
        itinerary = try await planner.suggestItinerary(dayCount: dayCount) { partial in
            // Show each day once it is complete (the next one has started).
            let days = partial.days ?? []
            while shownDays < days.count - 1 {
                print("day \(shownDays + 1): \(days[shownDays].title ?? "")")
                shownDays += 1
            }
        }
    } catch {
        print("No itinerary: \(error)")
        exit(1)
    }
    print("\(itinerary.title) — \(itinerary.destinationName)")
    print(itinerary.description)
    for (index, day) in itinerary.days.enumerated() {
        print("Day \(index + 1): \(day.title)")
        for activity in day.activities { print("  \(activity.type.rawValue): \(activity.title)") }
    }
    print("answered by \(planner.session.transcript.last.map { _ in model.id } ?? model.id)")
case .unavailable(.notInstalled(let what, let fix)):
    print("The planner needs \(what): run \(fix).")
    exit(3)
case .unavailable(.cannotRunHere(let detail, let fix)):
    print("This machine cannot run the local model (\(detail)); \(fix).")
    exit(3)
case .unavailable(let reason):
    print("The planner is unavailable: \(reason).")
    exit(3)
}
