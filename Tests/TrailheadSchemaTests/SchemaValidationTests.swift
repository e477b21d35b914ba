import XCTest

@testable import TrailheadSchema

/// Validation reports every violation with a message a model can act on.
final class SchemaValidationTests: XCTestCase {
    func schema(_ json: String) throws -> GenerationSchema {
        try GenerationSchema(json: GeneratedContent(json: json))
    }

    func messages(_ schema: GenerationSchema, _ instance: String) throws -> [String] {
        schema.validate(try GeneratedContent(json: instance)).map(\.description)
    }

    static let itinerary = #"""
        {"type":"object","required":["title","days"],"additionalProperties":false,
         "properties":{
          "title":{"type":"string","minLength":1},
          "days":{"type":"array","minItems":3,"maxItems":3,"items":{
            "type":"object","required":["date","activities"],"properties":{
              "date":{"type":"string","pattern":"^\\d{4}-\\d{2}-\\d{2}$"},
              "activities":{"type":"array","minItems":1,"maxItems":3,"items":{
                "type":"object","required":["name","category"],"properties":{
                  "name":{"type":"string"},
                  "category":{"enum":["hike","viewpoint","museum"]},
                  "hours":{"type":"number","exclusiveMinimum":0,"maximum":12,"multipleOf":0.25}}}}}}}}}
        """#

    func testEveryViolationIsReportedWithPointersAndMessages() throws {
        let schema = try schema(Self.itinerary)
        let violations = schema.validate(try GeneratedContent(json: #"""
            {"title":"","days":[{"date":"2025/05/01","activities":[{"name":"Ryan Mountain","category":"hiking","hours":1.1}]},
             {"activities":[]}],"x":1}
            """#))
        XCTAssertEqual(violations.map(\.description), [
            "/title: expected at least 1 character, got 0",
            "/days: expected exactly 3 items, got 2",
            "/days/0/date: expected a string matching /^\\d{4}-\\d{2}-\\d{2}$/, got \"2025/05/01\"",
            "/days/0/activities/0/category: expected one of \"hike\", \"viewpoint\", \"museum\", got \"hiking\"",
            "/days/0/activities/0/hours: expected a multiple of 0.25, got 1.1",
            "/days/1: missing required property \"date\"",
            "/days/1/activities: expected 1 to 3 items, got 0",
            "/: unexpected property \"x\"; allowed: \"title\", \"days\"",
        ])
        XCTAssertEqual(violations[1].schemaPointer, "/properties/days/minItems")
        XCTAssertEqual(violations[3].schemaPointer, "/properties/days/items/properties/activities/items/properties/category/enum")
        XCTAssertEqual(violations[5].instancePointer, "/days/1")
        XCTAssertFalse(schema.isValid(try GeneratedContent(json: #"{"title":"t"}"#)))
    }

    func testTypeMessages() throws {
        let s = try schema(#"{"properties":{"x":{"type":"integer"},"y":{"type":["string","null"]}}}"#)
        XCTAssertEqual(try messages(s, #"{"x":"3","y":4}"#), ["/x: expected integer, got string", "/y: expected string or null, got integer"])
        XCTAssertEqual(try messages(s, #"{"x":2.5}"#), ["/x: expected integer, got 2.5"])
        XCTAssertEqual(try messages(s, #"{"x":2.0,"y":null}"#), [], "1.0 is an integer")
    }

    func testNumericBounds() throws {
        let s = try schema(#"{"minimum":1,"exclusiveMaximum":10}"#)
        XCTAssertEqual(try messages(s, "0"), ["/: expected at least 1, got 0"])
        XCTAssertEqual(try messages(s, "10"), ["/: expected less than 10, got 10"])
        XCTAssertEqual(try messages(s, "\"ten\""), [], "numeric keywords ignore other types")
    }

    func testMultipleOfOnDecimalsAndHugeNumbers() throws {
        let small = try schema(#"{"multipleOf":0.0001}"#)
        XCTAssertTrue(small.isValid(0.0075))
        XCTAssertFalse(small.isValid(0.00751))
        let odd = try schema(#"{"multipleOf":0.123456789}"#)
        XCTAssertFalse(odd.isValid(1e308), "must neither crash nor pass")
        let tiny = try schema(#"{"type":"integer","multipleOf":1e-8}"#)
        XCTAssertTrue(tiny.isValid(12_391_239_123))
        XCTAssertTrue(try schema(#"{"multipleOf":0.1}"#).isValid(0.3))
        XCTAssertFalse(try schema(#"{"multipleOf":3}"#).isValid(1e20))
        XCTAssertTrue(try schema(#"{"multipleOf":5}"#).isValid(1e20))
        XCTAssertTrue(try schema(#"{"multipleOf":1.5}"#).isValid(-4.5))
    }

    func testLengthCountsCodePoints() throws {
        let s = try schema(#"{"maxLength":2}"#)
        XCTAssertTrue(s.isValid("💩💩"), "two code points, four UTF-16 units")
        XCTAssertFalse(s.isValid("e\u{301}e\u{301}"), "four code points, two characters")
    }

    func testJSONEqualityForEnumConstAndUniqueItems() throws {
        XCTAssertTrue(try schema(#"{"enum":[1,"a"]}"#).isValid(1.0))
        XCTAssertFalse(try schema(#"{"const":false}"#).isValid(0))
        XCTAssertTrue(try schema(#"{"const":{"a":1,"b":[2]}}"#).isValid(["b": [2.0], "a": 1]))
        let unique = try schema(#"{"uniqueItems":true}"#)
        XCTAssertEqual(try messages(unique, #"[1, {"a":1}, 1.0, {"a":1.0}, false, 0]"#), [
            "/: item 2 repeats item 0; items must be unique",
            "/: item 3 repeats item 1; items must be unique",
        ])
    }

    func testPatternIsAnUnanchoredECMASearch() throws {
        let s = try schema(#"{"pattern":"^\\d+$"}"#)
        XCTAssertTrue(s.isValid("123"))
        XCTAssertFalse(s.isValid("123\n"), "$ is the end of input in ECMA-262")
        XCTAssertFalse(s.isValid("١٢٣"), "\\d is ASCII-only in ECMA-262")
        XCTAssertTrue(try schema(#"{"pattern":"b+"}"#).isValid("abbc"))
        XCTAssertTrue(try schema(#"{"pattern":"^[[a]+$"}"#).isValid("a[a"), "[ inside a class is a literal")
    }

    func testAnyOfBlamesTheClosestAlternative() throws {
        let step = try schema(#"""
            {"anyOf":[
              {"type":"object","required":["tool","arguments"],"properties":{"tool":{"const":"findPointsOfInterest"},
               "arguments":{"type":"object","required":["radiusKm"],"properties":{"radiusKm":{"type":"number","maximum":50}}}}},
              {"type":"object","required":["tool","arguments"],"properties":{"tool":{"const":"calendarFreeDays"},
               "arguments":{"type":"object"}}},
              {"type":"object","required":["final"]}]}
            """#)
        XCTAssertEqual(try messages(step, #"{"tool":"findPointsOfInterest","arguments":{"radiusKm":80}}"#),
                       ["/arguments/radiusKm: expected at most 50, got 80"])
        let none = try messages(step, #""hello""#)
        XCTAssertEqual(none, ["/: matches none of 3 alternatives: (1) expected object, got string; (2) expected object, got string; (3) expected object, got string"])
    }

    func testOneOfReportsSeveralMatches() throws {
        let s = try schema(#"{"oneOf":[{"type":"integer"},{"minimum":2}]}"#)
        XCTAssertEqual(try messages(s, "3"), ["/: matches 2 of the 2 alternatives (0, 1); expected exactly one"])
        XCTAssertEqual(try messages(s, "1.5"), ["/: expected at least 2, got 1.5"], "the alternative whose type fits is blamed")
        let strings = try schema(#"{"oneOf":[{"type":"string"},{"type":"null"}]}"#)
        XCTAssertEqual(try messages(strings, "7"), ["/: matches none of 2 alternatives: (1) expected string, got integer; (2) expected null, got integer"])
        XCTAssertEqual(try messages(s, "1"), [])
    }

    func testNotFalseAndTupleItems() throws {
        XCTAssertEqual(try messages(try schema(#"{"not":{"type":"null"}}"#), "null"),
                       ["/: null is not allowed here (it matches the schema at /not)"])
        XCTAssertEqual(try messages(try schema("false"), "1"), ["/: no value is allowed here, got 1"])
        let tuple = try schema(#"{"prefixItems":[{"type":"string"},{"type":"number"}],"items":false}"#)
        XCTAssertEqual(try messages(tuple, #"["a", 1, true]"#), ["/: expected at most 2 items, got 3"])
        XCTAssertEqual(try messages(tuple, #"[1]"#), ["/0: expected string, got integer"])
    }

    func testSchemaIsSharedAcrossThreads() async throws {
        let s = try schema(Self.itinerary)
        let bad = try GeneratedContent(json: #"{"title":"t","days":[]}"#)
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { s.validate(bad).count } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(counts, Array(repeating: 1, count: 8))
    }
}
