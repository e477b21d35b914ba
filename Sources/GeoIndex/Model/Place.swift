/// A point in the index: a town, an airport, a trail, a restaurant…
public struct Place: Sendable, Hashable {
    public var name: String
    public var category: PoiCategory
    public var coordinate: Coordinate
    public var description: String?
    /// ISO 3166-1 alpha-2, when known.
    public var country: String?
    /// Where the row came from ("geonames", "airportsdata", "landmarks", "osm", a file name…).
    public var source: String
    /// Inhabitants, for towns; used to choose among towns of the same name.
    public var population: Int?

    public init(
        name: String, category: PoiCategory, coordinate: Coordinate, description: String? = nil,
        country: String? = nil, source: String, population: Int? = nil
    ) {
        self.name = name
        self.category = category
        self.coordinate = coordinate
        self.description = description
        self.country = country
        self.source = source
        self.population = population
    }
}

extension Place {
    /// Orders places by 1° latitude bands, then longitude, so that an import writes the places
    /// near one point under nearby row ids (which keeps text look-ups around a point short).
    public static func spatialOrder(_ a: Place, _ b: Place) -> Bool {
        let bandA = Int((a.coordinate.latitude + 90).rounded(.down)), bandB = Int((b.coordinate.latitude + 90).rounded(.down))
        return bandA != bandB ? bandA < bandB : a.coordinate.longitude < b.coordinate.longitude
    }
}
