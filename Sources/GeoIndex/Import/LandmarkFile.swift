import Foundation
import PointsOfInterestTypes
import TrailheadSchema

/// Reads curated landmarks: one JSON file per landmark (`Data/landmarks/<slug>.json`).
public enum LandmarkFile {
    /// Every `*.json` in `directory`, in file-name order. A malformed file is an error that
    /// names the file and the member at fault.
    public static func loadDirectory(_ directory: String) throws -> [Landmark] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw GeoIndexError("cannot read landmarks directory '\(directory)': \(error.localizedDescription)")
        }
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { try load(directory + "/" + $0) }
    }

    /// One landmark file.
    public static func load(_ path: String) throws -> Landmark {
        guard let data = FileManager.default.contents(atPath: path) else { throw GeoIndexError("cannot read landmark file '\(path)'") }
        let content: GeneratedContent
        do { content = try GeneratedContent(json: data) } catch {
            throw GeoIndexError("\(path): invalid JSON: \(error)")
        }
        do { return try landmark(from: content) } catch {
            throw GeoIndexError("\(path): \(error)")
        }
    }

    /// A landmark from its JSON form (see Data/README-poi.md).
    public static func landmark(from content: GeneratedContent) throws(GeoIndexError) -> Landmark {
        let root = JSONFields(content, at: "")
        let latitude = try root.number("latitude"), longitude = try root.number("longitude")
        guard Coordinate(latitude: latitude, longitude: longitude).isValid else {
            throw GeoIndexError("/latitude, /longitude: (\(latitude), \(longitude)) is off the globe")
        }
        let pois = try root.array("pointsOfInterest", required: false).enumerated().map { index, element throws(GeoIndexError) in
            let poi = JSONFields(element, at: "/pointsOfInterest/\(index)")
            let category: PoiCategory
            do { category = try PoiCategory(validating: try poi.string("category")) } catch {
                throw GeoIndexError("/pointsOfInterest/\(index)/category: \(error)")
            }
            let point = Landmark.PointOfInterest(
                name: try poi.string("name"), category: category,
                latitude: try poi.number("latitude"), longitude: try poi.number("longitude"),
                description: try poi.optionalString("description"))
            guard Coordinate(latitude: point.latitude, longitude: point.longitude).isValid else {
                throw GeoIndexError("/pointsOfInterest/\(index): (\(point.latitude), \(point.longitude)) is off the globe")
            }
            return point
        }
        return Landmark(
            name: try root.string("name"),
            aliases: try root.array("aliases", required: false).enumerated().map { index, alias throws(GeoIndexError) in
                guard let text = alias.stringValue else { throw GeoIndexError("/aliases/\(index): expected a string") }
                return text
            },
            country: try root.string("country"), kind: try root.optionalString("kind"),
            latitude: latitude, longitude: longitude,
            description: try root.string("description"), pointsOfInterest: pois)
    }
}

/// Typed access to the members of a JSON object, with errors naming the member's pointer.
struct JSONFields {
    let content: GeneratedContent
    let pointer: String

    init(_ content: GeneratedContent, at pointer: String) {
        self.content = content
        self.pointer = pointer
    }

    private func member(_ key: String) throws(GeoIndexError) -> GeneratedContent? {
        guard case .object(let object) = content else {
            throw GeoIndexError("\(pointer.isEmpty ? "/" : pointer): expected an object, got \(content.typeName)")
        }
        return object[key]
    }

    func string(_ key: String) throws(GeoIndexError) -> String {
        guard let value = try optionalString(key), !value.isEmpty else { throw GeoIndexError("\(pointer)/\(key): required, a non-empty string") }
        return value
    }

    func optionalString(_ key: String) throws(GeoIndexError) -> String? {
        guard let value = try member(key), !value.isNull else { return nil }
        guard let text = value.stringValue else { throw GeoIndexError("\(pointer)/\(key): expected a string, got \(value.typeName)") }
        return text
    }

    func number(_ key: String) throws(GeoIndexError) -> Double {
        guard let value = try member(key) else { throw GeoIndexError("\(pointer)/\(key): required, a number") }
        guard let number = value.doubleValue else { throw GeoIndexError("\(pointer)/\(key): expected a number, got \(value.typeName)") }
        return number
    }

    func array(_ key: String, required: Bool) throws(GeoIndexError) -> [GeneratedContent] {
        guard let value = try member(key), !value.isNull else {
            if required { throw GeoIndexError("\(pointer)/\(key): required, an array") }
            return []
        }
        guard let elements = value.arrayValue else { throw GeoIndexError("\(pointer)/\(key): expected an array, got \(value.typeName)") }
        return elements
    }
}
