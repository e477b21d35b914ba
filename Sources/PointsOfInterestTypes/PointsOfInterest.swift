import TrailheadSchema

/// What `findPointsOfInterest` answers: the place searched around and the places found near it,
/// best first. The points-of-interest plugin writes it; its JSON is the wire every reader of the
/// tool's results sees (the trip planner, `agent eval`, a peer's recorded plans). A reader that
/// must take a result as it comes reads `Partial<PointsOfInterest>`: each member nil when absent.
public struct PointsOfInterest: Generable, Sendable {
    public var landmark: Location
    public var results: [Place]
    /// What the results are not (another place of the same name chosen, a radius widened).
    public var note: String?

    public init(landmark: Location, results: [Place], note: String? = nil) {
        self.landmark = landmark
        self.results = results
        self.note = note
    }

    /// The centre searched around: a place by its name, or a point named after the nearest town.
    public struct Location: Generable, Sendable {
        public var name: String
        public var latitude: Double
        public var longitude: Double

        public init(name: String, latitude: Double, longitude: Double) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// One place found.
    public struct Place: Generable, Sendable {
        public var name: String
        public var category: PoiCategory
        public var latitude: Double
        public var longitude: Double
        /// From the landmark searched around, in km.
        public var distanceKm: Double
        public var description: String?
        /// True for a place trips are planned to as a whole, never a thing to do on one: a
        /// curated landmark (a city, a national park, an island) or any national park. Absent
        /// otherwise. (Grand Canyon National Park, 1.5 km from Grand Canyon Village, was planned
        /// as a morning's activity of a trip to the village.)
        public var destination: Bool?

        public static let guides = GuideTable(CodingKeys.self, [
            .distanceKm: [.minimum(0)],
            .destination: [.description("True for a place trips go to as a whole (a curated landmark, a national park), not a thing to do there.")],
        ])

        public init(
            name: String, category: PoiCategory, latitude: Double, longitude: Double, distanceKm: Double, description: String? = nil,
            destination: Bool? = nil
        ) {
            self.name = name
            self.category = category
            self.latitude = latitude
            self.longitude = longitude
            self.distanceKm = distanceKm
            self.description = description
            self.destination = destination
        }
    }
}
