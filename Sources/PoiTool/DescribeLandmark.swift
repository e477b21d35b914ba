import GeoIndex
import TrailheadPluginKit
import TrailheadSchema

/// `describeLandmark`: what a landmark is and where, from the curated data.
struct DescribeLandmark: PluginTool {
    let name = "describeLandmark"

    let description = """
        Describe a place by name (a landmark, a national park, a mountain, a lake, a town): its \
        full name, country, coordinates and a short description. Use it to check a place exists \
        and to get its exact name before planning around it. When several places share the \
        name, the best known is chosen and the others are named in `note`.
        """

    var arguments: GeneratedContent {
        [
            "type": "object",
            "properties": ["landmark": ["type": "string", "maxLength": 200, "description": "The name of the place."]],
            "required": ["landmark"],
            "additionalProperties": false,
        ]
    }

    var output: GeneratedContent? {
        [
            "type": "object",
            "properties": [
                "name": ["type": "string"], "country": ["type": "string"],
                "latitude": ["type": "number"], "longitude": ["type": "number"],
                "description": ["type": "string"], "note": ["type": "string"],
            ],
            "required": ["name", "latitude", "longitude", "description"],
        ]
    }

    func call(_ arguments: GeneratedContent) throws -> GeneratedContent {
        guard let name = arguments["landmark"]?.stringValue, !name.isEmpty else {
            throw ToolFailure("`landmark` is required: the name of a landmark")
        }
        let place: ResolvedPlace
        do { place = try OpenedIndex.shared.get().resolve(name) } catch let unknown as UnknownPlaceError {
            throw ToolFailure(unknown.description)
        }
        var output: JSONObject = ["name": .string(place.label)]
        if let country = place.country { output["country"] = .string(country) }
        output["latitude"] = ResultFormatting.coordinate(place.coordinate.latitude)
        output["longitude"] = ResultFormatting.coordinate(place.coordinate.longitude)
        let facts = Place(
            name: place.name, category: place.category, coordinate: place.coordinate, region: place.region,
            source: "", wikipedia: place.wikipedia, kind: place.kind)
        output["description"] = .string(place.description ?? facts.factualDescription())
        if !place.alternatives.isEmpty { output["note"] = .string(ResultFormatting.choice(place, asked: name)) }
        return .object(output)
    }
}
