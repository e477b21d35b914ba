import XCTest

@testable import TrailheadSchema

/// The compact schema form for prompts.
final class PromptRenderingTests: XCTestCase {
    func testItinerarySchema() {
        XCTAssertEqual(Itinerary.generationSchema.promptDescription, #"""
            {title: string 1 to 60 chars /* A short name for the trip */, days: [{date: string matching /^\d{4}-\d{2}-\d{2}$/ /* YYYY-MM-DD */, \#
            activities: [{name: string /* The place, as the tool named it */, category: ("hike" /* a trail walk */ | "viewpoint" /* a place to look out */ | "museum" /* indoors */), \#
            hours?: number >= 0.5, <= 12, multiple of 0.5}] 1 to 3 items}] exactly 3 items} /* A trip plan */
            """#)
    }

    func testRecursionAndSharedDefinitionsAreNamed() throws {
        let schema = try GenerationSchema(json: GeneratedContent(json: ##"""
            {"$defs":{"node":{"type":"object","required":["value"],"properties":{"value":{"type":"integer","minimum":0},
              "children":{"type":"array","items":{"$ref":"#/$defs/node"}}}},
              "place":{"type":"string","enum":["Keys View","Hidden Valley"]}},
             "type":"object","properties":{"tree":{"$ref":"#/$defs/node"},"from":{"$ref":"#/$defs/place"},
              "to":{"$ref":"#/$defs/place"},"tags":{"type":"array","items":{"type":["string","null"]},"uniqueItems":true},
              "pair":{"prefixItems":[{"type":"number"},{"const":"km"}],"items":false}}}
            """##))
        XCTAssertEqual(schema.promptDescription, """
            {tree?: node, from?: place, to?: place, tags?: [string | null] unique, pair?: [number, "km"]}
            where node := {value: integer >= 0, children?: [node]}
            and place := "Keys View" | "Hidden Valley"
            """)
        let root = try GenerationSchema(json: GeneratedContent(json: ##"{"type":"array","items":{"anyOf":[{"type":"integer"},{"$ref":"#"}]}}"##))
        XCTAssertEqual(root.promptDescription, "Root := [(integer | Root)]")
    }

    /// The well-formed-text patterns `SchemaBuilder` writes are said in words, in prompts and in
    /// error messages; any other pattern is shown as written.
    func testTextPatternsAreSaidInWords() throws {
        let schema = try SchemaBuilder.object(properties: [
            "query": .text(words: 1...5), "note": .sentence(words: 4...12), "word": .text(words: 1...1, wordLength: 9),
            "code": .string(pattern: "^[A-Z]{3}$"),
        ]).schema()
        XCTAssertEqual(
            schema.promptDescription,
            "{query: string: text of 1 to 5 words, note: string: one sentence of 4 to 12 words, word: string: text of 1 word, code: string matching /^[A-Z]{3}$/}")
        let violations = schema.validate(["query": "the region'spast", "note": "Short.", "word": "ok", "code": "ABC"])
        XCTAssertEqual(violations.count, 2, "\(violations)")
        XCTAssertTrue(violations.allSatisfy { $0.message.hasPrefix("expected well-formed ") && !$0.message.contains("^(") }, "\(violations)")
        XCTAssertTrue(schema.validate(["query": "a b", "note": "One two three four.", "word": "ok", "code": "abc"])[0].message.contains("/^[A-Z]{3}$/"))
        // A pattern that only looks like one is shown as written.
        XCTAssertNil(TextShape(pattern: "^((a) ){0,4}b$"))
    }
}
