import Foundation
import TrailheadTestSupport
import XCTest
@testable import GeoIndex

final class GeoIndexBuildTests: XCTestCase {
    func testBuildFromFixturesCountsEveryLandmarkAndPlace() throws {
        let path = try Scratch.newFolder("geoindex", removedAfter: self) + "/poi.sqlite"
        let summary = try GeoIndexBuilder.build(output: path, landmarksDirectory: Fixtures.landmarks, geoJSONFiles: [Fixtures.desert])

        XCTAssertEqual(summary.landmarks, 3)
        // 16 curated POIs + 3 landmarks as places + 5 usable desert features.
        XCTAssertEqual(summary.importedCount, 24)
        XCTAssertEqual(summary.skipped, ["no name": 1, "unknown category 'volcano'": 1,
                                         "no category (no `category` property and no known OpenStreetMap tag)": 1])
        let index = try GeoIndex(path: path)
        XCTAssertEqual(try index.landmarkCount(), 3)
        let counts = try index.countsByCategory()
        XCTAssertEqual(counts[.hike], 8)
        XCTAssertEqual(counts[.town], 2)
        XCTAssertEqual(counts[.airport], 1)
        XCTAssertEqual(counts[.viewpoint], 3, "Keys View, the OSM viewpoint and the picnic site polygon")
        XCTAssertEqual(counts[.landmark], 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".building"), "the temporary file is renamed into place")
    }

    func testPolygonFeatureIsPlacedAtTheMeanOfItsVertices() throws {
        let index = try Fixtures.desertIndex(for: self)
        let found = try index.search(NearbyQuery(centre: Coordinate(latitude: 33.91, longitude: -115.94), radiusKm: 1))
        let picnic = try XCTUnwrap(found.results.first { $0.place.name == "Ocotillo Picnic Area" })
        // Five vertices (the ring is closed), so the mean leans toward the repeated corner.
        XCTAssertEqual(picnic.place.coordinate.latitude, 33.908, accuracy: 1e-9)
        XCTAssertEqual(picnic.place.coordinate.longitude, -115.942, accuracy: 1e-9)
    }

    func testMalformedLineNamesFileAndLineAndWritesNothing() throws {
        let path = try Scratch.newFolder("geoindex", removedAfter: self) + "/poi.sqlite"
        let writer = try GeoIndexWriter(path: path)
        XCTAssertThrowsError(try writer.importFile(Fixtures.broken)) { error in
            XCTAssertTrue("\(error)".contains("broken.geojsonseq:2: invalid JSON"), "\(error)")
        }
        XCTAssertEqual(try GeoIndex(path: path).countsByCategory(), [:], "the import is one transaction")
    }

    func testFeatureWithCoordinatesOffTheGlobeIsAnError() throws {
        let directory = try Scratch.newFolder("geoindex", removedAfter: self)
        let file = directory + "/swapped.geojson"
        try #"{"type":"Feature","geometry":{"type":"Point","coordinates":[34.1,-116.0]},"properties":{"name":"Swapped","category":"town"}}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let writer = try GeoIndexWriter(path: directory + "/poi.sqlite")
        XCTAssertThrowsError(try writer.importFile(file)) { error in
            XCTAssertTrue("\(error)".contains("swapped.geojson: coordinates (34.1, -116.0) are off the globe"), "\(error)")
        }
    }

    func testLandmarkFileWithUnknownCategoryNamesThePointer() throws {
        let directory = try Scratch.newFolder("geoindex", removedAfter: self)
        let file = directory + "/bad.json"
        try #"{"name":"X","country":"US","latitude":1,"longitude":2,"description":"d","pointsOfInterest":[{"name":"Y","category":"trail","latitude":1,"longitude":2}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try LandmarkFile.load(file)) { error in
            XCTAssertTrue("\(error)".contains("bad.json: /pointsOfInterest/0/category: unknown category 'trail'; expected one of: hike,"), "\(error)")
        }
    }

    func testLandmarkFileWithoutDescriptionIsRefused() throws {
        let directory = try Scratch.newFolder("geoindex", removedAfter: self)
        let file = directory + "/bad.json"
        try #"{"name":"X","country":"US","latitude":1,"longitude":2}"#.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try LandmarkFile.load(file)) { error in
            XCTAssertTrue("\(error)".hasSuffix("bad.json: /description: required, a non-empty string"), "\(error)")
        }
    }

    func testMissingIndexAndForeignFileGiveClearErrors() throws {
        let directory = try Scratch.newFolder("geoindex", removedAfter: self)
        XCTAssertThrowsError(try GeoIndex(path: directory + "/none.sqlite")) { error in
            XCTAssertTrue("\(error)".contains("geodata index not found at"), "\(error)")
        }
        let foreign = directory + "/foreign.sqlite"
        try "not a database at all, just text".write(toFile: foreign, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try GeoIndex(path: foreign)) { error in
            XCTAssertTrue("\(error)".contains("foreign.sqlite"), "\(error)")
        }
    }
}
