import PointsOfInterestTypes
import TrailheadAgent
import TrailheadSchema

/// What the tools returned during a plan's run, by tool, read once from their results: what the
/// planner fills the itinerary in with (dates, categories, lodging, companions), and what
/// `agent eval` judges a plan against.
public struct ToolFacts: Sendable {
    /// `calendarFreeDays`'s free days, nil when the calendar was not asked.
    public var freeDays: [String]?
    /// Names `findPointsOfInterest` returned, nil when it was not asked.
    public var places: [String]?
    /// Names `searchContacts` returned, nil when it was not asked.
    public var contacts: [String]?
    /// The category of each place `findPointsOfInterest` returned.
    public var categories: [String: String] = [:]
    /// The places to stay (lodging, campgrounds) `findPointsOfInterest` returned, best known first.
    public var lodging: [String] = []
    /// The landmarks `findPointsOfInterest` searched around, as it named them.
    public var landmarks: [String] = []
    /// What `findPointsOfInterest` said of each place (its first description), and how far
    /// from the landmark it is, in km.
    public var descriptions: [String: String] = [:]
    public var distances: [String: Double] = [:]
    /// The places it marked as destinations in themselves (a curated landmark, a national park).
    public var destinations: Set<String> = []

    public init(freeDays: [String]? = nil, places: [String]? = nil, contacts: [String]? = nil) {
        self.freeDays = freeDays
        self.places = places
        self.contacts = contacts
    }

    /// The facts in a transcript's tool outputs.
    public init(transcript: [Transcript.Entry]) {
        self.init()
        for entry in transcript {
            guard case .toolOutput(let output) = entry, let result = output.result else { continue }
            add(tool: output.tool, result: result)
        }
    }

    /// Takes in one result of `tool`.
    public mutating func add(tool: String, result: GeneratedContent) {
        switch tool {
        case "calendarFreeDays":
            freeDays = (freeDays ?? []) + (ToolResults.decode(ToolResults.FreeDays.self, from: result)?.freeDays ?? [])
        case "findPointsOfInterest":
            let found = Partial<PointsOfInterest>(result)
            let named = (found.results ?? []).compactMap { place in place.name.map { (name: $0, place: place) } }
            places = (places ?? []) + named.map(\.name)
            for (name, place) in named {
                if let category = place.category?.rawValue { categories[name] = categories[name] ?? category }
                if let description = place.description { descriptions[name] = descriptions[name] ?? description }
                if let distance = place.distanceKm { distances[name] = distances[name] ?? distance }
                if place.destination == true { destinations.insert(name) }
                if let category = place.category?.rawValue, TripPlanner.stays.contains(category), !lodging.contains(name) { lodging.append(name) }
            }
            if let landmark = found.landmark?.name, !landmarks.contains(landmark) {
                landmarks.append(landmark)
            }
        case "searchContacts":
            contacts = (contacts ?? []) + (ToolResults.decode(ToolResults.Contacts.self, from: result)?.contacts.map(\.name) ?? [])
        default: break
        }
    }
}
