import Foundation
import XCTest

@testable import TrailheadSchema
import TrailheadSupport

/// The strict parser on large documents: every value read, in order, with the same answers as on
/// small ones. (Its speed — linear, next to JSONSerialization — is measured by
/// `trailhead-bench json`, not asserted here.)
final class LargeJSONTests: XCTestCase {
    func testAHundredThousandElementArrayReadsEveryElementInOrder() throws {
        // Given 100,000 numbers of every form: whole, negative, fractional, with exponents.
        let numbers: [Double] = (0..<100_000).map { i in
            switch i % 4 {
            case 0: Double(i)
            case 1: -Double(i)
            case 2: Double(i) + 0.25
            default: Double(i) * 1e10
            }
        }
        let text = "[" + numbers.map { GeneratedContent.number($0).jsonString }.joined(separator: ", ") + "]"

        // When it is parsed, then every element is there, in order, with its value.
        let parsed = try GeneratedContent(json: text)
        XCTAssertEqual(parsed.arrayValue?.count, 100_000)
        XCTAssertEqual(parsed.arrayValue?.compactMap(\.doubleValue), numbers)
    }

    func testA25000KeyObjectKeepsItsKeysInOrderWithTheirValues() throws {
        let keys = (0..<25_000).map { "key \($0) é" }
        let text = "{" + keys.enumerated().map { "\"\($1)\": [\($0), {\"n\": \"\($0)\"}]" }.joined(separator: ",\n") + "}"

        let object = try XCTUnwrap(try GeneratedContent(json: text).objectValue)

        XCTAssertEqual(object.keys, keys)
        XCTAssertEqual(object["key 12345 é"], [12345, ["n": "12345"]])
        XCTAssertEqual(object.values.count, 25_000)
    }

    func testDuplicateKeysAtScaleKeepTheLastValueInItsPosition() throws {
        // Given 4,000 keys, then the first half of them again with new values…
        let first = (0..<4_000).map { "\"k\($0)\":\($0)" }
        let again = (0..<2_000).map { "\"k\($0)\":\(-$0)" }
        let parsed = try XCTUnwrap(try GeneratedContent(json: "{" + (first + again).joined(separator: ",") + "}").objectValue)

        // …the result is what setting each member in turn gives (a repeated key moves to its last place).
        var expected = JSONObject()
        for i in 0..<4_000 { expected[("k\(i)")] = .number(Double(i)) }
        for i in 0..<2_000 {
            expected["k\(i)"] = nil
            expected["k\(i)"] = .number(Double(-i))
        }
        XCTAssertEqual(parsed.keys, expected.keys)
        XCTAssertEqual(parsed, expected)
        XCTAssertEqual(parsed["k1999"], -1999)
        XCTAssertEqual(parsed.keys.first, "k2000")
    }

    func testALargeRandomTreeRoundTripsCompactAndIndented() throws {
        // Given a tree of about 1 MB of nested arrays, objects, escaped strings and numbers…
        var random = SeededRandom(seed: 7)
        var members: [(String, GeneratedContent)] = []
        var size = 0
        while size < 1_000_000 {
            let value = randomValue(&random, depth: 0)
            size += value.jsonString.utf8.count
            members.append(("m\(members.count)", value))
        }
        let tree = GeneratedContent.object(JSONObject(members))

        // …its compact and its indented text both parse back to the same tree.
        XCTAssertEqual(try GeneratedContent(json: tree.jsonString), tree)
        XCTAssertEqual(try GeneratedContent(json: tree.prettyJSONString), tree)
        // From bytes, from a slice of them, and from a collection without contiguous storage.
        let bytes = Array(tree.jsonString.utf8)
        XCTAssertEqual(try GeneratedContent(json: bytes), tree)
        XCTAssertEqual(try GeneratedContent(json: (bytes + [0x20])[0..<bytes.count]), tree)
        XCTAssertEqual(try GeneratedContent(json: bytes.lazy.map { $0 }), tree)
    }

    func testAMegabyteStringWithEscapesDecodesExactly() throws {
        let piece = "plain text, a \"quote\", a tab\t, a café, a cactus 🌵, a backslash \\ and a newline\n"
        let value = String(repeating: piece, count: 1_000_000 / piece.utf8.count)
        let text = GeneratedContent.string(value).jsonString
        XCTAssertEqual(try GeneratedContent(json: text), .string(value))
        // \u escapes, paired surrogates included.
        XCTAssertEqual(try GeneratedContent(json: #""\u00e9\ud83c\udf35\u0041""#), "é🌵A")
    }

    func testWholeNumbersReadTheWayTheirTextReads() throws {
        for text in ["0", "-0", "7", "-42", "999999999999999999", "-999999999999999999", "9007199254740993",
                     "1000000000000000000", "123456789012345678901", "1.5", "-2.5e-3", "1E2"] {
            let parsed = try XCTUnwrap(try GeneratedContent(json: text).doubleValue, text)
            let expected = try XCTUnwrap(Double(text))
            XCTAssertEqual(parsed, expected, text)
            XCTAssertEqual(parsed.sign, expected.sign, text)
        }
    }

    func testAnErrorDeepInALargeDocumentNamesItsLine() {
        let lines = (0..<50_000).map { "{\"n\": \($0)}," } + ["{\"n\": }"]
        let text = "[\n" + lines.joined(separator: "\n") + "\n]"
        XCTAssertThrowsError(try GeneratedContent(json: text)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.line, 50_002)
            XCTAssertEqual((error as? JSONSyntaxError)?.message, "unexpected character '}', expected a value")
        }
    }

    private func randomValue(_ random: inout SeededRandom, depth: Int) -> GeneratedContent {
        let words = ["trail", "café", "\"quoted\"", "back\\slash", "tab\there", "line\nbreak", "🌵", "\u{1}", ""]
        switch random.next(depth < 4 ? 8 : 5) {
        case 0: return .null
        case 1: return .bool(random.next(2) == 0)
        case 2: return .number(Double(random.next(2_000_000)) - 1_000_000)
        case 3: return .number(Double(random.next(1_000_000)) / 1024)
        case 4: return .string((0..<random.next(6)).map { _ in words[random.next(words.count)] }.joined(separator: " "))
        case 5, 6: return .array((0..<random.next(6)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var members = JSONObject()
            for _ in 0..<random.next(6) { members["k\(random.next(50))"] = randomValue(&random, depth: depth + 1) }
            return .object(members)
        }
    }
}
