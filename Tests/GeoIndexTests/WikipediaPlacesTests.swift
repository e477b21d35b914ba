import TrailheadTestSupport
import XCTest
@testable import GeoIndex

/// The Wikipedia places beside the curated landmarks: import, ranking, descriptions, landmarks anywhere.
final class WikipediaPlacesTests: XCTestCase {
    func testMuseumsInParisStartWithTheLouvreAndOrsay() throws {
        let (index, _) = try Fixtures.worldIndex(for: self)
        let nearby = try index.search(NearbyQuery(centre: .paris, category: .museum))
        let asked = try index.search(NearbyQuery(centre: .paris, category: .museum, text: "museums in Paris", centreName: "Paris"))
        let anyCategory = try index.search(NearbyQuery(centre: .paris, text: "museums", centreName: "Paris"))

        for found in [nearby, asked, anyCategory] {
            XCTAssertEqual(found.results.prefix(2).map(\.place.name), ["Louvre Museum", "Musée d'Orsay"])
            XCTAssertTrue(found.textMatched)
        }
        // Nearer than both, yet after them: the Centre Pompidou (0.5 km) and the Musée Carnavalet (0.7 km).
        let names = nearby.results.map(\.place.name)
        XCTAssertLessThan(try XCTUnwrap(names.firstIndex(of: "Musée d'Orsay")), try XCTUnwrap(names.firstIndex(of: "Musée Carnavalet")))
        XCTAssertEqual(nearby.results.count, 10)
    }

    func testTheCentresNameIsNotSearchedFor() {
        XCTAssertEqual(TextQuery("museums in Paris", excluding: "Paris").terms, ["museums"])
        XCTAssertEqual(TextQuery("Paris", excluding: "Paris").terms, ["paris"], "nothing else to search for")
    }

    func testAPlaceWithoutDescriptionGetsAFactualOne() throws {
        let (index, _) = try Fixtures.worldIndex(for: self)
        let found = try index.search(NearbyQuery(centre: .paris, radiusKm: 1, text: "Carnavalet"))
        let carnavalet = try XCTUnwrap(found.results.first)

        XCTAssertEqual(carnavalet.place.name, "Musée Carnavalet")
        XCTAssertNil(carnavalet.place.description, "Wikipedia rows carry no description")
        XCTAssertEqual(carnavalet.place.factualDescription(distanceKm: carnavalet.distanceKm, from: "Paris"),
                       "museum, 0.7 km from Paris; Wikipedia: Musée Carnavalet")
        let palace = try XCTUnwrap(try index.search(NearbyQuery(centre: .paris, text: "Louvre Palace")).results.first)
        XCTAssertEqual(palace.place.factualDescription(distanceKm: 12.34, from: "Paris"),
                       "landmark, 12 km from Paris; Wikipedia: Louvre Palace")
    }

    func testNonPlacesAreLeftOutAtImport() throws {
        let (index, summary) = try Fixtures.worldIndex(for: self)
        XCTAssertEqual(summary.skipped["not a place (an event, a line or a list)"], 4)
        let names = try index.search(NearbyQuery(centre: .paris, radiusKm: 200, text: "eclipse meridian listed", limit: 50))
        XCTAssertFalse(names.textMatched, "no eclipse, meridian or list made it into the index")
    }

    func testTheCuratedEntryWinsOverItsWikipediaTwin() throws {
        let (index, summary) = try Fixtures.worldIndex(for: self)
        let found = try index.search(NearbyQuery(centre: .paris, radiusKm: 5, text: "Orsay", limit: 50))
        let orsay = found.results.filter { $0.place.name == "Musée d'Orsay" }

        XCTAssertEqual(orsay.count, 1, "one Musée d'Orsay, not two")
        XCTAssertTrue(found.results.contains { $0.place.name == "Musée d'Orsay station" }, "the metro station is another place")
        XCTAssertEqual(orsay.first?.place.source, Landmark.source)
        XCTAssertEqual(orsay.first?.place.description, "Former railway station housing the great Impressionist collection.")
        XCTAssertEqual(orsay.first?.place.wikipedia, "Musée d'Orsay", "the curated entry takes its twin's article")
        XCTAssertGreaterThanOrEqual(summary.skipped[CuratedTwins.skipReason] ?? 0, 1)
        let pyramid = try index.search(NearbyQuery(centre: .paris, radiusKm: 5, text: "Louvre Pyramid")).results.first
        XCTAssertEqual(pyramid?.place.name, "Louvre Pyramid", "a part of the Louvre is no twin of the Louvre Museum")
    }

    func testAnAmbiguousNameResolvesToTheBestKnownAndSaysWhich() throws {
        let path = try Scratch.newFolder("geoindex", removedAfter: self) + "/poi.sqlite"
        _ = try GeoIndexBuilder.build(output: path, landmarksDirectory: Fixtures.landmarks, geoJSONFiles: [Fixtures.banff])
        let banff = try GeoIndex(path: path).resolve("Banff")

        XCTAssertEqual(banff.label, "Banff, Alberta, Canada", "8,305 people against 4,000 in Scotland")
        XCTAssertEqual(banff.category, .town)
        XCTAssertEqual(banff.alternatives, ["Banff, Scotland, United Kingdom"])
    }

    func testACuratedLandmarkIsTheBestKnownOfItsNames() throws {
        let (index, _) = try Fixtures.worldIndex(for: self)
        let banff = try index.resolve("Banff")

        XCTAssertEqual(banff.label, "Banff National Park", "'Banff' is one of its aliases; curated landmarks rank 1")
        XCTAssertTrue(banff.isCuratedLandmark)
        XCTAssertEqual(banff.alternatives, ["Banff, Alberta, Canada", "Banff, Scotland, United Kingdom"])
    }

    func testAnyPlaceInTheIndexCanBeTheLandmark() throws {
        let (index, _) = try Fixtures.worldIndex(for: self)
        let lake = try index.resolve("moraine lake")
        XCTAssertEqual(lake.wikipedia, "Moraine Lake", "the Alberta lake (10.6 KB article), not the Washington one (2 KB)")
        XCTAssertEqual(lake.alternatives.count, 1)

        let around = try index.search(NearbyQuery(centre: lake.coordinate, radiusKm: 20, category: .viewpoint))
        XCTAssertTrue(around.results.contains { $0.place.name == "Moraine Lake Rockpile" }, "curated Banff viewpoints around it")
    }

    func testBothJoinOrdersAgreeOnRealPlaces() throws {
        let (index, _) = try Fixtures.worldIndex(for: self)
        for text in ["museum", "Louvre", "art gallery", "history museum"] {
            var query = NearbyQuery(centre: .paris, radiusKm: 20, text: text, limit: 50)
            query.joinOrder = .spaceFirst
            let spaceFirst = try index.search(query)
            query.joinOrder = .textFirst
            let textFirst = try index.search(query)
            XCTAssertEqual(spaceFirst.results, textFirst.results, text)
            XCTAssertFalse(spaceFirst.results.isEmpty, text)
        }
    }
}
