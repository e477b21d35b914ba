import TrailheadSchema
import XCTest

/// The streaming parser on a real itinerary, checked at every prefix against a precise rule.
///
/// "Finished" and "visible", for a value of the final document at offsets [start, end) of the text:
/// - a string, array or object is visible once its opening byte is read (n > start), and
///   finished once its closing byte is read (n ≥ end);
/// - a number is visible and finished only once the byte after it is read (n ≥ end + 1);
///   `true`/`false`/`null` once their last letter is read (n ≥ end).
/// The snapshot after n bytes must be exactly the final document restricted to the visible
/// values, where a visible but unfinished string is the decoded text of its complete escapes
/// and characters so far, and a visible but unfinished container holds its visible children —
/// compared with key order.
final class PartialJSONItineraryTests: XCTestCase {
    func testEveryPrefixOfCompactTextShowsExactlyTheVisibleValues() throws {
        try checkEveryPrefix(of: Spans(itinerary, pretty: false), chunkSizes: [1, 3, 4, 7])
    }

    func testEveryPrefixOfPrettyTextShowsExactlyTheVisibleValues() throws {
        try checkEveryPrefix(of: Spans(itinerary, pretty: true), chunkSizes: [1, 3, 4, 7])
    }

    func testFreshParserOnEachPrefixAgreesWithTheIncrementalOne() throws {
        let spans = try Spans(itinerary, pretty: false)
        var incremental = PartialJSONParser()
        for n in 0...spans.bytes.count {
            if n > 0 { try incremental.append(bytes: spans.bytes[(n - 1)..<n]) }
            var fresh = PartialJSONParser()
            try fresh.append(bytes: spans.bytes[..<n])
            let a = fresh.snapshot(), b = incremental.snapshot()
            XCTAssertTrue(orderedEqual(a, b), "prefix \(n): \(String(describing: a)) vs \(String(describing: b))")
        }
    }

    func testStringChunksGiveTheSameDocument() throws {
        let text = try Spans(itinerary, pretty: true).text
        var parser = PartialJSONParser()
        for character in text {
            try parser.append(String(character))
            _ = parser.snapshot()
        }
        XCTAssertTrue(orderedEqual(try parser.finish(), itinerary))
    }

    /// Feeds the text in chunks of each size and compares every snapshot with the expectation.
    private func checkEveryPrefix(of spans: Spans, chunkSizes: [Int]) throws {
        for size in chunkSizes {
            var parser = PartialJSONParser()
            var offset = 0
            XCTAssertNil(parser.snapshot())
            while offset < spans.bytes.count {
                let end = min(offset + size, spans.bytes.count)
                try parser.append(bytes: spans.bytes[offset..<end])
                offset = end
                let expected = try spans.expectedSnapshot(after: offset)
                let actual = parser.snapshot()
                guard orderedEqual(actual, expected) else {
                    return XCTFail(
                        "chunk size \(size), after \(offset) bytes (…\(String(decoding: spans.bytes[max(0, offset - 30)..<offset], as: UTF8.self))):\n"
                            + "expected \(expected?.jsonString ?? "nil")\n     got \(actual?.jsonString ?? "nil")")
                }
            }
            let document = try parser.finish()
            XCTAssertTrue(orderedEqual(document, itinerary), "chunk size \(size)")
            XCTAssertTrue(orderedEqual(document, try GeneratedContent(json: spans.text)), "same as the strict parser")
        }
    }
}

// MARK: - The document

