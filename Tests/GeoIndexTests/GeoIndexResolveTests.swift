import XCTest
@testable import GeoIndex

final class GeoIndexResolveTests: XCTestCase {
    func testNamesAndAliasesResolveIgnoringCaseAccentsAndPunctuation() throws {
        let index = try Fixtures.desertIndex(for: self)
        for name in ["Joshua Tree National Park", "JOSHUA TREE NATIONAL PARK", "jtnp", "  joshua-tree national park! "] {
            XCTAssertEqual(try index.resolve(name).name, "Joshua Tree National Park", name)
        }
        XCTAssertEqual(try index.resolve("chateau de chambord").name, "Château de Chambord")
        XCTAssertEqual(try index.resolve("Chambord").country, "FR")
    }

    func testAliasWinsOverTownOfTheSameName() throws {
        let index = try Fixtures.desertIndex(for: self)
        let place = try index.resolve("Joshua Tree")
        XCTAssertEqual(place.name, "Joshua Tree National Park")
        XCTAssertEqual(place.category, .landmark)
        XCTAssertEqual(place.coordinate, .joshuaTree)
    }

    func testPrefixOfEveryWordFindsALandmark() throws {
        let index = try Fixtures.desertIndex(for: self)
        XCTAssertEqual(try index.resolve("Josh Tr").name, "Joshua Tree National Park")
        XCTAssertEqual(try index.resolve("the Zion park").name, "Zion National Park")
    }

    func testTownsAndAirportsResolveWhenNoLandmarkMatches() throws {
        let index = try Fixtures.desertIndex(for: self)
        let town = try index.resolve("twentynine palms")
        XCTAssertEqual(town.name, "Twentynine Palms")
        XCTAssertEqual(town.category, .town)
        XCTAssertEqual(try index.resolve("Palm Springs International Airport").category, .airport)
    }

    func testUnknownNameSuggestsTheClosestNames() throws {
        let index = try Fixtures.desertIndex(for: self)
        XCTAssertThrowsError(try index.resolve("Zyon")) { error in
            let unknown = error as? UnknownPlaceError
            XCTAssertEqual(unknown?.suggestions, ["Zion National Park"], "the canonical name of the alias 'Zion'")
            XCTAssertEqual("\(error)", "unknown landmark 'Zyon'; did you mean: 'Zion National Park'?")
        }
        XCTAssertThrowsError(try index.resolve("Joshau Tree Natonal Park")) { error in
            XCTAssertEqual((error as? UnknownPlaceError)?.suggestions.first, "Joshua Tree National Park")
        }
        XCTAssertThrowsError(try index.resolve("Twentynine Plams")) { error in
            XCTAssertEqual((error as? UnknownPlaceError)?.suggestions, ["Twentynine Palms"])
        }
    }

    func testNameWithNothingCloseHasNoSuggestions() throws {
        let index = try Fixtures.desertIndex(for: self)
        XCTAssertThrowsError(try index.resolve("Qqqqxxxx")) { error in
            XCTAssertEqual((error as? UnknownPlaceError)?.suggestions, [])
        }
        XCTAssertThrowsError(try index.resolve("  ...  "))
    }
}
