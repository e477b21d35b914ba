import Foundation
import TrailheadAgent
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// The built-in trip planner served over chat completions: the request in JSON, the plugins'
/// real answers, the itinerary filled in from them.
final class TripPlannerServeTests: XCTestCase {
    func testTheTripPlannerAnswersAChatCompletionWithAGroundedItinerary() throws {
        let folder = try Scratch.newFolder()
        let places = [
            ("Skull Rock Nature Trail", "Start early in the morning."), ("Keys View", "Bring a warm jacket."),
            ("Barker Dam Nature Trail", "Look for bighorn sheep."), ("Hidden Valley Nature Trail", "Walk the loop slowly."),
            ("Ryan Mountain Trail", "Carry plenty of water."), ("Cap Rock Nature Trail", "Stay for the sunset."),
        ]
        let days: [GeneratedContent] = stride(from: 0, to: 6, by: 2).map { index in
            ["activities": .array([places[index], places[index + 1]].map { ["place": .string($0.0)] })]
        }
        let draft: GeneratedContent = [
            "title": "Desert rocks and stars", "description": "Three days of short trails and wide views.",
            "rationale": "Short trails suit a relaxed pace.", "days": .array(days),
        ]
        try ServeFixtures.write(GeneratedContent.object(["text": .string(LanguageModelSession.stepText(answering: draft))]).jsonString, to: folder + "/script.jsonl")
        let serve = try ServeProcess(["--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"])

        let request = #"{"landmark": "Joshua Tree National Park", "days": 3, "from": "2026-12-01", "to": "2026-12-31"}"#
        let answer = try serve.post("/chat/completions", ["model": "trip-planner", "messages": [["role": "user", "content": .string(request)]]])
        XCTAssertEqual(answer.status, 200, "\(answer.body)\n\(serve.output)")
        let text = try XCTUnwrap(answer.body["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue)
        let itinerary = try GeneratedContent(json: text)
        XCTAssertEqual(itinerary["destination"]?.stringValue, "Joshua Tree National Park")
        let dates = (itinerary["days"]?.arrayValue ?? []).compactMap { $0["date"]?.stringValue }
        XCTAssertEqual(dates.count, 3, "the planner fills in the dates from the calendar: \(text)")
        XCTAssertTrue(dates.allSatisfy { $0.hasPrefix("2026-12-") }, "\(dates)")
        XCTAssertEqual(itinerary["days"]?.arrayValue?.first?["activities"]?.arrayValue?.first?["category"]?.stringValue, "hike")
        XCTAssertEqual(answer.body["trailhead"]?["turns"]?.intValue, 1, "prefetched tools, one model turn")
    }
}
