import CTrailheadTool
import Foundation
import PointsOfInterestTypes
import TrailheadSchema
import TrailheadTestSupport
import XCTest
@testable import GeoIndex

/// The built `libPoiTool.so`, loaded with dlopen as the host loads it (the test cannot link
/// PoiTool: every plugin exports the same C symbol), over an index built from the fixtures.
final class PoiPluginTests: XCTestCase {
    private var plugin: trailhead_plugin!

    override func setUpWithError() throws {
        let candidates = [ProcessInfo.processInfo.environment["TRAILHEAD_POI_PLUGIN"]].compactMap { $0 }
            + [BuildProducts.folder + "/libPoiTool.so"]
        guard let library = candidates.first(where: FileManager.default.fileExists(atPath:)) else {
            XCTFail("libPoiTool.so not found in \(candidates): build it with `swift build --product PoiTool`")
            throw XCTSkip("no plugin library")
        }
        // Never dlclose a Swift plugin: the handle stays open for the life of the test process.
        let handle = try XCTUnwrap(dlopen(library, RTLD_NOW | RTLD_LOCAL), String(cString: dlerror()))
        let symbol = try XCTUnwrap(dlsym(handle, TRAILHEAD_PLUGIN_SYMBOL))
        typealias Entry = @convention(c) () -> UnsafePointer<trailhead_plugin>
        plugin = unsafeBitCast(symbol, to: Entry.self)().pointee
        let indexPath = try Scratch.newFolder("geoindex", removedAfter: self) + "/poi.sqlite"
        _ = try GeoIndexBuilder.build(output: indexPath, landmarksDirectory: Fixtures.landmarks, geoJSONFiles: [Fixtures.desert])
        var error: UnsafeMutablePointer<CChar>?
        let config = GeneratedContent.object(["index": .string(indexPath)]).jsonString
        XCTAssertEqual(plugin.open(config, &error), 0, error.map { String(cString: $0) } ?? "")
    }

    private func call(_ tool: String, _ arguments: String) throws -> (status: Int32, result: GeneratedContent) {
        var out: UnsafeMutablePointer<CChar>?
        let status = plugin.call(tool, arguments, &out)
        let text = try XCTUnwrap(out.map { String(cString: $0) })
        plugin.free_result(out)
        return (status, try GeneratedContent(json: text))
    }

    func testManifestSchemasCarryTheContract() throws {
        let manifest = try GeneratedContent(json: String(cString: try XCTUnwrap(plugin.manifest_json)))
        XCTAssertEqual(manifest["plugin"], "poi")
        XCTAssertEqual(manifest["version"], "1.0.0")
        XCTAssertEqual(manifest["isolation"], "process")
        XCTAssertEqual(manifest["config"]?["index"], "~/.cache/trailhead/geo/poi.sqlite")
        let tools = try XCTUnwrap(manifest["tools"]?.arrayValue)
        XCTAssertEqual(tools.compactMap { $0["name"]?.stringValue }, ["findPointsOfInterest", "describeLandmark"])
        let find = try XCTUnwrap(tools.first)["arguments"]?["properties"]
        XCTAssertEqual(find?["radiusKm"]?["maximum"], 200)
        XCTAssertEqual(find?["radiusKm"]?["default"], 20)
        XCTAssertEqual(find?["limit"]?["maximum"], 50)
        XCTAssertEqual(find?["category"]?["enum"], .array(PoiCategory.names.map { .string($0) }))
        XCTAssertNotNil(tools.first?["output"], "findPointsOfInterest declares its output")
        XCTAssertNotNil(tools.last?["output"], "describeLandmark declares its output")
    }

