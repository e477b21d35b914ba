import Foundation
import XCTest

@testable import TrailheadSchema

/// Types that declare their schema in code round-trip through `GeneratedContent`.
final class GenerableTests: XCTestCase {
    func testItineraryRoundTripsWithKeysInDeclarationOrder() throws {
        let content = try Itinerary.sample.generatedContent()
        XCTAssertEqual(content.jsonString, #"""
            {"title":"Joshua Tree","days":[{"date":"2025-05-01","activities":[{"name":"Ryan Mountain","category":"hike","hours":2.5}]},\#
            {"date":"2025-05-02","activities":[{"name":"Keys View","category":"viewpoint"},{"name":"Cholla Cactus Garden","category":"hike","hours":0.5}]},\#
            {"date":"2025-05-03","activities":[{"name":"Joshua Tree Museum","category":"museum","hours":1}]}]}
            """#)
        XCTAssertEqual(Itinerary.generationSchema.validate(content), [])
        XCTAssertEqual(try Itinerary(content), Itinerary.sample)
        XCTAssertEqual(try Itinerary(GeneratedContent(json: content.prettyJSONString)), Itinerary.sample)
    }

    func testInvalidContentIsRefusedWithEveryViolation() throws {
        let content = try GeneratedContent(json: #"""
            {"title":"Trip","days":[{"date":"May 1","activities":[{"name":"Ryan Mountain","category":"hiking","hours":0.7}]}]}
            """#)
        XCTAssertThrowsError(try Itinerary(content)) { error in
            let violations = (error as? GeneratedContentInvalid)?.violations.map(\.description)
            XCTAssertEqual(violations, [
                "/days: expected exactly 3 items, got 1",
                "/days/0/date: expected a string matching /^\\d{4}-\\d{2}-\\d{2}$/, got \"May 1\"",
                "/days/0/activities/0/category: expected one of \"hike\", \"viewpoint\", \"museum\", got \"hiking\"",
                "/days/0/activities/0/hours: expected a multiple of 0.5, got 0.7",
            ])
        }
    }

    func testBuilderMakesPlainJSONSchema() throws {
        let json = try XCTUnwrap(Itinerary.Activity.generationSchema.json.objectValue)
        XCTAssertEqual(json["required"], ["name", "category"])
        XCTAssertEqual(json["additionalProperties"], false)
        XCTAssertEqual(json["properties"]?["category"]?["anyOf"]?.arrayValue?.first, ["const": "hike", "description": "a trail walk"])
        XCTAssertThrowsError(try SchemaBuilder.string(pattern: "(").schema()) { error in
            XCTAssertEqual((error as? SchemaError)?.pointer, "/pattern")
        }
    }

    func testEncoderKeepsOrderAndRefusesWhatJSONCannotHold() throws {
        struct Mixed: Codable {
            var z = 1
            var a: Float = 0.1
            var m: [Int?] = [1, nil]
            var raw: GeneratedContent = ["y": 1, "b": 2]
            var url = URL(string: "https://example.com/a?b=c")!
        }
        XCTAssertEqual(try GeneratedContent(encoding: Mixed()).jsonString,
                       #"{"z":1,"a":0.1,"m":[1,null],"raw":{"y":1,"b":2},"url":"https://example.com/a?b=c"}"#)
        XCTAssertThrowsError(try GeneratedContent(encoding: [Double.nan])) { error in
            guard case EncodingError.invalidValue = error else { return XCTFail("\(error)") }
        }
        enum Shape: Codable { case circle(radius: Double), square(side: Int) }
        let shape = try GeneratedContent(encoding: Shape.circle(radius: 2))
        XCTAssertEqual(shape.jsonString, #"{"circle":{"radius":2}}"#)
        guard case .circle(let r) = try shape.decode(as: Shape.self) else { return XCTFail() }
        XCTAssertEqual(r, 2)
    }

    func testDecoderNamesWhatAndWhere() throws {
        struct Point: Codable { var x: Int; var y: Int }
        XCTAssertEqual(try GeneratedContent(json: #"{"x":2.0,"y":-3}"#).decode(as: Point.self).x, 2)
        XCTAssertThrowsError(try GeneratedContent(json: #"{"x":2.5,"y":1}"#).decode(as: Point.self)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["x"])
            XCTAssertEqual(context.debugDescription, "2.5 does not fit in Int")
        }
        XCTAssertThrowsError(try GeneratedContent(json: #"{"x":"2","y":1}"#).decode(as: Point.self)) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.debugDescription, "expected Int, got \"2\"")
        }
        XCTAssertThrowsError(try GeneratedContent(json: #"{"x":1}"#).decode(as: Point.self)) { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "y")
        }
        let ordered = try GeneratedContent(json: #"{"b":1,"a":2}"#)
        XCTAssertEqual(try ordered.decode(as: [String: GeneratedContent].self), ["b": 1, "a": 2])
        XCTAssertEqual(try ordered.decode(as: GeneratedContent.self).jsonString, #"{"b":1,"a":2}"#)
    }
}
