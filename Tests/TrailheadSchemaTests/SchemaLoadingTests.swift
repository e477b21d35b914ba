import XCTest

@testable import TrailheadSchema

/// Loading refuses what is outside the subset or malformed, naming the keyword and pointer.
final class SchemaLoadingTests: XCTestCase {
    func loadError(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> SchemaError {
        let document = try GeneratedContent(json: json)
        do {
            _ = try GenerationSchema(json: document)
        } catch {
            return error
        }
        XCTFail("expected \(json) to be refused", file: file, line: line)
        throw CocoaError(.featureUnsupported)
    }

    func testUnsupportedKeywordIsNamedWithItsPointer() throws {
        let error = try loadError(#"{"properties":{"a":{"patternProperties":{}}}}"#)
        XCTAssertEqual(error.keyword, "patternProperties")
        XCTAssertEqual(error.pointer, "/properties/a/patternProperties")
        XCTAssertTrue(error.message.contains("unsupported keyword \"patternProperties\""), error.message)
    }

    func testUnknownKeywordsLoadAsAnnotationsWhenAskedAndJSONSchemasOwnAreStillRefused() throws {
        // BFCL's function documents mark members `optional`; a member may be named like a keyword.
        let document = try GeneratedContent(json: #"""
            {"type":"object","x-source":"bfcl","properties":{"optional":{"type":"string","optional":true},
             "tags":{"type":"array","items":{"type":"string","format-hint":"lower case"}}},"required":["optional"]}
            """#)
        XCTAssertEqual(try loadError(document.jsonString).keyword, "x-source", "refused by default: a manifest's typo is an error")
        let schema = try GenerationSchema(json: document, unknownKeywords: .annotations)
        XCTAssertEqual(schema.json["x-source"], nil)
        XCTAssertEqual(schema.json["properties"]?["optional"], ["type": "string"], "the member named optional stays; its annotation goes")
        XCTAssertEqual(schema.json["properties"]?["tags"]?["items"], ["type": "string"])
        XCTAssertTrue(schema.isValid(["optional": "a", "tags": ["b"]]))
        XCTAssertFalse(schema.isValid(["tags": ["b"]]), "the constraints stay")
        XCTAssertThrowsError(try GenerationSchema(json: try GeneratedContent(json: #"{"properties":{"a":{"if":true}}}"#), unknownKeywords: .annotations)) {
            XCTAssertEqual(($0 as? SchemaError)?.keyword, "if", "JSON Schema's own keyword outside the subset would drop a constraint: refused")
        }
    }

    func testPointerEscapesTildeAndSlash() throws {
        let error = try loadError(#"{"properties":{"a/b~c":{"if":true}}}"#)
        XCTAssertEqual(error.keyword, "if")
        XCTAssertEqual(error.pointer, "/properties/a~1b~0c/if")
        XCTAssertEqual(error.description, "/properties/a~1b~0c/if: unsupported keyword \"if\" (not in Trailhead's JSON Schema subset)")
    }

    func testMalformedKeywordValues() throws {
        let cases: [(String, String, String, String)] = [
            (#"{"minItems":-1}"#, "minItems", "/minItems", "non-negative integer"),
            (#"{"maxLength":1.5}"#, "maxLength", "/maxLength", "non-negative integer"),
            (#"{"type":"foo"}"#, "type", "/type", "must name one of"),
            (#"{"type":["string","string"]}"#, "type", "/type", "twice"),
            (#"{"required":"a"}"#, "required", "/required", "must be an array"),
            (#"{"items":{"multipleOf":0}}"#, "multipleOf", "/items/multipleOf", "greater than 0"),
            (#"{"anyOf":[]}"#, "anyOf", "/anyOf", "non-empty"),
            (#"{"items":[{"type":"string"}]}"#, "items", "/items", "prefixItems"),
            (#"{"minItems":3,"maxItems":2}"#, "maxItems", "/maxItems", "less than minItems"),
            (#"{"$schema":"http://json-schema.org/draft-07/schema#"}"#, "$schema", "/$schema", "only draft 2020-12"),
        ]
        for (json, keyword, pointer, fragment) in cases {
            let error = try loadError(json)
            XCTAssertEqual(error.keyword, keyword, json)
            XCTAssertEqual(error.pointer, pointer, json)
            XCTAssertTrue(error.message.contains(fragment), "\(json): \(error.message)")
        }
    }

    func testNonSchemaValueIsRefused() throws {
        let error = try loadError(#"{"properties":{"a":3}}"#)
        XCTAssertNil(error.keyword)
        XCTAssertEqual(error.pointer, "/properties/a")
        XCTAssertEqual(error.message, "a schema must be an object or a boolean, got integer")
    }

    func testInvalidRegexIsNamed() throws {
        let error = try loadError(#"{"properties":{"zip":{"pattern":"[0-9"}}}"#)
        XCTAssertEqual(error.keyword, "pattern")
        XCTAssertEqual(error.pointer, "/properties/zip/pattern")
        XCTAssertEqual(error.message, "pattern \"[0-9\" is not a valid regular expression")
    }

    func testRefMustResolveAndBeLocal() throws {
        let missing = try loadError(##"{"$ref":"#/$defs/nope"}"##)
        XCTAssertEqual(missing.keyword, "$ref")
        XCTAssertEqual(missing.pointer, "/$ref")
        XCTAssertTrue(missing.message.contains("does not resolve"), missing.message)

        let remote = try loadError(#"{"properties":{"a":{"$ref":"https://example.com/a.json"}}}"#)
        XCTAssertEqual(remote.pointer, "/properties/a/$ref")
        XCTAssertTrue(remote.message.contains("only local references"), remote.message)
    }

    func testRefCycleThatNeverConsumesInputIsRefused() throws {
        let error = try loadError(##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##)
        XCTAssertEqual(error.keyword, "$ref")
        XCTAssertTrue(error.message.contains("/$defs/a -> /$defs/b -> /$defs/a"), error.message)

        let selfLoop = try loadError(##"{"anyOf":[{"$ref":"#"},{"type":"string"}]}"##)
        XCTAssertEqual(selfLoop.pointer, "/anyOf/0/$ref")
    }

    func testRecursionThroughPropertiesIsAccepted() throws {
        let schema = try GenerationSchema(json: GeneratedContent(json: #"""
            {"$defs":{"node":{"type":"object","properties":{"value":{"type":"integer"},
             "children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["value"]}},
             "$ref":"#/$defs/node"}
            """#))
        XCTAssertTrue(schema.isValid(["value": 1, "children": [["value": 2, "children": []]]]))
        XCTAssertEqual(schema.validate(["value": 1, "children": [["value": "x"]]]).map(\.description),
                       ["/children/0/value: expected integer, got string"])
    }

    func testAnnotationsAndCommentsAreAccepted() throws {
        let schema = try GenerationSchema(json: GeneratedContent(json: #"""
            {"$schema":"https://json-schema.org/draft/2020-12/schema","$comment":"why","title":"T",
             "description":"d","default":{},"examples":[{}],"type":"object",
             "properties":{"d":{"type":"string","format":"date"}}}
            """#))
        XCTAssertTrue(schema.isValid(["d": "not a date"]), "format is an annotation only")
    }
}
