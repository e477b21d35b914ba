import GeoIndex
import TrailheadPluginKit
import TrailheadSchema

/// `findPointsOfInterest`: places of a category near a landmark or a point, matched against a
/// free-text query, nearest and best-matching first.
struct FindPointsOfInterest: PluginTool {
    let name = "findPointsOfInterest"

    let description = """
        Find real places near a landmark, a town or a point: hikes, viewpoints, campgrounds, lodging, \
        restaurants, cafes, museums, marinas, beaches, stargazing spots, landmarks, towns, airports. \
        Give `landmark` (the name of any place) or `latitude` and `longitude`; optionally a `category` \
        and a short `query` in your own words. Results come best first: the best known, best \
        matching and nearest, with the distance in km from the landmark.
        """

    var arguments: GeneratedContent {
        [
            "type": "object",
            "properties": [
                "landmark": ["type": "string", "description": "Name of the place to search around: a landmark, park, mountain or town.", "maxLength": 200],
                "latitude": ["type": "number", "minimum": -90, "maximum": 90, "description": "Centre latitude, when no landmark is given."],
                "longitude": ["type": "number", "minimum": -180, "maximum": 180, "description": "Centre longitude, when no landmark is given."],
                "category": [
                    "type": "string", "enum": .array(PoiCategory.names.map { .string($0) }),
                    "description": "Only places of this kind.",
                ],
                "query": ["type": "string", "maxLength": 200, "description": "What to look for, in a few words."],
                "radiusKm": [
                    "type": "number", "exclusiveMinimum": 0, "maximum": .number(NearbyQuery.maximumRadiusKm),
                    "default": .number(NearbyQuery.defaultRadiusKm), "description": "Search radius in km.",
                ],
                "limit": [
                    "type": "integer", "minimum": 1, "maximum": .number(Double(NearbyQuery.maximumLimit)),
                    "default": .number(Double(NearbyQuery.defaultLimit)), "description": "Most results to return.",
                ],
            ],
            "additionalProperties": false,
        ]
    }

    var output: GeneratedContent? {
        let location: GeneratedContent = [
            "type": "object",
            "properties": ["name": ["type": "string"], "latitude": ["type": "number"], "longitude": ["type": "number"]],
            "required": ["name", "latitude", "longitude"],
        ]
        let result: GeneratedContent = [
            "type": "object",
            "properties": [
                "name": ["type": "string"],
                "category": ["type": "string", "enum": .array(PoiCategory.names.map { .string($0) })],
                "latitude": ["type": "number"], "longitude": ["type": "number"],
                "distanceKm": ["type": "number", "minimum": 0],
                "description": ["type": "string"],
            ],
            "required": ["name", "category", "latitude", "longitude", "distanceKm"],
        ]
        return [
            "type": "object",
            "properties": ["landmark": location, "results": ["type": "array", "items": result], "note": ["type": "string"]],
            "required": ["landmark", "results"],
        ]
    }

    func call(_ arguments: GeneratedContent) throws -> GeneratedContent {
        let index = try OpenedIndex.shared.get()
        let (centreName, centre, chosen) = try Self.centre(of: arguments, in: index)
        var query = NearbyQuery(centre: centre, centreName: chosen?.name)
        if let category = arguments["category"]?.stringValue { query.category = try PoiCategory(validating: category) }
        query.text = arguments["query"]?.stringValue
        if let radius = arguments["radiusKm"]?.doubleValue { query.radiusKm = radius }
        if let limit = arguments["limit"]?.doubleValue { query.limit = Int(limit.rounded()) }
        let found = try index.search(query)
        var output: JSONObject = [
            "landmark": ResultFormatting.location(centreName, centre),
            "results": .array(found.results.map { Self.render($0, from: chosen?.name ?? centreName) }),
        ]
        if let chosen, !chosen.alternatives.isEmpty {
            output["note"] = .string(ResultFormatting.choice(chosen, asked: arguments["landmark"]?.stringValue ?? chosen.name))
        } else if !found.textMatched {
            output["note"] = .string("nothing matched the query; these are the nearest places\(query.category.map { " of category \($0.rawValue)" } ?? "")")
        } else if found.results.isEmpty {
            output["note"] = .string("nothing within \(ResultFormatting.kilometres(min(query.radiusKm, NearbyQuery.maximumRadiusKm))) km; try a larger radiusKm or another category")
        }
        return .object(output)
    }

    /// The centre: a place by name (falling back to coordinates when both are given and the
    /// name is unknown), or coordinates; with the place chosen for the name.
    private static func centre(of arguments: GeneratedContent, in index: GeoIndex) throws -> (String, Coordinate, ResolvedPlace?) {
        let coordinate = arguments["latitude"]?.doubleValue.flatMap { latitude in
            arguments["longitude"]?.doubleValue.map { Coordinate(latitude: latitude, longitude: $0) }
        }
        if let landmark = arguments["landmark"]?.stringValue, !landmark.isEmpty {
            do {
                let place = try index.resolve(landmark)
                return (place.label, place.coordinate, place)
            } catch let unknown as UnknownPlaceError {
                guard coordinate == nil else { return try located(coordinate!, in: index) }
                throw ToolFailure(unknown.description)
            }
        }
        guard let coordinate else {
            throw ToolFailure("give `landmark` (a name) or both `latitude` and `longitude`")
        }
        return try located(coordinate, in: index)
    }

    /// Names a bare point after the nearest town within 50 km, so the model can say where it is.
    private static func located(_ coordinate: Coordinate, in index: GeoIndex) throws -> (String, Coordinate, ResolvedPlace?) {
        guard coordinate.isValid else {
            throw ToolFailure("latitude must be within ±90 and longitude within ±180, got (\(coordinate.latitude), \(coordinate.longitude))")
        }
        // The nearest town, not the best known: a point is named after what is next to it.
        let towns = try index.search(NearbyQuery(centre: coordinate, radiusKm: 50, category: .town, limit: NearbyQuery.maximumLimit))
        let town = towns.results.min { $0.distanceKm < $1.distanceKm }
        let label = "\(ResultFormatting.coordinate(coordinate.latitude)),\(ResultFormatting.coordinate(coordinate.longitude))"
        return (town.map { "\(label) (near \($0.place.name))" } ?? label, coordinate, nil)
    }

    private static func render(_ result: NearbyResult, from centre: String) -> GeneratedContent {
        var entry: JSONObject = [
            "name": .string(result.place.name),
            "category": .string(result.place.category.rawValue),
            "latitude": ResultFormatting.coordinate(result.place.coordinate.latitude),
            "longitude": ResultFormatting.coordinate(result.place.coordinate.longitude),
            "distanceKm": ResultFormatting.kilometres(result.distanceKm),
        ]
        let description = result.place.description.flatMap { $0.isEmpty ? nil : $0 }
            ?? result.place.factualDescription(distanceKm: result.distanceKm, from: centre)
        entry["description"] = .string(ResultFormatting.shortened(description))
        return .object(entry)
    }
}
