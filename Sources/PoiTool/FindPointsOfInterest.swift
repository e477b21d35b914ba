import Foundation
import GeoIndex
import PointsOfInterestTypes
import TrailheadPluginKit
import TrailheadSchema

/// `findPointsOfInterest`: places of a category near a landmark or a point, matched against a
/// free-text query, nearest and best-matching first.
struct FindPointsOfInterest: Tool {
    let name = "findPointsOfInterest"

    let description = """
        Find real places near a landmark, a town or a point: hikes, viewpoints, campgrounds, lodging, \
        restaurants, cafes, museums, marinas, beaches, stargazing spots, landmarks, towns, airports. \
        Give `landmark` (the name of any place) or `latitude` and `longitude`; optionally a `category` \
        and a short `query` in your own words. Results come best first: the best known, best \
        matching and nearest, with the distance in km from the landmark.
        """

    struct Arguments: Generable {
        var landmark: String?
        var latitude: Double?
        var longitude: Double?
        var category: PoiCategory?
        var query: String?
        var radiusKm: Double?
        var limit: Int?
        static let guides = GuideTable(CodingKeys.self, [
            .landmark: [.description("Name of the place to search around: a landmark, park, mountain or town."), .maximumLength(200)],
            .latitude: [.range(-90.0...90.0), .description("Centre latitude, when no landmark is given.")],
            .longitude: [.range(-180.0...180.0), .description("Centre longitude, when no landmark is given.")],
            .category: [.description("Only places of this kind.")],
            .query: [.maximumLength(200), .description("What to look for, in a few words.")],
            .radiusKm: [
                .exclusiveMinimum(0), .maximum(NearbyQuery.maximumRadiusKm), .defaultValue(.number(NearbyQuery.defaultRadiusKm)),
                .description("Search radius in km."),
            ],
            .limit: [
                .range(1...NearbyQuery.maximumLimit), .defaultValue(.number(Double(NearbyQuery.defaultLimit))),
                .description("Most results to return."),
            ],
        ])
    }

    func call(arguments: Arguments) throws -> PointsOfInterest {
        let index = try OpenedIndex.shared.get()
        let (centreName, centre, chosen, queryIsCentre) = try Self.centre(of: arguments, in: index)
        var query = NearbyQuery(centre: centre, centreName: chosen?.name)
        query.category = arguments.category
        query.text = queryIsCentre ? nil : arguments.query
        if let radius = arguments.radiusKm { query.radiusKm = radius }
        if let limit = arguments.limit { query.limit = limit }
        let (found, widenedTo) = try Self.search(query, in: index)
        var output = PointsOfInterest(
            landmark: ResultFormatting.location(centreName, centre),
            results: found.results.map { Self.render($0, from: chosen?.name ?? centreName) })
        let radius = "\(ResultFormatting.number(ResultFormatting.kilometres(min(query.radiusKm, NearbyQuery.maximumRadiusKm)))) km"
        let kind = query.category.map { " of category \($0.rawValue)" } ?? ""
        var notes: [String] = []
        if let chosen, !chosen.alternatives.isEmpty {
            notes.append(ResultFormatting.choice(chosen, asked: (queryIsCentre ? arguments.query : arguments.landmark) ?? chosen.name))
        }
        if found.results.isEmpty {
            notes.append("nothing\(kind) within \(ResultFormatting.number(NearbyQuery.maximumRadiusKm)) km; try another category")
        } else {
            if !found.textMatched { notes.append("nothing matched the query; these are the nearest places\(kind)") }
            if let widenedTo { notes.append("nothing\(kind) within \(radius); these are the nearest within \(ResultFormatting.number(widenedTo)) km") }
        }
        output.note = notes.isEmpty ? nil : notes.joined(separator: "; ")
        return output
    }