    func testFindsHikesNearALandmarkWithCompactNumbers() throws {
        let (status, result) = try call("findPointsOfInterest", #"{"landmark":"joshua tree","category":"hike","query":"easy loop trail"}"#)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(result["landmark"], ["name": "Joshua Tree National Park", "latitude": 33.8734, "longitude": -115.901])
        let results = try XCTUnwrap(result["results"]?.arrayValue)
        XCTAssertEqual(results.first?["name"], "Cholla Cactus Garden Trail")
        XCTAssertEqual(results.first?["distanceKm"], 6.3, "rounded to 0.1 km")
        XCTAssertTrue(results.allSatisfy { $0["category"] == "hike" && ($0["distanceKm"]?.doubleValue ?? 99) <= 20 })
    }

    func testCoordinatesAreNamedAfterTheNearestTown() throws {
        let (status, result) = try call("findPointsOfInterest", #"{"latitude":34.13,"longitude":-116.06,"category":"town","radiusKm":500,"limit":99}"#)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(result["landmark"]?["name"], "34.13,-116.06 (near Twentynine Palms)")
        XCTAssertEqual(result["results"]?.arrayValue?.count, 2, "radius clamped to 200 km: both fixture towns")
    }

    func testUnknownLandmarkIsAToolErrorWithSuggestions() throws {
        let (status, result) = try call("findPointsOfInterest", #"{"landmark":"Joshua Tre Natonal Park"}"#)
        XCTAssertEqual(status, 1)
        XCTAssertEqual(result["error"], "unknown landmark 'Joshua Tre Natonal Park'; did you mean: 'Joshua Tree National Park'?")
        let missing = try call("findPointsOfInterest", #"{"category":"hike"}"#)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.result["error"], "give `landmark` (a name) or both `latitude` and `longitude`")
        // A query that is no place still needs a centre.
        let vague = try call("findPointsOfInterest", #"{"category":"hike","query":"easy loop trail"}"#)
        XCTAssertEqual(vague.result["error"], "give `landmark` (a name) or both `latitude` and `longitude`")
    }

    /// A place named only in `query`, with no centre given, is the centre (the 1.5B model's habit).
    func testAPlaceNamedOnlyInTheQueryIsTheCentre() throws {
        let (status, result) = try call("findPointsOfInterest", #"{"category":"hike","query":"Joshua Tree National Park"}"#)
        XCTAssertEqual(status, 0, "\(result)")
        XCTAssertEqual(result["landmark"]?["name"], "Joshua Tree National Park")
        XCTAssertEqual(result["results"]?.arrayValue?.first?["name"], "Cholla Cactus Garden Trail")
        XCTAssertNil(result["note"], "the name is not also matched against the places found")
    }

    func testDescribeLandmark() throws {
        let (status, result) = try call("describeLandmark", #"{"landmark":"Chateau de Chambord"}"#)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(result["name"], "Château de Chambord")
        XCTAssertEqual(result["country"], "FR")
        XCTAssertEqual(result["latitude"], 47.6161)
        XCTAssertTrue(result["description"]?.stringValue?.hasPrefix("Renaissance château") ?? false)
    }

    /// Reopens the plugin on an index built from `landmarks` and `files`.
    private func reopen(landmarks: String, files: [String]) throws {
        let indexPath = try Scratch.newFolder("geoindex", removedAfter: self) + "/world.sqlite"
        _ = try GeoIndexBuilder.build(output: indexPath, landmarksDirectory: landmarks, geoJSONFiles: files)
        var error: UnsafeMutablePointer<CChar>?
        XCTAssertEqual(plugin.open(GeneratedContent.object(["index": .string(indexPath)]).jsonString, &error), 0)
    }

    func testToolDescriptionsCarryNoExampleValuesToCopy() throws {
        // A model copied "easy loop trail" from a description into its calls: descriptions say
        // what to give, never a value.
        let manifest = try GeneratedContent(json: String(cString: try XCTUnwrap(plugin.manifest_json)))
        var descriptions: [String] = []
        func collect(_ value: GeneratedContent) {
            if let description = value["description"]?.stringValue { descriptions.append(description) }
            for child in value.objectValue?.values.map({ $0 }) ?? value.arrayValue ?? [] { collect(child) }
        }
        collect(manifest)
        XCTAssertGreaterThan(descriptions.count, 8)
        for description in descriptions {
            XCTAssertFalse(description.contains("\""), description)
            for phrase in ["e.g.", "such as", "for example", "for instance"] {
                XCTAssertFalse(description.lowercased().contains(phrase), description)
            }
        }
    }

    func testAnAmbiguousLandmarkIsNamedWithItsRegionAndTheChoiceIsSaid() throws {
        try reopen(landmarks: Fixtures.landmarks, files: [Fixtures.banff])
        let described = try call("describeLandmark", #"{"landmark":"Banff"}"#)
        XCTAssertEqual(described.status, 0)
        XCTAssertEqual(described.result["name"], "Banff, Alberta, Canada")
        XCTAssertEqual(described.result["description"], "town of 8,305 people in Alberta")
        XCTAssertEqual(described.result["note"],
                       "'Banff' names several places; chose Banff, Alberta, Canada, the best known (others: Banff, Scotland, United Kingdom)")

        let found = try call("findPointsOfInterest", #"{"landmark":"Banff","radiusKm":30}"#)
        XCTAssertEqual(found.status, 0)
        XCTAssertEqual(found.result["landmark"]?["name"], "Banff, Alberta, Canada")
        let names = try XCTUnwrap(found.result["results"]?.arrayValue).compactMap { $0["name"]?.stringValue }
        XCTAssertTrue(names.contains("Banff Springs Hotel"), "\(names)")
        XCTAssertFalse(names.contains("Banff Castle"), "that one is in Scotland")
    }

    func testAnAliasOfACuratedLandmarkWinsAndTheNoteNamesTheTowns() throws {
        try reopen(landmarks: Fixtures.shippedLandmarks, files: [Fixtures.banff])
        let (status, result) = try call("describeLandmark", #"{"landmark":"banff"}"#)
        XCTAssertEqual(status, 0)
        let note = "'banff' names several places; chose Banff National Park, the best known (others: Banff, Alberta, Canada; Banff, Scotland, United Kingdom)"
        XCTAssertEqual(result["name"], "Banff National Park")
        XCTAssertEqual(result["note"]?.stringValue, note)
    }

    func testAPlaceThatIsADestinationInItselfIsMarked() throws {
        // Around the town of Banff: the curated national park (13 km away) is where trips go, not a
        // thing to do there; so is any national park, whatever its source, but not a place named
        // after one.
        let extra = try Scratch.newFolder("geoindex", removedAfter: self) + "/parks.geojsonseq"
        try """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-116.2,51.3]},"properties":{"name":"Yoho National Park","category":"landmark","source":"enwiki"}}
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-115.6,51.19]},"properties":{"name":"Kootenay National Park Visitor Centre","category":"museum","source":"enwiki"}}

            """.write(toFile: extra, atomically: true, encoding: .utf8)
        try reopen(landmarks: Fixtures.shippedLandmarks, files: [Fixtures.banff, extra])
        let (status, result) = try call("findPointsOfInterest", #"{"latitude":51.17622,"longitude":-115.56982,"radiusKm":60,"limit":50}"#)
        XCTAssertEqual(status, 0)
        let results = try XCTUnwrap(result["results"]?.arrayValue)
        let marked = results.filter { $0["destination"] == true }.compactMap { $0["name"]?.stringValue }
        XCTAssertEqual(Set(marked), ["Banff National Park", "Yoho National Park"], "\(results.compactMap { $0["name"]?.stringValue })")
        let unmarked = results.filter { $0["destination"] == nil }.compactMap { $0["name"]?.stringValue }
        XCTAssertTrue(unmarked.contains("Kootenay National Park Visitor Centre"), "\(unmarked)")
        XCTAssertTrue(unmarked.contains("Banff Park Visitor Centre"), "a curated point of interest: \(unmarked)")
        XCTAssertTrue(results.allSatisfy { $0["destination"] == nil || $0["destination"] == true }, "true or absent")
    }

    func testMuseumsInParisStartWithTheLouvreAndOrsayAndEveryResultIsDescribed() throws {
        try reopen(landmarks: Fixtures.shippedLandmarks, files: [Fixtures.wikipediaParis])
        let (status, result) = try call("findPointsOfInterest", #"{"landmark":"Paris","category":"museum","query":"museums in Paris"}"#)
        XCTAssertEqual(status, 0)
        let results = try XCTUnwrap(result["results"]?.arrayValue)
        XCTAssertEqual(results.prefix(2).compactMap { $0["name"]?.stringValue }, ["Louvre Museum", "Musée d'Orsay"])
        XCTAssertEqual(results.count, 10)
        XCTAssertTrue(results.allSatisfy { $0["description"]?.stringValue?.isEmpty == false })
        let carnavalet = try XCTUnwrap(results.first { $0["name"] == "Musée Carnavalet" })
        XCTAssertEqual(carnavalet["description"], "museum, 0.7 km from Paris; Wikipedia: Musée Carnavalet")
    }
}
