import XCTest
@testable import GeoIndex

final class GeoIndexSearchTests: XCTestCase {
    func testHikesWithinDefaultRadiusAreRankedByCuratedRankAndDistance() throws {
        let index = try Fixtures.desertIndex(for: self)
        let found = try index.search(NearbyQuery(centre: .joshuaTree, category: .hike))

        // Curated order (the landmark file lists Mastodon Peak third, Lost Palms fourth) outweighs
        // half a kilometre: Mastodon Peak at 17.8 km comes before Lost Palms at 17.3 km.
        XCTAssertEqual(found.results.map(\.place.name),
                       ["Cholla Cactus Garden Trail", "Arch Rock Nature Trail", "Mastodon Peak Trail", "Lost Palms Oasis Trail"])
        XCTAssertEqual(found.results.map(\.score), found.results.map(\.score).sorted(by: >))
        XCTAssertTrue(found.results.allSatisfy { $0.distanceKm <= 20 && $0.place.category == .hike })
    }

    func testLargerRadiusReachesTheFartherTrails() throws {
        let index = try Fixtures.desertIndex(for: self)
        let names = try index.search(NearbyQuery(centre: .joshuaTree, radiusKm: 30, category: .hike)).results.map(\.place.name)
        XCTAssertTrue(names.contains("Ryan Mountain Trail"))
        XCTAssertTrue(names.contains("Barker Dam Nature Trail"))
        XCTAssertFalse(names.contains("Angels Landing"), "Zion is 500 km away")
    }

    func testCategoryFilterKeepsOnlyThatCategory() throws {
        let index = try Fixtures.desertIndex(for: self)
        let found = try index.search(NearbyQuery(centre: .joshuaTree, radiusKm: 50, category: .campground))
        XCTAssertEqual(Set(found.results.map(\.place.name)), ["White Tank Campground", "Cottonwood Campground"])
    }

    func testNaturalLanguageQueryRanksMatchingLoopsFirst() throws {
        let index = try Fixtures.desertIndex(for: self)
        let found = try index.search(NearbyQuery(centre: .joshuaTree, category: .hike, text: "an easy loop trail"))

        XCTAssertTrue(found.textMatched)
        // The two easy loops beat the moderate loop, which beats the out-and-back.
        XCTAssertEqual(found.results.map(\.place.name),
                       ["Cholla Cactus Garden Trail", "Arch Rock Nature Trail", "Mastodon Peak Trail", "Lost Palms Oasis Trail"])
        XCTAssertEqual(found.results.map(\.score), found.results.map(\.score).sorted(by: >))
    }

    func testEveryWayOfJoiningSpaceAndTextAgrees() throws {
        let index = try Fixtures.desertIndex(for: self)
        var query = NearbyQuery(centre: .joshuaTree, radiusKm: 60, text: "easy loop trail palms", limit: 50)
        query.joinOrder = .textFirst
        let textFirst = try index.search(query)
        query.joinOrder = .spaceFirst
        index.rangeGap = Int.max / 2
        let oneRange = try index.search(query)
        index.rangeGap = 0
        let rangePerRun = try index.search(query)

        XCTAssertEqual(textFirst.results.count, 8, "places within 60 km matching a word")
        XCTAssertEqual(textFirst.joinOrder, .textFirst)
        XCTAssertEqual(oneRange.joinOrder, .spaceFirst)
        XCTAssertEqual(textFirst.results, oneRange.results)
        XCTAssertEqual(oneRange.results, rangePerRun.results)
    }

    func testQueryOnlyReturnsPlacesMatchingSomeWord() throws {
        let index = try Fixtures.desertIndex(for: self)
        let found = try index.search(NearbyQuery(centre: .joshuaTree, radiusKm: 40, text: "palm oasis"))
        XCTAssertEqual(found.results.first?.place.name, "Lost Palms Oasis Trail", "matches both words, stemmed")
        XCTAssertTrue(found.results.allSatisfy { result in
            let text = (result.place.name + " " + (result.place.description ?? "")).lowercased()
            return text.contains("palm") || text.contains("oasis")
        })
    }

    func testQueryMatchesAcrossAccentsAndStems() throws {
        let index = try Fixtures.desertIndex(for: self)
        let chambord = Coordinate(latitude: 47.6161, longitude: 1.517)
        let cafe = try index.search(NearbyQuery(centre: chambord, radiusKm: 5, text: "cafe orleans"))
        XCTAssertEqual(cafe.results.first?.place.name, "Café d'Orléans")
        let hiking = try index.search(NearbyQuery(centre: .joshuaTree, radiusKm: 30, text: "climbing views"))
        XCTAssertEqual(hiking.results.first?.place.name, "Ryan Mountain Trail", "'climbing' meets 'climb', 'views' meets 'views'")
    }

    func testUnmatchedQueryFallsBackToNearestAndSaysSo() throws {
        let index = try Fixtures.desertIndex(for: self)
        let found = try index.search(NearbyQuery(centre: .joshuaTree, category: .hike, text: "sushi"))
        XCTAssertFalse(found.textMatched)
        XCTAssertEqual(found.results.first?.place.name, "Cholla Cactus Garden Trail")
    }

    func testStopWordsOnlyQueryIsNoQuery() throws {
        let index = try Fixtures.desertIndex(for: self)
        let found = try index.search(NearbyQuery(centre: .joshuaTree, category: .hike, text: "the best one near here please"))
        XCTAssertTrue(found.textMatched)
        XCTAssertEqual(found.results.count, 4)
    }

    func testRadiusAndLimitAreClampedToTheirMaximums() throws {
        let index = try Fixtures.desertIndex(for: self)
        XCTAssertEqual(NearbyQuery.maximumRadiusKm, 200)
        XCTAssertEqual(NearbyQuery.maximumLimit, 50)
        let found = try index.search(NearbyQuery(centre: .joshuaTree, radiusKm: 5000, limit: 500))
        XCTAssertTrue(found.results.allSatisfy { $0.distanceKm <= 200 })
        XCTAssertFalse(found.results.contains { $0.place.name == "Angels Landing" })
        XCTAssertLessThanOrEqual(found.results.count, 50)
        XCTAssertEqual(try index.search(NearbyQuery(centre: .joshuaTree, radiusKm: 50, limit: 2)).results.count, 2)
    }

    func testNonsenseRadiusAndCoordinatesAreErrors() throws {
        let index = try Fixtures.desertIndex(for: self)
        XCTAssertThrowsError(try index.search(NearbyQuery(centre: .joshuaTree, radiusKm: -1))) { error in
            XCTAssertEqual("\(error)", "radiusKm must be a positive number, got -1.0")
        }
        XCTAssertThrowsError(try index.search(NearbyQuery(centre: .joshuaTree, radiusKm: .nan)))
        XCTAssertThrowsError(try index.search(NearbyQuery(centre: Coordinate(latitude: 95, longitude: 0)))) { error in
            XCTAssertTrue("\(error)".contains("out of range"), "\(error)")
        }
    }

    func testSearchAcrossTheAntimeridian() throws {
        let index = try Fixtures.desertIndex(for: self)
        let found = try index.search(NearbyQuery(centre: Coordinate(latitude: 10, longitude: 179.999), radiusKm: 5))
        XCTAssertEqual(Set(found.results.map(\.place.name)), ["East Reef Marina", "West Reef Beach"])
        XCTAssertEqual(found.results.first { $0.place.name == "West Reef Beach" }?.place.category, .beach, "mapped from natural=beach")
    }
}
