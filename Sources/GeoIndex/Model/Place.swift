import PointsOfInterestTypes

/// A point in the index: a town, an airport, a trail, a restaurant…
public struct Place: Sendable, Hashable {
    public var name: String
    public var category: PoiCategory
    public var coordinate: Coordinate
    public var description: String?
    /// ISO 3166-1 alpha-2, when known.
    public var country: String?
    /// The first-level region (state, province) it lies in, when known ("Alberta").
    public var region: String?
    /// Where the row came from ("geonames", "airportsdata", "landmarks", "enwiki", "osm", a file name…).
    public var source: String
    /// Inhabitants, for towns.
    public var population: Int?
    /// How well known the place is, 0…1 (see `Popularity`): ranks results and chooses among
    /// places of the same name.
    public var popularity: Double
    /// The English Wikipedia article it comes from, without the "en:" prefix.
    public var wikipedia: String?
    /// What it is in a word or two, from its source ("mountain", "glacier"), when known.
    public var kind: String?

    public init(
        name: String, category: PoiCategory, coordinate: Coordinate, description: String? = nil,
        country: String? = nil, region: String? = nil, source: String, population: Int? = nil,
        popularity: Double = Popularity.unknown, wikipedia: String? = nil, kind: String? = nil
    ) {
        self.name = name
        self.category = category
        self.coordinate = coordinate
        self.description = description
        self.country = country
        self.region = region
        self.source = source
        self.population = population
        self.popularity = popularity
        self.wikipedia = wikipedia
        self.kind = kind
    }
}

extension Place {
    /// Orders places along a Hilbert curve, so that an import writes the places near one point
    /// under nearby row ids: a circle's candidates then fall into a few short row-id ranges,
    /// and the text look-up restricted to them stays short (see `GeoIndex.search`).
    public static func spatialOrder(_ a: Place, _ b: Place) -> Bool {
        HilbertCurve.key(a.coordinate) < HilbertCurve.key(b.coordinate)
    }
}

extension Place {
    /// What the text index holds beside the name: the category, the kind and the description,
    /// so that "museums" or "glacier" find places whose names do not say so.
    var keywords: String {
        [category.rawValue, kind, description].compactMap { $0 }.joined(separator: " ")
    }

    /// Whether the row is one of the curated landmarks or their points of interest.
    public var isCurated: Bool { source == Landmark.source }
}