    /// The query's results; when there are none within its radius, the nearest beyond it (the
    /// radius tripled until something is found or the largest radius is reached), with the radius
    /// that found them. Asked for "the airport near Joshua Tree National Park", the model kept the
    /// 20 km default, and the nearest airports are 21–42 km away: an empty list read as "there is
    /// no airport near it".
    private static func search(_ query: NearbyQuery, in index: GeoIndex) throws -> (NearbyResults, widenedTo: Double?) {
        let found = try index.search(query)
        var wider = query
        while found.results.isEmpty, wider.radiusKm < NearbyQuery.maximumRadiusKm {
            wider.radiusKm = min(wider.radiusKm * 3, NearbyQuery.maximumRadiusKm)
            let widened = try index.search(wider)
            if !widened.results.isEmpty { return (widened, wider.radiusKm) }
        }
        return (found, nil)
    }

    /// The centre: a place by name (falling back to coordinates when both are given and the
    /// name is unknown), or coordinates; with the place chosen for the name. With neither, a place
    /// named in `query` is the centre (`queryIsCentre`): the 1.5B model asked for viewpoints with
    /// `query: "Joshua Tree National Park"` and no landmark, twice in a row after being told to give one.
    private static func centre(of arguments: Arguments, in index: GeoIndex) throws
        -> (name: String, coordinate: Coordinate, chosen: ResolvedPlace?, queryIsCentre: Bool)
    {
        let coordinate = arguments.latitude.flatMap { latitude in arguments.longitude.map { Coordinate(latitude: latitude, longitude: $0) } }
        if let landmark = arguments.landmark, !landmark.isEmpty {
            do {
                let place = try index.resolve(landmark)
                return (place.label, place.coordinate, place, false)
            } catch let unknown as UnknownPlaceError {
                guard coordinate == nil else { return try located(coordinate!, in: index) }
                throw ToolFailure(unknown.description)
            }
        }
        if let coordinate { return try located(coordinate, in: index) }
        guard let named = arguments.query, let place = try? index.resolve(named) else {
            throw ToolFailure("give `landmark` (a name) or both `latitude` and `longitude`")
        }
        return (place.label, place.coordinate, place, true)
    }

    /// Names a bare point after the nearest town within 50 km, so the model can say where it is.
    private static func located(_ coordinate: Coordinate, in index: GeoIndex) throws
        -> (name: String, coordinate: Coordinate, chosen: ResolvedPlace?, queryIsCentre: Bool)
    {
        guard coordinate.isValid else {
            throw ToolFailure("latitude must be within ±90 and longitude within ±180, got (\(coordinate.latitude), \(coordinate.longitude))")
        }
        // The nearest town, not the best known: a point is named after what is next to it.
        let towns = try index.search(NearbyQuery(centre: coordinate, radiusKm: 50, category: .town, limit: NearbyQuery.maximumLimit))
        let town = towns.results.min { $0.distanceKm < $1.distanceKm }
        let label = "\(ResultFormatting.number(ResultFormatting.coordinate(coordinate.latitude))),\(ResultFormatting.number(ResultFormatting.coordinate(coordinate.longitude)))"
        return (town.map { "\(label) (near \($0.place.name))" } ?? label, coordinate, nil, false)
    }

    private static func render(_ result: NearbyResult, from centre: String) -> PointsOfInterest.Place {
        let description = result.place.description.flatMap { $0.isEmpty ? nil : $0 }
            ?? result.place.factualDescription(distanceKm: result.distanceKm, from: centre)
        return PointsOfInterest.Place(
            name: result.place.name, category: result.place.category,
            latitude: ResultFormatting.coordinate(result.place.coordinate.latitude),
            longitude: ResultFormatting.coordinate(result.place.coordinate.longitude),
            distanceKm: ResultFormatting.kilometres(result.distanceKm), description: ResultFormatting.shortened(description),
            destination: isDestination(result.place) ? true : nil)
    }

    /// Whether `place` is a destination in itself (see `PointsOfInterest.Place.destination`): one of the curated
    /// landmarks (the only curated rows with a kind: their points of interest have none), or a
    /// national park by its kind or its name ("Kaboré Tambi National Park", "National Park of
    /// American Samoa"; not "Sequoia National Park Visitor Center"), whatever its source.
    static func isDestination(_ place: Place) -> Bool {
        if place.isCurated, place.category == .landmark, place.kind != nil { return true }
        let name = place.name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(in: .whitespaces)
        return place.kind == "national park" || name.hasSuffix("national park") || name.hasPrefix("national park of ")
    }
}
