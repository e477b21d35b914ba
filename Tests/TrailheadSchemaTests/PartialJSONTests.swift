import TrailheadSchema
import XCTest

/// The streaming parser's rules one by one, and its agreement with the strict parser.
final class PartialJSONTests: XCTestCase {
    /// Feeds `text` and returns the snapshot.
    private func snapshot(_ text: String) throws -> GeneratedContent? {
        var parser = PartialJSONParser()
        try parser.append(text)
        return parser.snapshot()
    }

    // MARK: - What a snapshot shows

    func testNothingUntilAValueBegins() throws {
        XCTAssertNil(try snapshot(""))
        XCTAssertNil(try snapshot("  \n"))
        XCTAssertNil(try snapshot("12"), "a top-level number is complete only at finish()")
        XCTAssertNil(try snapshot("tru"))
    }

    func testStringsCutMidWayShowTheirPrefix() throws {
        XCTAssertEqual(try snapshot(#""Josh"#), "Josh")
        XCTAssertEqual(try snapshot(#"{"title": "Desert Li"#), ["title": "Desert Li"])
        XCTAssertEqual(try snapshot(#"{"title": ""#), ["title": ""])
        XCTAssertEqual(try snapshot(#"["a", "b"#), ["a", "b"])
    }

    func testKeysCutMidWayOrWithoutValueAreAbsent() throws {
        XCTAssertEqual(try snapshot(#"{"a": "x", "tit"#), ["a": "x"])
        XCTAssertEqual(try snapshot(#"{"a": "x", "title""#), ["a": "x"])
        XCTAssertEqual(try snapshot(#"{"a": "x", "title": "#), ["a": "x"])
    }

    func testNumbersOnlyOnceComplete() throws {
        XCTAssertEqual(try snapshot(#"{"n": 12"#), [:])
        XCTAssertEqual(try snapshot(#"{"n": 12 "#), ["n": 12])
        XCTAssertEqual(try snapshot(#"{"n": 1.5e"#), [:])
        XCTAssertEqual(try snapshot("[1, 2"), [1])
        XCTAssertEqual(try snapshot("[1, 2]"), [1, 2])
        XCTAssertEqual(try snapshot("[-"), [])
    }

    func testLiteralsOnceTheirLastLetterIsRead() throws {
        XCTAssertEqual(try snapshot("[tru"), [])
        XCTAssertEqual(try snapshot("[true"), [true])
        XCTAssertEqual(try snapshot("[false, nul"), [false])
        XCTAssertEqual(try snapshot("[false, null"), [false, nil])
    }

    func testPartialContainersAreShownWithTheirFinishedContent() throws {
        XCTAssertEqual(try snapshot(#"{"days": [{"date": "2026-03-13", "activities": [{"time": "08"#),
            ["days": [["date": "2026-03-13", "activities": [["time": "08"]]]]])
        XCTAssertEqual(try snapshot(#"{"days": ["#), ["days": []])
        XCTAssertEqual(try snapshot("[[[{"), [[[[:]]]])
    }

    func testEscapesAndUTF8CutMidWayAreLeftOutUntilComplete() throws {
        let text = #"{"s": "caf\u00e9 é🏜️ \ud83c\udfd4 \"q\" \\ \/ \n."}"#
        let final = "caf\u{e9} é🏜️ \u{1F3D4} \"q\" \\ / \n."
        let bytes = Array(text.utf8)
        var parser = PartialJSONParser()
        var previous = ""
        for (i, byte) in bytes.enumerated() {
            try parser.append(bytes: [byte])
            guard let shown = parser.snapshot()?["s"]?.stringValue else { continue }
            XCTAssertTrue(final.unicodeScalars.starts(with: shown.unicodeScalars), "after \(i + 1) bytes: \(shown.debugDescription)")
            XCTAssertTrue(shown.unicodeScalars.starts(with: previous.unicodeScalars), "only grows")
            previous = shown
        }
        XCTAssertEqual(try parser.finish(), ["s": .string(final)])
        XCTAssertEqual(try snapshot(#"{"s": "caf\u00"#), ["s": "caf"])
        XCTAssertEqual(try snapshot(#"{"s": "caf\u00e9"#), ["s": "café"])
        XCTAssertEqual(try snapshot(#"{"s": "x\ud83c\udf"#), ["s": "x"], "a high surrogate waits for its pair")
        XCTAssertEqual(try snapshot(#"{"s": "x\"#), ["s": "x"])
    }

    func testAUTF8SequenceSplitAcrossChunks() throws {
        let bytes = Array(#"["é🏜"]"#.utf8)
        for split in 0...bytes.count {
            var parser = PartialJSONParser()
            try parser.append(bytes: bytes[..<split])
            let shown = parser.snapshot()?.arrayValue?.first?.stringValue ?? ""
            XCTAssertTrue("é🏜".hasPrefix(shown), "split at \(split): \(shown.debugDescription)")
            try parser.append(bytes: bytes[split...])
            XCTAssertEqual(try parser.finish(), ["é🏜"])
        }
    }

    func testSnapshotsKeptAcrossAppendsDoNotChange() throws {
        var parser = PartialJSONParser()
        try parser.append(#"{"a": ["x", "y"#)
        let early = parser.snapshot()
        let again = parser.snapshot()
        try parser.append(#"z", {"b": "c"#)
        let later = parser.snapshot()
        try parser.append(#""}], "d": 1}"#)
        XCTAssertEqual(early, ["a": ["x", "y"]])
        XCTAssertEqual(again, early)
        XCTAssertEqual(later, ["a": ["x", "yz", ["b": "c"]]])
        XCTAssertEqual(try parser.finish(), ["a": ["x", "yz", ["b": "c"]], "d": 1])
    }

    func testFinishedDocumentIsReturnedBySnapshotAndFinish() throws {
        var parser = PartialJSONParser()
        try parser.append(#"{"a": 1}  "#)
        XCTAssertTrue(parser.isComplete)
        XCTAssertEqual(parser.snapshot(), ["a": 1])
        XCTAssertEqual(try parser.finish(), ["a": 1])
        XCTAssertEqual(try parser.finish(), ["a": 1], "finish() may be asked again")
        XCTAssertThrowsError(try parser.append("1"))
    }

    // MARK: - Agreement with the strict parser

    func testValidDocumentsEqualTheStrictParsersAtAnyChunking() throws {
        let documents = [
            "0", "-0", " 42 ", "1.5e3", "-12.5E-2", "1E+2", "true", "null", #""""#, "[]", "{}",
            "[[],{},[{}],[[]]]", #"{"a":1,"b":2,"a":3}"#, #"{"a":{"a":{"a":[1,{"a":"a"}]}}}"#,
            #""caf\u00e9 \ud83c\udfd4 \ud800x \ud800\u0041 \udc00 \ud800\n \"q\" \\ \/ \b\f\n\r\t""#,
            "\n\t [ 1 ,\r\n 2 ] \n", #"{"n": -0.0, "big": 1.7976931348623157e308, "small": 5e-324}"#,
        ]
        for text in documents {
            let strict = try GeneratedContent(json: text)
            for size in [1, 2, 3, 7, 1000] {
                let bytes = Array(text.utf8)
                var parser = PartialJSONParser()
                for start in stride(from: 0, to: bytes.count, by: size) {
                    try parser.append(bytes: bytes[start..<min(start + size, bytes.count)])
                    _ = parser.snapshot()
                }
                let document = try parser.finish()
                XCTAssertTrue(orderedEqual(document, strict), "\(text) in chunks of \(size): \(document)")
            }
        }
    }

    func testInvalidTextGivesTheStrictParsersError() throws {
        let texts: [[UInt8]] = [
            "", " ", "[", "{", "[1,", "[1", #"{"a""#, #"{"a":"#, #"{"a":1"#, #"{"a":1,"#, "[1,]", "{,}",
            #"{"a" 1}"#, "{1:2}", "tru", "trux", "nul", "[-]", "-", "1.", "1.e5", "1e", "1e+", "-a", "01", "[01]",
            "1 2", #""abc"#, #""a\x""#, #""\u12G4""#, #""\u12"#, "\"a\nb\"", "\"\u{01}\"", "[1e999]",
            #"{"a":1}x"#, "[1]\n\n  ]", "\n\n  {\"a\" : tru }", #"{"a":[1,2}"#, #"["a"}"#, "[1 2]",
            #""\ud83c\"#, #""\ud83c\u"#, #""\ud83c\uZZ"#, #""\ud83c\q""#, #""\"#, "@", "[é]", "[\"a\",\n  \"b\",\n  x]",
        ].map { Array($0.utf8) } + [
            [0x22, 0xC3], [0x22, 0xC3, 0x28, 0x22], [0x22, 0xFF, 0x22], [0x22, 0xE0, 0x80, 0x80, 0x22],
            [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xF0, 0x9F, 0x8F],
        ]
        for bytes in texts {
            let name = String(decoding: bytes, as: UTF8.self).debugDescription
            var strictError: JSONSyntaxError?
            do { _ = try GeneratedContent(json: bytes) } catch { strictError = error }
            XCTAssertNotNil(strictError, "\(name) should be invalid")
            for size in [1, 2, 1000] {
                XCTAssertEqual(partialError(bytes, chunkSize: size), strictError, "\(name) in chunks of \(size)")
            }
        }
    }

    func testErrorsAreReportedAsSoonAsTheBadByteArrivesAndStick() {
        var parser = PartialJSONParser()
        XCTAssertNoThrow(try parser.append(#"{"a": [1, 2"#))
        XCTAssertThrowsError(try parser.append(#"}"#)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.message, "expected ',' or ']' in array")
            XCTAssertEqual((error as? JSONSyntaxError)?.offset, 11)
        }
        XCTAssertThrowsError(try parser.append("]")) { XCTAssertEqual(($0 as? JSONSyntaxError)?.offset, 11) }
        XCTAssertThrowsError(try parser.finish()) { XCTAssertEqual(($0 as? JSONSyntaxError)?.offset, 11) }
    }

    // MARK: - Depth

    func testTenThousandDeepNestingIsRefusedWithoutCrashing() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = partialError(Array(deep.utf8), chunkSize: 4)
        XCTAssertEqual(error?.message, "nesting deeper than 512 levels")
        XCTAssertEqual(error?.offset, 512)
        var strictError: JSONSyntaxError?
        do { _ = try GeneratedContent(json: deep) } catch { strictError = error }
        XCTAssertEqual(error, strictError)

        let objects = String(repeating: #"{"a":"#, count: 10_000)
        XCTAssertEqual(partialError(Array(objects.utf8), chunkSize: 7)?.message, "nesting deeper than 512 levels")
    }

    func testNestingUpToTheLimitIsAccepted() throws {
        let text = String(repeating: "[", count: 512) + "\"x" 
        var parser = PartialJSONParser()
        try parser.append(text)
        var snapshot = parser.snapshot()
        var depth = 0
        while case .array(let elements)? = snapshot { depth += 1; snapshot = elements.first }
        XCTAssertEqual(depth, 512)
        XCTAssertEqual(snapshot, "x")
        try parser.append("\"" + String(repeating: "]", count: 512))
        XCTAssertNotNil(try parser.finish())
    }

    /// The error of feeding `bytes` in chunks then finishing, or nil.
    private func partialError(_ bytes: [UInt8], chunkSize: Int) -> JSONSyntaxError? {
        var parser = PartialJSONParser()
        do {
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                try parser.append(bytes: bytes[start..<min(start + chunkSize, bytes.count)])
                _ = parser.snapshot()
            }
            _ = try parser.finish()
            return nil
        } catch {
            return error
        }
    }
}
