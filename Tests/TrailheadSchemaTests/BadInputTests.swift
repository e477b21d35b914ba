import Foundation
import XCTest

@testable import TrailheadSchema

/// Hostile or broken input gets a clear error, never a crash or a stack overflow.
final class BadInputTests: XCTestCase {
    func syntaxError(_ text: String) -> JSONSyntaxError? {
        do { _ = try GeneratedContent(json: text) } catch { return error }
        return nil
    }

    func testMalformedJSONNamesWhatAndWhere() {
        XCTAssertEqual(syntaxError(#"{"a": 1,}"#)?.description, "line 1, column 9: expected a string key in object")
        XCTAssertEqual(syntaxError("[1, 2\n, 3")?.description, "line 2, column 4: expected ',' or ']' in array")
        XCTAssertEqual(syntaxError(#"{"a": tru}"#)?.message, "invalid literal, expected 'true'")
        XCTAssertEqual(syntaxError(#""abc"#)?.message, "unterminated string")
        XCTAssertEqual(syntaxError("01")?.message, "unexpected content after the JSON value")
        XCTAssertEqual(syntaxError("")?.message, "unexpected end of input, expected a value")
    }

    func testTenThousandLevelsAreRefusedWithoutOverflow() {
        for (open, close) in [("[", "]"), (#"{"a":"#, "}")] {
            let text = String(repeating: open, count: 10_000) + "1" + String(repeating: close, count: 10_000)
            XCTAssertEqual(syntaxError(text)?.message, "nesting deeper than \(GeneratedContent.maximumDepth) levels")
        }
    }

    func testNumbersBeyondDoubleAreRefused() {
        XCTAssertEqual(syntaxError("[1e400]")?.message, "number 1e400 is beyond the range of a double")
        XCTAssertEqual(syntaxError("-1e400")?.message, "number -1e400 is beyond the range of a double")
        XCTAssertEqual(try GeneratedContent(json: "1e-400"), 0, "underflow rounds to zero, as JSON parsers do")
    }

    func testInvalidUTF8IsRefused() {
        func error(_ bytes: [UInt8]) -> String? {
            do { _ = try GeneratedContent(json: bytes) } catch { return error.message }
            return nil
        }
        XCTAssertEqual(error([0x22, 0xFF, 0x22]), "invalid UTF-8 byte 0xFF")
        XCTAssertEqual(error([0x22, 0xC0, 0x80, 0x22]), "invalid UTF-8 byte 0xC0", "overlong encoding")
        XCTAssertEqual(error([0x22, 0xED, 0xA0, 0x80, 0x22]), "invalid UTF-8 sequence starting with byte 0xED", "encoded surrogate")
        XCTAssertEqual(error([0x22, 0xE2, 0x82, 0x22]), "invalid UTF-8 sequence starting with byte 0xE2", "truncated sequence")
    }

    // MARK: - 500 levels: everything that walks the tree recursively still works

    static let depth = 500

    /// `[[[ … "leaf" … ]]]`, `depth` arrays deep.
    static var deepDocument: GeneratedContent {
        var value: GeneratedContent = "leaf"
        for _ in 0..<depth { value = [value] }
        return value
    }

    struct Nest: Codable, Equatable {
        var inner: [Nest]
    }

    static func exerciseDeepDocument() throws {
        let text = Self.deepDocument.jsonString
        let parsed = try GeneratedContent(json: text)
        XCTAssertEqual(parsed, Self.deepDocument)
        XCTAssertEqual(try GeneratedContent(json: parsed.prettyJSONString), parsed)

        // A recursive schema over the whole depth, with one violation at the bottom.
        let schema = try GenerationSchema(json: GeneratedContent(json: ##"{"anyOf":[{"type":"array","maxItems":1,"items":{"$ref":"#"}},{"type":"integer"}]}"##))
        let violations = schema.validate(parsed)
        XCTAssertEqual(violations.count, 1)
        XCTAssertEqual(violations.first?.instancePointer, String(repeating: "/0", count: Self.depth))
        XCTAssertEqual(violations.first?.message, "matches none of 2 alternatives: (1) expected array, got string; (2) expected integer, got string")
        XCTAssertFalse(schema.isValid(parsed))

        // A schema that is itself 500 levels deep loads, validates and renders.
        var deepSchema: GeneratedContent = ["type": "string"]
        for _ in 0..<(Self.depth - 1) { deepSchema = ["items": deepSchema] }
        let nested = try GenerationSchema(json: deepSchema)
        XCTAssertTrue(nested.isValid(parsed.arrayValue![0]))
        XCTAssertEqual(nested.promptDescription, String(repeating: "[", count: Self.depth - 1) + "string" + String(repeating: "]", count: Self.depth - 1))

        // Codable both ways.
        var nest = Nest(inner: [])  // each level is an object and an array
        for _ in 0..<(Self.depth / 2 - 1) { nest = Nest(inner: [nest]) }
        let content = try GeneratedContent(encoding: nest)
        XCTAssertEqual(try content.decode(as: Nest.self), nest)
        XCTAssertEqual(try GeneratedContent(json: content.jsonString), content)
    }

    /// 5,000 `$defs` each referring to the next: loads (the chain is wide, not deep, in JSON),
    /// and validation stops with a violation rather than running out of stack.
    static func exerciseLongReferenceChain() throws {
        var defs = JSONObject()
        for i in 0..<5_000 { defs["d\(i)"] = ["$ref": .string("#/$defs/d\(i + 1)")] }
        defs["d5000"] = ["type": "integer"]
        let schema = try GenerationSchema(json: ["$defs": .object(defs), "$ref": "#/$defs/d0"])
        let violations = schema.validate(1)
        XCTAssertEqual(violations.count, 1)
        XCTAssertTrue(violations.first?.message.hasPrefix("too deeply nested to validate") == true, "\(violations)")
        XCTAssertFalse(schema.isValid(1))
        let prompt = schema.promptDescription
        XCTAssertTrue(prompt.hasPrefix("d63\nwhere d63 := d127\nand d127 := "), "<\(prompt.prefix(80))>")
        XCTAssertTrue(prompt.hasSuffix("and d4991 := integer"), "<\(prompt.suffix(80))>")

        // The same chain through `not`, whose checks run in nested quick validators.
        var negations = JSONObject()
        for i in 0..<5_000 { negations["d\(i)"] = ["not": ["not": ["$ref": .string("#/$defs/d\(i + 1)")]]] }
        negations["d5000"] = ["type": "integer"]
        let negated = try GenerationSchema(json: ["$defs": .object(negations), "$ref": "#/$defs/d0"])
        XCTAssertFalse(negated.isValid(1))
        XCTAssertEqual(negated.validate(1).count, 1)
    }

    func testLongReferenceChainOnTheMainThread() throws {
        try Self.exerciseLongReferenceChain()
    }

    func testLongReferenceChainInATask() async throws {
        try await Task.detached { try BadInputTests.exerciseLongReferenceChain() }.value
    }

    func testFiveHundredLevelsOnTheMainThread() throws {
        try Self.exerciseDeepDocument()
    }

    func testFiveHundredLevelsInATask() async throws {
        // Concurrency's threads may have smaller stacks than the main thread.
        try await Task.detached { try BadInputTests.exerciseDeepDocument() }.value
    }
}
