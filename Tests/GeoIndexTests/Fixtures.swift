import Foundation
import TrailheadTestSupport
import XCTest
@testable import GeoIndex

/// Paths of the checked-in fixtures and a fresh index built from them.
enum Fixtures {
    static let root = Checkout.path("Tests/Fixtures")
    static let landmarks = root + "/landmarks"
    static let desert = root + "/geojson/desert.geojson"
    static let antimeridian = root + "/geojson/antimeridian.geojsonseq"
    static let broken = root + "/geojson/broken.geojsonseq"
    static let wikipediaParis = root + "/geojson/wikipedia-paris.geojsonseq.gz"
    static let banff = root + "/geojson/banff.geojsonseq"

    /// The curated landmarks the project ships (Data/landmarks).
    static let shippedLandmarks = Checkout.path("Data/landmarks")

    /// A real OpenStreetMap extract of Liechtenstein (ODbL; see Fixtures/osm/README.md).
    static let liechtenstein = root + "/osm/liechtenstein-2013-08-03.osm.pbf"

    /// An index built from the three fixture landmarks and the desert GeoJSON.
    static func desertIndex(for test: XCTestCase) throws -> GeoIndex {
        let path = try Scratch.newFolder("geoindex", removedAfter: test) + "/poi.sqlite"
        _ = try GeoIndexBuilder.build(output: path, landmarksDirectory: landmarks, geoJSONFiles: [desert, antimeridian])
        return try GeoIndex(path: path)
    }
}

extension Fixtures {
    /// An index of the shipped curated landmarks, real Wikipedia places around Paris and Banff,
    /// and GeoNames' two towns named Banff; with the build's summary.
    static func worldIndex(for test: XCTestCase) throws -> (GeoIndex, ImportSummary) {
        let path = try Scratch.newFolder("geoindex", removedAfter: test) + "/poi.sqlite"
        let summary = try GeoIndexBuilder.build(output: path, landmarksDirectory: shippedLandmarks, geoJSONFiles: [wikipediaParis, banff])
        return (try GeoIndex(path: path), summary)
    }
}

extension Coordinate {
    static let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
    static let joshuaTree = Coordinate(latitude: 33.8734, longitude: -115.901)
}
