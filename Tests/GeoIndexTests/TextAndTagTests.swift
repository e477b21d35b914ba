import PointsOfInterestTypes
import XCTest
@testable import GeoIndex

final class TextAndTagTests: XCTestCase {
    func testTextQueryDropsStopWordsAndQuotesPrefixTerms() {
        let query = TextQuery("An easy LOOP trail, with a view!")
        XCTAssertEqual(query.terms, ["easy", "loop", "trail", "view"])
        XCTAssertEqual(query.anyTermExpression, #""easy" OR "loop" OR "trail" OR "view""#)
        XCTAssertEqual(query.allTermsExpression, #""easy"* AND "loop"* AND "trail"* AND "view"*"#)
        XCTAssertEqual(TextQuery(#"caf" OR NEAR("x"#).terms, ["caf", "near", "x"].filter { $0.count >= 2 && $0 != "near" })
    }

    func testFoldingKey() {
        XCTAssertEqual(TextFolding.key("  Château-de  CHAMBORD! "), "chateau de chambord")
        XCTAssertEqual(TextFolding.editDistance("zyon", "zion"), 1)
        XCTAssertEqual(TextFolding.editDistance("", "abc"), 3)
    }

    func testOpenStreetMapTagsMapToCategories() {
        XCTAssertEqual(PoiCategory.fromOSMTags(["tourism": "viewpoint"]), .viewpoint)
        XCTAssertEqual(PoiCategory.fromOSMTags(["amenity": "restaurant"]), .restaurant)
        XCTAssertEqual(PoiCategory.fromOSMTags(["tourism": "camp_site"]), .campground)
        XCTAssertEqual(PoiCategory.fromOSMTags(["historic": "castle", "tourism": "attraction"]), .landmark)
        XCTAssertEqual(PoiCategory.fromOSMTags(["tourism": "hotel", "historic": "building"]), .lodging)
        XCTAssertEqual(PoiCategory.fromOSMTags(["leisure": "marina"]), .marina)
        XCTAssertNil(PoiCategory.fromOSMTags(["amenity": "bench"]))
    }

    func testCategoryNamesAreTheContract() {
        XCTAssertEqual(PoiCategory.names, ["hike", "viewpoint", "campground", "lodging", "restaurant", "cafe", "museum",
                                           "marina", "beach", "stargazing", "landmark", "town", "airport"])
        XCTAssertThrowsError(try PoiCategory(validating: "trail")) { error in
            XCTAssertTrue("\(error)".hasPrefix("unknown category 'trail'; expected one of: hike, viewpoint"))
        }
    }

    func testBoundingBoxSplitsAtTheAntimeridianAndWidensAtThePoles() {
        XCTAssertEqual(BoundingBox.covering(Coordinate(latitude: 0, longitude: 179.9), radiusKm: 50).count, 2)
        let polar = BoundingBox.covering(Coordinate(latitude: 89.95, longitude: 0), radiusKm: 20)
        XCTAssertEqual(polar.map(\.minLongitude), [-180])
        XCTAssertEqual(polar.map(\.maxLongitude), [180])
    }
}
