import Foundation
import PointsOfInterestTypes
import TrailheadSupport

/// Converts an OpenStreetMap extract (`.osm.pbf`, `.osm`) into a GeoJSON text sequence of
/// the features the index can use, with `osmium` from Debian's osmium-tool:
/// `osmium tags-filter` keeps the tagged nodes, ways and areas of our categories, then
/// `osmium export -f geojsonseq` writes them as GeoJSON.
public enum OSMExtract {
    /// The `osmium tags-filter` expressions: everything `PoiCategory.fromOSMTags` maps.
    public static let tagFilters = [
        "nwr/tourism", "nwr/historic",
        "nwr/amenity=restaurant,cafe,fast_food,pub,biergarten,food_court,ice_cream",
        "nwr/leisure=marina,slipway,beach_resort,nature_reserve",
        "nwr/natural=beach,peak,volcano", "nwr/aeroway=aerodrome,airport",
        "n/place=city,town,village,hamlet", "nwr/highway=trailhead",
    ]

    /// Writes the converted features into a new temporary directory and returns the
    /// `.geojsonseq` file's path (the caller removes the directory).
    public static func convertToGeoJSONSequence(_ extract: String) throws -> String {
        guard FileManager.default.fileExists(atPath: extract) else {
            throw GeoIndexError("OpenStreetMap extract not found: '\(extract)'")
        }
        let osmium = try findOsmium()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-osm-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let filtered = directory + "/filtered.osm.pbf", output = directory + "/features.geojsonseq"
        do {
            try run(osmium, ["tags-filter", "--overwrite", "-o", filtered, extract] + tagFilters, log: directory + "/osmium.log")
            try run(osmium, ["export", "--overwrite", "-f", "geojsonseq", "-o", output, filtered], log: directory + "/osmium.log")
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        return output
    }

    private static func findOsmium() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/osmium") {
            return "\(directory)/osmium"
        }
        throw GeoIndexError("osmium not found on PATH: it converts OpenStreetMap extracts; install it with `apt-get install osmium-tool`")
    }

    private static func run(_ executable: String, _ arguments: [String], log: String) throws {
        let child = try ChildProcess(executable, arguments, options: .init(standardError: .file(log, append: false)))
        let ended = child.wait()
        guard ended == .exited(status: 0) else {
            let message = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw GeoIndexError("osmium \(arguments.first ?? "") failed (\(ended)): \(message.trimmingWhitespace)")
        }
    }
}
