import PointsOfInterestTypes

/// A curated landmark (a national park, a lake, a mountain…) that trips are planned around,
/// with the points of interest around it. One file per landmark in `Data/landmarks/<slug>.json`.
public struct Landmark: Sendable, Hashable {
    public var name: String
    public var aliases: [String]
    public var country: String
    /// What it is, in a few words ("national park").
    public var kind: String?
    public var latitude: Double
    public var longitude: Double
    public var description: String
    public var pointsOfInterest: [PointOfInterest]

    public init(
        name: String, aliases: [String] = [], country: String, kind: String? = nil,
        latitude: Double, longitude: Double, description: String, pointsOfInterest: [PointOfInterest] = []
    ) {
        self.name = name
        self.aliases = aliases
        self.country = country
        self.kind = kind
        self.latitude = latitude
        self.longitude = longitude
        self.description = description
        self.pointsOfInterest = pointsOfInterest
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// One curated point of interest near a landmark.
    public struct PointOfInterest: Sendable, Hashable {
        public var name: String
        public var category: PoiCategory
        public var latitude: Double
        public var longitude: Double
        public var description: String?

        public init(name: String, category: PoiCategory, latitude: Double, longitude: Double, description: String? = nil) {
            self.name = name
            self.category = category
            self.latitude = latitude
            self.longitude = longitude
            self.description = description
        }
    }
}

extension Landmark {
    /// The `source` of curated rows.
    public static let source = "landmarks"

    /// The landmark as a place of category `landmark` (popularity 1), then its points of interest,
    /// each ranked by its position among the landmark's points of the same category (see `Popularity`).
    public func places(source: String = Landmark.source) -> [Place] {
        var seen: [PoiCategory: Int] = [:]
        let pois = pointsOfInterest.map { poi in
            let position = seen[poi.category, default: 0]
            seen[poi.category] = position + 1
            return Place(
                name: poi.name, category: poi.category, coordinate: Coordinate(latitude: poi.latitude, longitude: poi.longitude),
                description: poi.description, country: country, source: source,
                popularity: Popularity.curated(positionInCategory: position))
        }
        let itself = Place(
            name: name, category: .landmark, coordinate: coordinate,
            description: kind.map { "\($0): \(description)" } ?? description,
            country: country, source: source, popularity: Popularity.curatedLandmark, kind: kind)
        return [itself] + pois
    }
}
