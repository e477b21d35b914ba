import GeoIndex
import PointsOfInterestTypes
import TrailheadPluginKit
import TrailheadSchema

/// `describeLandmark`: what a landmark is and where, from the curated data.
struct DescribeLandmark: Tool {
    let name = "describeLandmark"

    let description = """
        Describe a place by name (a landmark, a national park, a mountain, a lake, a town): its \
        full name, country, coordinates and a short description. Use it to check a place exists \
        and to get its exact name before planning around it. When several places share the \
        name, the best known is chosen and the others are named in `note`.
        """

    struct Arguments: Generable {
        var landmark: String
        static let guides = GuideTable(CodingKeys.self, [.landmark: [.maximumLength(200), .description("The name of the place.")]])
    }

    func call(arguments: Arguments) throws -> LandmarkDescription {
        let name = arguments.landmark
        guard !name.isEmpty else { throw ToolFailure("`landmark` is required: the name of a landmark") }
        let place: ResolvedPlace
        do { place = try OpenedIndex.shared.get().resolve(name) } catch let unknown as UnknownPlaceError {
            throw ToolFailure(unknown.description)
        }
        let facts = Place(
            name: place.name, category: place.category, coordinate: place.coordinate, region: place.region,
            source: "", wikipedia: place.wikipedia, kind: place.kind)
        return LandmarkDescription(
            name: place.label, country: place.country,
            latitude: ResultFormatting.coordinate(place.coordinate.latitude), longitude: ResultFormatting.coordinate(place.coordinate.longitude),
            description: place.description ?? facts.factualDescription(),
            note: place.alternatives.isEmpty ? nil : ResultFormatting.choice(place, asked: name))
    }
}
