import Foundation
import TrailheadTestSupport
import XCTest
@testable import GeoIndex

/// Imports a real OpenStreetMap extract (Liechtenstein, 2013) through osmium.
final class OSMImportTests: XCTestCase {
    func testLiechtensteinExtractImportsCastlesRestaurantsAndCampSites() throws {
        let extract = Fixtures.liechtenstein
        guard FileManager.default.fileExists(atPath: extract) else {
            XCTFail("the OpenStreetMap test extract is missing at \(extract); set TRAILHEAD_OSM_EXTRACT to its path")
            return
        }
        let path = try Scratch.newFolder("geoindex", removedAfter: self) + "/osm.sqlite"
        let summary = try GeoIndexWriter(path: path).importFile(extract)
        let index = try GeoIndex(path: path)

        // osmium keeps 173 features for our tag filters (nodes, ways and areas); 146 have a
        // name, of which 9 carry no tag we map (a named way kept only for its nodes' tags).
        XCTAssertEqual(summary.importedCount + summary.skippedCount, 173, "\(summary)")
        XCTAssertEqual(summary.skipped["no name"], 27, "\(summary)")
        XCTAssertEqual(summary.importedCount, 137, "\(summary)")

        let vaduz = Coordinate(latitude: 47.1399, longitude: 9.5215)
        let castles = try index.search(NearbyQuery(centre: vaduz, radiusKm: 15, category: .landmark, text: "castle"))
        XCTAssertTrue(castles.textMatched)
        let names = castles.results.map(\.place.name)
        XCTAssertTrue(names.contains("Schloss Vaduz"), "\(names)")
        XCTAssertTrue(names.contains("Schloss Gutenberg"), "\(names)")
        // The castle's entrance node, and its area at the mean of the outline's vertices.
        let gutenberg = castles.results.filter { $0.place.name == "Schloss Gutenberg" }
        XCTAssertEqual(gutenberg.count, 2)
        XCTAssertTrue(gutenberg.contains { abs($0.place.coordinate.latitude - 47.0651353) < 1e-7 })
        XCTAssertTrue(gutenberg.allSatisfy { $0.place.coordinate.distanceKm(to: Coordinate(latitude: 47.0651353, longitude: 9.5007185)) < 0.1 })
        XCTAssertTrue(gutenberg.allSatisfy { $0.place.source == "osm" })

        let restaurants = try index.search(NearbyQuery(centre: vaduz, radiusKm: 30, category: .restaurant, limit: 50))
        XCTAssertGreaterThan(restaurants.results.count, 10)
        XCTAssertTrue(try index.countsByCategory()[.campground, default: 0] >= 1)
        XCTAssertEqual(try index.resolve("Schloss Vaduz").category, .landmark)
    }

    func testMissingExtractIsAClearError() throws {
        let writer = try GeoIndexWriter(path: try Scratch.newFolder("geoindex", removedAfter: self) + "/osm.sqlite")
        XCTAssertThrowsError(try writer.importFile("/nonexistent/place.osm.pbf")) { error in
            XCTAssertEqual("\(error)", "OpenStreetMap extract not found: '/nonexistent/place.osm.pbf'")
        }
    }
}
