import TrailheadSchema
import XCTest

@testable import TrailheadModels

/// Free text bounded in words compiles to an exact grammar, and a schema's longest answer bounds
/// every answer the grammar accepts (so a token limit set from it never cuts one).
final class LongestAnswerTests: XCTestCase {
    let note = SchemaBuilder.text(words: 3...5, wordLength: 8)

    func testWordBoundedTextIsAnExactGrammar() throws {
        let grammar = try GBNFGrammar(schemaJSON: .object(note.json))
        XCTAssertTrue(grammar.isExact, "\(grammar.approximations)")
        let recognizer = try GBNFRecognizer(grammar.text)
        for text in [#""Easy loop at dawn.""#, #""Café au lait, then""#, #""Bryce's family-run loop""#, #""Mt. Fuji at dawn""#, #""Pappy & Harriet's""#] {
            XCTAssertTrue(recognizer.accepts(text), text)
        }
        for text in [#""Too short""#, #""one two three four five six""#, #""a  double space""#, #""waytoolongword a b""#, #"" lead a b""#] {
            XCTAssertFalse(recognizer.accepts(text), text)
        }
    }

    /// Words glued or cut as the 1.5B model wrote them, refused by the grammar itself: punctuation
    /// only at a word's end, one mark, single spaces; a sentence ends with ".", "!" or "?", once.
    func testTextIsWellFormedWordsAndASentenceEndsAtASentenceEnd() throws {
        let phrase = try GBNFRecognizer(GBNFGrammar(schemaJSON: .object(SchemaBuilder.text(words: 2...6).json)).text)
        let sentence = try GBNFGrammar(schemaJSON: .object(SchemaBuilder.sentence(words: 2...6).json))
        XCTAssertTrue(sentence.isExact, "\(sentence.approximations)")
        let sentences = try GBNFRecognizer(sentence.text)
        for glued in [#""a quiet,undeveloped beach""#, #""a Staycation,!""#, #""Canyon VisitorEducation,, stop""#, #""walk (2 km) here""#] {
            XCTAssertFalse(phrase.accepts(glued), glued)
            XCTAssertFalse(sentences.accepts(glued.replacingOccurrences(of: "\"", with: "") .isEmpty ? glued : String(glued.dropLast()) + ".\""), glued)
        }
        for cut in [#""Hike early to see the…""#, #""Hike early to see the""#, #""Hike early, then""#, #""Stop here!.""#, #""Easy hike. Keep going!""#] {
            XCTAssertFalse(sentences.accepts(cut), cut)
        }
        for whole in [#""Hike early to beat the heat.""#, #""Is the view worth it?""#, #""Bring water; the trail is dry.""#] {
            XCTAssertTrue(sentences.accepts(whole), whole)
        }
        XCTAssertTrue(phrase.accepts(#""Desert Days""#))
        XCTAssertTrue(phrase.accepts(#""Pappy & Harriet's Pioneertown Palace""#), "a place's name as the tool spells it")
        XCTAssertFalse(phrase.accepts(#""Pappy&Harriet's""#))
        // A capital after a small letter is two words glued, as the 1.5B model wrote them on the bench trips.
        for glued in [#""near theKyoto museum""#, #""aRestaurant nearby""#, #""ArchRockNature trail""#, #""the region'spast""#] {
            XCTAssertFalse(phrase.accepts(glued), glued)
        }
        for name in [#""McCarran and LeConte""#, #""the USA and 4WD roads""#, #""a 2nd day in Zürich""#, #""MacLeod's Ålesund""#, #""O'Neill and d'Arc""#, #""we'll see Hawai'i""#] {
            XCTAssertTrue(phrase.accepts(name), name)
        }
        XCTAssertFalse(sentences.accepts(#""Desert Days""#), "a title is not a sentence")
    }

    func testTheValidatorAgreesWithTheGrammarOnText() throws {
        let schema = try SchemaBuilder.sentence(words: 2...6).schema()
        XCTAssertTrue(schema.isValid("Hike early to beat the heat."))
        XCTAssertFalse(schema.isValid("a quiet,undeveloped beach."))
        XCTAssertFalse(schema.isValid("Hike early to see the"))
    }

    func testTheLongestAnswerBoundsEveryAcceptedAnswer() throws {
        let schema = try SchemaBuilder.object(properties: [
            "note": note, "kind": .string(enum: ["hike", "viewpoint"]), "days": .array(of: .integer(minimum: 1, maximum: 14), maxItems: 3),
            "ok": .boolean(),
        ]).schema()
        let longest = try XCTUnwrap(schema.longestAnswerBytes)
        // The longest word: a name prefix, 8 capitals, 8 small letters, twice, joined ("MacABCDEFGHabcdefgh'…").
        let word = "MacABCDEFGHabcdefgh-MacABCDEFGHabcdefgh"
        let biggest = #"{"note":"\#(word), \#(word); \#(word): \#(word)! \#(word)","kind":"viewpoint","days":[14,14,14],"ok":false}"#
        XCTAssertTrue(schema.isValid(try GeneratedContent(json: biggest)))
        XCTAssertGreaterThanOrEqual(longest, biggest.utf8.count)
        XCTAssertLessThan(longest, biggest.utf8.count * 2, "an accented letter takes 2 bytes: the bound stays close")
    }

    func testUnboundedSchemasHaveNoLongestAnswer() throws {
        XCTAssertNil(try GenerationSchema(json: ["type": "string"]).longestAnswerBytes)
        XCTAssertNil(try GenerationSchema(json: ["type": "array", "items": ["type": "boolean"]]).longestAnswerBytes)
        XCTAssertNil(try GenerationSchema(json: ["type": "string", "pattern": "^a+$"]).longestAnswerBytes)
        // The grammar lets an unanchored side run free: no bound may be promised for it.
        XCTAssertNil(try GenerationSchema(json: ["type": "string", "pattern": "^[0-9]{4}"]).longestAnswerBytes)
        XCTAssertEqual(try GenerationSchema(json: ["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"]).longestAnswerBytes, 9)
    }
}