/// A trip plan as the agent produces it, with non-ASCII text (two-, three- and four-byte UTF-8,
/// a multi-scalar emoji), characters the writer escapes, numbers of several shapes, literals,
/// and empty containers.
private let itinerary: GeneratedContent = {
    let text = #"""
        {
          "title": "Desert Light — 3 days in Joshua Tree 🏜️",
          "destination": "Joshua Tree National Park",
          "description": "Granite domes, cholla gardens and the darkest skies near Los Angeles.\nBring layers: nights drop to 2 °C.",
          "rationale": "Your calendar is free Fri–Sun (the \"Team sync\" is moved); Maya Chen lives in Palm Springs, 45 min away.",
          "coordinates": {"latitude": 33.8734, "longitude": -115.901, "elevationM": 1200, "radiusKm": 2.5e1},
          "days": [
            {
              "date": "2026-03-13",
              "activities": [
                {"time": "08:00", "place": "Hidden Valley Nature Trail", "category": "hike", "note": "1.6 km loop\tgo early", "distanceKm": 1.6, "free": true},
                {"time": "12:30", "place": "Crossroads Café", "category": "restaurant", "note": "Try the 'Desert Bowl'. Ask for Zoë.", "price": null},
                {"time": "18:30", "place": "Keys View", "category": "viewpoint", "note": "Sunset over the Coachella Valley; San Jacinto (富士山 of the south) on clear days.", "elevationM": 1581}
              ]
            },
            {
              "date": "2026-03-14",
              "activities": [
                {"time": "07:30", "place": "Ryan Mountain Trail", "category": "hike", "note": "4.8 km round trip, 320 m gain — bring 2 L of water \\ person.", "distanceKm": 4.8, "gainM": 320},
                {"time": "19:00", "place": "Pappy & Harriet's, Pioneertown", "category": "restaurant", "note": "Book ahead; live music Sat.", "tags": []}
              ]
            },
            {
              "date": "2026-03-15",
              "activities": [
                {"time": "09:00", "place": "Cholla Cactus Garden", "category": "viewpoint", "note": "Stay on the path: \"jumping\" cholla.", "free": false, "extras": {}},
                {"time": "11:00", "place": "Cottonwood Spring", "category": "hike", "note": "Ring the bell \u0007 at the gate; fan palms, über quiet.", "distanceKm": 0.0, "offsetM": -12}
              ]
            }
          ],
          "companions": ["Maya Chen", "Léo Martin"],
          "budgetUSD": 425.75,
          "confirmed": false,
          "notes": [[], [1, [2, [3]]], {"nested": {"deeper": ["ok"]}}]
        }
        """#
    return try! GeneratedContent(json: text)
}()

// MARK: - Where each value is in the text

/// The text of a document as the project's writer prints it, and the byte span of every value,
/// recorded by a writer that mirrors `jsonString` / `prettyJSONString` (checked equal to them).
private struct Spans {
    enum Kind { case string, container, number, literal }

    struct Node {
        var kind: Kind
        var start: Int
        var end: Int
        var children: [(key: String?, node: Node)] = []
        var value: GeneratedContent

        var visibleAt: Int {
            switch kind {
            case .string, .container: start + 1
            case .number: end + 1
            case .literal: end
            }
        }

        var finishedAt: Int { kind == .number ? end + 1 : end }
    }

    let text: String
    let bytes: [UInt8]
    private var root: Node!

    init(_ document: GeneratedContent, pretty: Bool) throws {
        var out = ""
        var root: Node?
        Self.write(document, indent: pretty ? "  " : nil, level: 0, to: &out, node: &root)
        text = out
        bytes = Array(out.utf8)
        self.root = root
        XCTAssertEqual(text, pretty ? document.prettyJSONString : document.jsonString, "the span writer mirrors the real one")
    }

    func expectedSnapshot(after n: Int) throws -> GeneratedContent? { try expected(root, n) }

    private func expected(_ node: Node, _ n: Int) throws -> GeneratedContent? {
        guard n >= node.visibleAt else { return nil }
        if n >= node.finishedAt { return node.value }
        switch node.kind {
        case .string:
            return .string(try decodedPrefix(of: bytes[(node.start + 1)..<n]))
        case .container:
            if case .array = node.value {
                return .array(try node.children.compactMap { try expected($0.node, n) })
            }
            var members = JSONObject()
            for (key, child) in node.children {
                if let value = try expected(child, n) { members[key!] = value }
            }
            return .object(members)
        case .number, .literal:
            preconditionFailure("numbers and literals are visible only once finished")
        }
    }

    /// The text of a string's raw bytes read so far: the longest prefix that is complete
    /// (no cut escape, no cut UTF-8 sequence), decoded by the strict parser.
    private func decodedPrefix(of raw: ArraySlice<UInt8>) throws -> String {
        var raw = raw
        while true {
            if let value = try? GeneratedContent(json: [UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]),
                let string = value.stringValue
            {
                return string
            }
            guard !raw.isEmpty else { throw CocoaError(.coderInvalidValue) }
            raw = raw.dropLast()
        }
    }

    private static func write(
        _ value: GeneratedContent, indent: String?, level: Int, to out: inout String, node: inout Node?
    ) {
        let start = out.utf8.count
        var children: [(key: String?, node: Node)] = []
        let kind: Kind
        switch value {
        case .null, .bool:
            kind = .literal
            out += value.jsonString
        case .number:
            kind = .number
            out += value.jsonString
        case .string:
            kind = .string
            out += value.jsonString
        case .array(let elements):
            kind = .container
            if elements.isEmpty { out += "[]"; break }
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent, level + 1)
                var child: Node?
                write(element, indent: indent, level: level + 1, to: &out, node: &child)
                children.append((nil, child!))
            }
            newline(&out, indent, level)
            out += "]"
        case .object(let members):
            kind = .container
            if members.isEmpty { out += "{}"; break }
            out += "{"
            for (i, (key, member)) in members.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent, level + 1)
                out += GeneratedContent.string(key).jsonString
                out += indent == nil ? ":" : ": "
                var child: Node?
                write(member, indent: indent, level: level + 1, to: &out, node: &child)
                children.append((key, child!))
            }
            newline(&out, indent, level)
            out += "}"
        }
        node = Node(kind: kind, start: start, end: out.utf8.count, children: children, value: value)
    }

    private static func newline(_ out: inout String, _ indent: String?, _ level: Int) {
        guard let indent else { return }
        out += "\n" + String(repeating: indent, count: level)
    }
}

/// Equality that also requires object keys in the same order (JSONObject's `==` ignores order).
func orderedEqual(_ a: GeneratedContent?, _ b: GeneratedContent?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (.array(let x)?, .array(let y)?):
        return x.count == y.count && zip(x, y).allSatisfy { orderedEqual($0, $1) }
    case (.object(let x)?, .object(let y)?):
        return x.keys == y.keys && x.keys.allSatisfy { orderedEqual(x[$0], y[$0]) }
    case (let x?, let y?): return x == y
    default: return false
    }
}
