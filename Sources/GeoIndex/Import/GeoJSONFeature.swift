import Foundation
import PointsOfInterestTypes
import TrailheadSchema

/// Turns one GeoJSON feature into a place, or says why it cannot be one.
///
/// The category comes from the `category` property when it is one of `PoiCategory`, else from
/// OpenStreetMap tags among the properties (`tourism=viewpoint`, `amenity=restaurant`,
/// `historic=castle`…). Points are used as they are; lines and polygons (as `osmium export`
/// writes for ways and areas) by the mean of their vertices.
enum GeoJSONFeature {
    enum Outcome {
        case place(Place)
        case skipped(reason: String)
    }

    /// `source` names where the rows came from; a `source` property of the feature overrides it
    /// unless `sourceIsFixed` (OpenStreetMap's own `source` tag says something else).
    static func convert(_ feature: GeneratedContent, source: String, sourceIsFixed: Bool = false) throws(GeoIndexError) -> Outcome {
        guard feature["type"]?.stringValue == "Feature" else {
            throw GeoIndexError("expected a GeoJSON Feature, got \(feature["type"]?.stringValue.map { "type '\($0)'" } ?? feature.typeName)")
        }
        guard let geometry = feature["geometry"], !geometry.isNull else { return .skipped(reason: "no geometry") }
        guard let coordinate = try representativePoint(of: geometry) else { return .skipped(reason: "empty geometry") }
        guard coordinate.isValid else {
            throw GeoIndexError("coordinates (\(coordinate.longitude), \(coordinate.latitude)) are off the globe (GeoJSON order is longitude, latitude)")
        }
        let properties = feature["properties"]?.objectValue ?? JSONObject()
        var tags: [String: String] = [:]
        for (key, value) in properties {
            if let text = value.stringValue { tags[key] = text } else if let number = value.doubleValue { tags[key] = String(number) }
        }
        guard let name = tags["name"].map({ $0.trimmingWhitespace }), !name.isEmpty else { return .skipped(reason: "no name") }
        let category: PoiCategory
        if let explicit = tags["category"] {
            guard let known = PoiCategory(rawValue: explicit.lowercased()) else {
                return .skipped(reason: "unknown category '\(explicit)'")
            }
            category = known
        } else if let mapped = PoiCategory.fromOSMTags(tags) {
            category = mapped
        } else {
            return .skipped(reason: "no category (no `category` property and no known OpenStreetMap tag)")
        }
        guard !NonPlaceFilter.isNonPlace(name) else { return .skipped(reason: "not a place (an event, a line or a list)") }
        let population = properties["population"]?.doubleValue.map { Int($0) } ?? tags["population"].flatMap { Int($0) }
        return .place(Place(
            name: name, category: category, coordinate: coordinate,
            description: tags["description"] ?? describe(tags), country: tags["country"] ?? tags["addr:country"],
            region: tags["region"], source: sourceIsFixed ? source : tags["source"] ?? source, population: population,
            popularity: popularity(properties, population: population),
            wikipedia: WikipediaProperties.title(tags["wikipedia"]), kind: WikipediaProperties.kind(tags["wp_type"])))
    }

    /// The `popularity` property (0…1), else one from `page_len` (a Wikipedia article's length)
    /// or from `population`, else `Popularity.unknown` (see `Popularity`).
    private static func popularity(_ properties: JSONObject, population: Int?) -> Double {
        if let value = properties["popularity"]?.doubleValue { return Popularity.clamp(value) }
        if let length = properties["page_len"]?.doubleValue { return Popularity.article(length: length) }
        if let population { return Popularity.town(population: population) }
        return Popularity.unknown
    }

    /// A short description from OpenStreetMap tags, so that a text query for "castle" or
    /// "pizza" finds features that carry no description of their own.
    private static func describe(_ tags: [String: String]) -> String? {
        var words: [String] = []
        for key in ["historic", "tourism", "amenity", "leisure", "natural", "cuisine"] {
            guard let value = tags[key], value != "yes" else { continue }
            words.append(value.replacingUnderscores)
        }
        if let elevation = tags["ele"] { words.append("elevation \(elevation) m") }
        return words.isEmpty ? nil : words.joined(separator: ", ")
    }

    /// The point itself, or the mean of all vertices of a line, polygon or collection.
    private static func representativePoint(of geometry: GeneratedContent) throws(GeoIndexError) -> Coordinate? {
        guard let type = geometry["type"]?.stringValue else { throw GeoIndexError("geometry without a type") }
        guard let coordinates = geometry["coordinates"] else {
            throw GeoIndexError("\(type) geometry without coordinates")
        }
        var sumLatitude = 0.0, sumLongitude = 0.0, count = 0
        func visit(_ value: GeneratedContent) throws(GeoIndexError) {
            guard let elements = value.arrayValue else { throw GeoIndexError("\(type) coordinates: expected arrays of numbers") }
            if let longitude = elements.first?.doubleValue {
                guard elements.count >= 2, let latitude = elements[1].doubleValue else {
                    throw GeoIndexError("\(type) coordinates: a position needs longitude and latitude")
                }
                sumLongitude += longitude
                sumLatitude += latitude
                count += 1
            } else {
                for element in elements { try visit(element) }
            }
        }
        try visit(coordinates)
        guard count > 0 else { return nil }
        return Coordinate(latitude: sumLatitude / Double(count), longitude: sumLongitude / Double(count))
    }
}

extension String {
    var trimmingWhitespace: String { trimmingCharacters(in: .whitespacesAndNewlines) }

    var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
