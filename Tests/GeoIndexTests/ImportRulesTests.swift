import PointsOfInterestTypes
import XCTest
@testable import GeoIndex

/// The written rules of the import: what is not a place, when two rows are one place, popularity.
final class ImportRulesTests: XCTestCase {
    func testEventsLinesAndListsAreNotPlaces() {
        for name in ["Solar eclipse of September 8, 1885", "136th meridian west", "72nd parallel south", "Tristan hotspot",
                     "Hotspot", "Equator", "Tropic of Capricorn", "Battle of Mount Longdon", "1933 Long Beach earthquake",
                     "LANSA Flight 502", "Listed buildings in Birkenhead", "1962 FIFA World Cup", "Murder of Thomas Coleman",
                     "Infobox building", "Kiss nightclub fire"] {
            XCTAssertTrue(NonPlaceFilter.isNonPlace(name), name)
        }
    }

    func testPlacesNamedAfterEventsStay() {
        for name in ["Canterbury Earthquake National Memorial", "Earthquake Valley", "Great Siege Tunnels", "Meridian",
                     "Memorial to the Victims of National Socialist 'Euthanasia' Killings", "Florence Firehouse",
                     "Tropic of Cancer Monument", "Musée d'Orsay", "Fire Island"] {
            XCTAssertFalse(NonPlaceFilter.isNonPlace(name), name)
        }
    }

    func testTwinsAreCloseWithAgreeingNames() {
        let louvre = Landmark(name: "Paris", country: "FR", latitude: 48.8566, longitude: 2.3522, description: "d", pointsOfInterest: [
            .init(name: "Louvre Museum", category: .museum, latitude: 48.8606, longitude: 2.3376),
            .init(name: "Picasso Museum", category: .museum, latitude: 48.8598, longitude: 2.3622),
            .init(name: "Fairmont Banff Springs", category: .lodging, latitude: 48.80, longitude: 2.30),
        ])
        var twins = CuratedTwins([louvre])
        func row(_ name: String, _ category: PoiCategory, _ latitude: Double, _ longitude: Double, article: Double = 30_000) -> Place {
            Place(name: name, category: category, coordinate: Coordinate(latitude: latitude, longitude: longitude), source: "enwiki",
                  popularity: Popularity.article(length: article), wikipedia: name)
        }

        XCTAssertTrue(twins.absorb(row("Museu Picasso", .museum, 48.8599, 2.3623)), "same words, 10 m apart")
        XCTAssertTrue(twins.absorb(row("Banff Springs Hotel", .lodging, 48.8003, 2.3002)), "its words are among the curated name's")
        XCTAssertFalse(twins.absorb(row("Louvre Pyramid", .landmark, 48.8609, 2.3358)), "a part, not the whole")
        XCTAssertFalse(twins.absorb(row("Picasso Museum", .museum, 43.58, 7.13)), "the one in Antibes is another museum")
        XCTAssertFalse(twins.absorb(row("Paris", .town, 48.8566, 2.3522)), "towns are never twins of POIs")
        XCTAssertTrue(twins.absorb(row("Paris", .landmark, 48.86, 2.35)), "a curated landmark takes a row of exactly its name")
        let picasso = twins.places.first { $0.name == "Picasso Museum" }
        XCTAssertEqual(picasso?.wikipedia, "Museu Picasso")
        XCTAssertEqual(picasso?.popularity, Popularity.curated(positionInCategory: 1), "0.85 beats a 30 KB article (0.6)")
    }

    func testPopularityScales() {
        XCTAssertEqual(Popularity.article(length: 1_000), 0)
        XCTAssertEqual(Popularity.article(length: 300_000), 1, accuracy: 1e-9)
        XCTAssertEqual(Popularity.article(length: 4_468), 0.26, accuracy: 0.01, "the median article")
        XCTAssertEqual(Popularity.town(population: 8_305), 0.23, accuracy: 0.01)
        XCTAssertEqual(Popularity.town(population: 50_000_000), 1)
        XCTAssertEqual(Popularity.curated(positionInCategory: 0), 0.9)
        XCTAssertEqual(Popularity.curated(positionInCategory: 10), 0.6)
    }

    func testTheHilbertCurveKeepsNeighboursClose() {
        let louvre = HilbertCurve.key(Coordinate(latitude: 48.8606, longitude: 2.3376))
        let orsay = HilbertCurve.key(Coordinate(latitude: 48.86, longitude: 2.3266))
        let sydney = HilbertCurve.key(Coordinate(latitude: -33.86, longitude: 151.21))
        XCTAssertLessThan(louvre > orsay ? louvre - orsay : orsay - louvre, 1 << 12)
        XCTAssertGreaterThan(louvre > sydney ? louvre - sydney : sydney - louvre, 1 << 28)
        XCTAssertEqual(HilbertCurve.key(x: 0, y: 0), 0)
        XCTAssertEqual(Set((0..<4).flatMap { x in (0..<4).map { y in HilbertCurve.key(x: UInt64(x), y: UInt64(y)) } }).count, 16)
    }
}
