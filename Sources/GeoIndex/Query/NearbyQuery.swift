import PointsOfInterestTypes

/// What to look for around a point.
public struct NearbyQuery: Sendable, Hashable {
    /// The largest radius and result count a query may ask for; larger values are clamped.
    public static let maximumRadiusKm = 200.0
    public static let maximumLimit = 50
    public static let defaultRadiusKm = 20.0
    public static let defaultLimit = 10

    public var centre: Coordinate
    public var radiusKm: Double
    public var category: PoiCategory?
    /// Natural-language text matched against names and descriptions; nil for none.
    public var text: String?
    public var limit: Int
    /// The name of the place searched around: its words are not searched for, so "museums in
    /// Paris" around Paris looks for museums, not for places named Paris.
    public var centreName: String?
    /// Which index to read first; `automatic` lets the index choose (see `GeoIndex.search`).
    public var joinOrder: JoinOrder

    public init(
        centre: Coordinate, radiusKm: Double = NearbyQuery.defaultRadiusKm, category: PoiCategory? = nil,
        text: String? = nil, limit: Int = NearbyQuery.defaultLimit, centreName: String? = nil,
        joinOrder: JoinOrder = .automatic
    ) {
        self.centre = centre
        self.radiusKm = radiusKm
        self.category = category
        self.text = text
        self.limit = limit
        self.centreName = centreName
        self.joinOrder = joinOrder
    }

    /// The query with its radius and limit brought into range, or an error for values that
    /// have no sensible reading (a NaN radius, coordinates off the globe).
    func normalised() throws(GeoIndexError) -> NearbyQuery {
        guard centre.isValid else {
            throw GeoIndexError("coordinates (\(centre.latitude), \(centre.longitude)) are out of range: latitude must be within ±90, longitude within ±180")
        }
        guard radiusKm.isFinite, radiusKm > 0 else { throw GeoIndexError("radiusKm must be a positive number, got \(radiusKm)") }
        var query = self
        query.radiusKm = min(radiusKm, NearbyQuery.maximumRadiusKm)
        query.limit = min(max(limit, 1), NearbyQuery.maximumLimit)
        if let text, TextQuery(text, excluding: centreName).isEmpty { query.text = nil }
        return query
    }
}

/// One place found near the centre.
public struct NearbyResult: Sendable, Hashable {
    public var place: Place
    public var distanceKm: Double
    /// The combined score it was ranked by (see `GeoIndex.search`); 1 is best.
    public var score: Double
}

/// The places found, and whether the text query matched any of them.
public struct NearbyResults: Sendable, Hashable {
    public var results: [NearbyResult]
    /// False when a text query was given but no place in range matched it, so the results
    /// are the nearest places of the category instead.
    public var textMatched: Bool
    /// The order the R*Tree and FTS5 were read in (`spaceFirst` without text).
    public var joinOrder: JoinOrder
}
