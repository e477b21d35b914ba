import Foundation
import TripPlanner
import TrailheadSchema
import XCTest

@testable import TrailheadCLI

/// The itinerary streamed on a terminal: at any chunking, what is printed adds up to exactly the
/// finished itinerary's text, printed once.
final class StreamingItineraryTests: XCTestCase {
    let itinerary: GeneratedContent = [
        "title": "Desert Days", "destination": "Joshua Tree National Park", "description": "Rocks, \"trees\" and stars.",
        "rationale": "Both days are free.",
        "days": [
            ["date": "2026-12-19", "activities": [
                ["time": "morning", "place": "Skull Rock Nature Trail", "category": "hike", "note": "Easy loop."],
                ["time": "evening", "place": "Keys View", "category": "viewpoint", "note": "Sunset over the valley."],
            ]],
            ["date": "2026-12-20", "activities": [["time": "morning", "place": "Cap Rock Nature Trail", "category": "hike", "note": "Short, flat."]]],
        ],
        "companions": ["Ana Lima", "Ben Okafor"],
    ]

    func testEveryChunkingPrintsTheItineraryExactlyOnce() {
        let text = (["answer": itinerary] as GeneratedContent).jsonString
        let expected = ItineraryFormat.text.render(Partial(itinerary))
        for size in [1, 3, 4, 7, 64, text.utf8.count] {
            let printed = CapturedText()
            let output = TextOutput.capturing(into: printed)
            var view = StreamingItinerary(write: output.write)
            // The session hands out a snapshot of the answer after each piece of text.
            var parser = PartialJSONParser()
            let bytes = Array(text.utf8)
            for start in stride(from: 0, to: bytes.count, by: size) {
                try? parser.append(bytes: bytes[start..<min(start + size, bytes.count)])
                if let snapshot = parser.snapshot()?["answer"] { view.update(Partial(StreamingItinerary.droppingLastLeaf(snapshot))) }
            }
            let streamedBeforeFinish = printed.text
            view.finish(Partial(itinerary))
            XCTAssertEqual(printed.text, expected, "chunk size \(size)")
            if size < 8 { XCTAssertTrue(streamedBeforeFinish.contains("Skull Rock"), "chunk size \(size): nothing streamed before the end") }
        }
    }
}
