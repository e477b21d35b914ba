import TrailheadSchema
import XCTest

@testable import TrailheadModels

/// Given a schema, the compiled grammar accepts exactly the compact documents listed.
final class GBNFGrammarTests: XCTestCase {
    private func grammar(_ schema: String, file: StaticString = #filePath, line: UInt = #line) throws -> (GBNFGrammar, GBNFRecognizer) {
        let compiled = try GBNFGrammar(schemaJSON: try GeneratedContent(json: schema))
        return (compiled, try GBNFRecognizer(compiled.text))
    }

    private func check(_ schema: String, accepts: [String], rejects: [String], exact: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws {
        let (compiled, recognizer) = try grammar(schema)
        XCTAssertEqual(compiled.isExact, exact, "approximations: \(compiled.approximations)", file: file, line: line)
        for text in accepts { XCTAssertTrue(recognizer.accepts(text), "should accept \(text)\n\(compiled.text)", file: file, line: line) }
        for text in rejects { XCTAssertFalse(recognizer.accepts(text), "should reject \(text)\n\(compiled.text)", file: file, line: line) }
    }

    func testPrimitivesAreWhitespaceFree() throws {
        try check(#"{"type":"string"}"#, accepts: [#""""#, #""a b""#, #""\"\\\n\u00e9""#, "\"é\""], rejects: [#" "a""#, "\"a", "1"])
        try check(#"{"type":"integer"}"#, accepts: ["0", "-5", "120"], rejects: ["01", "1.5", " 1", "-"])
        try check(#"{"type":"number"}"#, accepts: ["0", "-0.5", "1e-05", "1.5e+20"], rejects: ["1.", ".5", "+1"])
        try check(#"{"type":["boolean","null"]}"#, accepts: ["true", "false", "null"], rejects: ["0", "\"true\""])
        try check("true", accepts: [#"{"a":[1,{"b":null}]}"#, "[]", "{}"], rejects: [#"{ "a":1}"#, "[1, 2]"])
    }

    func testObjectsKeepDeclaredOrderAndOptionalMembers() throws {
        let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"},"c":{"type":"boolean"}},"required":["b"],"additionalProperties":false}"#
        try check(
            schema, accepts: [#"{"b":"x"}"#, #"{"a":1,"b":"x"}"#, #"{"b":"x","c":true}"#, #"{"a":1,"b":"x","c":false}"#],
            rejects: ["{}", #"{"a":1}"#, #"{"b":"x","a":1}"#, #"{"b":"x","d":1}"#, #"{"b":"x",}"#, #"{,"b":"x"}"#])
    }

    func testAllOptionalObject() throws {
        let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"additionalProperties":false}"#
        try check(schema, accepts: ["{}", #"{"a":1}"#, #"{"b":2}"#, #"{"a":1,"b":2}"#], rejects: [#"{"b":2,"a":1}"#, #"{,}"#, #"{"a":1,}"#])
    }

    func testAdditionalPropertiesSchema() throws {
        try check(
            #"{"type":"object","additionalProperties":{"type":"integer"}}"#, accepts: ["{}", #"{"x":1,"y":2}"#],
            rejects: [#"{"x":"1"}"#])
        // An additional member never takes a declared name (which has its own schema).
        try check(
            #"{"type":"object","properties":{"id":{"type":"integer"},"idea":{"type":"integer"}},"additionalProperties":{"type":"string"}}"#,
            accepts: [#"{"id":1,"x":"a"}"#, #"{"i":"a"}"#, #"{"idx":"a"}"#, #"{"ide":"a"}"#, #"{"id":1,"idea":2,"ideas":"a"}"#, #"{"\u0041":"a"}"#],
            rejects: [#"{"id":"a"}"#, #"{"id":1,"id":"a"}"#, #"{"idea":"a"}"#, #"{"id":1,"x":2}"#])
    }

    func testArraysWithPrefixItemsAndBounds() throws {
        try check(#"{"type":"array","items":{"type":"integer"},"minItems":2,"maxItems":3}"#, accepts: ["[1,2]", "[1,2,3]"], rejects: ["[]", "[1]", "[1,2,3,4]", "[1,\"a\"]"])
        try check(
            #"{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}"#,
            accepts: ["[]", #"["a"]"#, #"["a",1]"#], rejects: [#"["a",1,2]"#, "[1]"])
        try check(
            #"{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"boolean"},"minItems":2}"#,
            accepts: [#"["a",true]"#, #"["a",true,false]"#], rejects: [#"["a"]"#, "[true,true]"])
        try check(#"{"type":"array","maxItems":1}"#, accepts: ["[]", "[{}]"], rejects: ["[1,2]"])
    }

    func testEnumConstAndAnyOf() throws {
        try check(#"{"enum":["a","b",3,null,{"x":[1]}]}"#, accepts: [#""a""#, "3", "null", #"{"x":[1]}"#], rejects: [#""c""#, "4"])
        try check(#"{"const":"only"}"#, accepts: [#""only""#], rejects: [#""other""#])
        try check(#"{"anyOf":[{"type":"integer"},{"type":"string","maxLength":1}]}"#, accepts: ["1", #""a""#], rejects: [#""ab""#, "true"])
        try check(#"{"type":"string","enum":["a",1]}"#, accepts: [#""a""#], rejects: ["1"])
    }

    func testStringLengthsAndPatterns() throws {
        try check(#"{"type":"string","minLength":2,"maxLength":3}"#, accepts: [#""ab""#, #""a\nb""#, "\"éé\""], rejects: [#""a""#, #""abcd""#])
        try check(#"{"type":"string","pattern":"^\\d{4}-\\d{2}-\\d{2}$"}"#, accepts: [#""2024-05-01""#], rejects: [#""2024-5-01""#, #""x2024-05-01""#])
        try check(#"{"type":"string","pattern":"^(am|pm)$"}"#, accepts: [#""am""#, #""pm""#], rejects: [#""a""#, #""amx""#])
        try check(#"{"type":"string","pattern":"[A-Z]{2}"}"#, accepts: [#""xAB""#, #""AB""#], rejects: [#""ab""#])
        try check(#"{"type":"string","pattern":"^a\"b$"}"#, accepts: [#""a\"b""#], rejects: [#""ab""#])
    }

    func testIntegerRanges() throws {
        try check(#"{"type":"integer","minimum":-12,"maximum":130}"#, accepts: ["-12", "-1", "0", "9", "99", "130"], rejects: ["-13", "131", "200", "-0"])
        try check(#"{"type":"integer","minimum":7}"#, accepts: ["7", "10", "123456"], rejects: ["6", "0", "-7"])
        try check(#"{"type":"integer","exclusiveMaximum":0}"#, accepts: ["-1", "-100"], rejects: ["0", "1"])
        try check(#"{"type":"integer","minimum":1,"maximum":31}"#, accepts: (1...31).map(String.init), rejects: ["0", "32", "40"])
        let (_, recognizer) = try grammar(#"{"type":"integer","minimum":-250,"maximum":1234}"#)
        for n in -300...1300 {
            XCTAssertEqual(recognizer.accepts(String(n)), (-250...1234).contains(n), "\(n)")
        }
    }

    func testReferencesAndRecursion() throws {
        let schema = ##"{"$defs":{"node":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["v"],"additionalProperties":false}},"$ref":"#/$defs/node"}"##
        try check(schema, accepts: [#"{"v":1}"#, #"{"v":1,"kids":[{"v":2,"kids":[]},{"v":3}]}"#], rejects: [#"{"v":1,"kids":[{}]}"#])
    }

    func testAllOfMerges() throws {
        try check(
            #"{"allOf":[{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]},{"properties":{"b":{"type":"integer"}},"additionalProperties":false}]}"#,
            accepts: [#"{"a":1}"#, #"{"a":1,"b":2}"#], rejects: [#"{"b":2}"#])
    }

    func testApproximationsAreListed() throws {
        let compiled = try GBNFGrammar(schemaJSON: try GeneratedContent(json: #"{"oneOf":[{"type":"integer"},{"type":"number","minimum":0}],"not":{"const":1}}"#))
        XCTAssertFalse(compiled.isExact)
        XCTAssertTrue(compiled.approximations.contains { $0.hasPrefix("/oneOf") }, "\(compiled.approximations)")
        XCTAssertTrue(compiled.approximations.contains { $0.hasPrefix("/not") }, "\(compiled.approximations)")
    }

    func testUnsatisfiableSchemaIsAClearError() throws {
        XCTAssertThrowsError(try GBNFGrammar(schemaJSON: false)) { error in
            XCTAssertTrue("\(error)".contains("accepts no value"), "\(error)")
        }
        XCTAssertThrowsError(try GBNFGrammar(schemaJSON: try GeneratedContent(json: ##"{"$ref":"#/$defs/missing"}"##))) { error in
            XCTAssertEqual((error as? GrammarError)?.pointer, "/$ref")
        }
    }
}
