import Foundation
import TrailheadAgent
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import TripPlanner
import XCTest

/// The trip planner served over chat takes a person's words: the (scripted) model reads them
/// under `TripWords`' schema, the place is resolved in the index, the values checked as
/// `agent plan` checks them; words without a place get a question back. JSON keeps working.
final class TripWordsServeTests: XCTestCase {
    /// The planner's answer after the request is read (two Joshua Tree hikes a day).
    static func draft(days: Int) -> String {
        let places = ["Skull Rock Nature Trail", "Keys View", "Barker Dam Nature Trail", "Hidden Valley Nature Trail", "Ryan Mountain Trail", "Cap Rock Nature Trail"]
        let plan: [GeneratedContent] = (0..<days).map { day in
            ["activities": .array(places[(2 * day)..<(2 * day + 2)].map { ["place": .string($0)] })]
        }
        let draft: GeneratedContent = [
            "title": "Desert rocks and stars", "description": "Short trails and wide views.", "rationale": "Short trails suit a relaxed pace.",
            "days": .array(plan),
        ]
        return GeneratedContent.object(["text": .string(LanguageModelSession.stepText(answering: draft))]).jsonString
    }

    static func words(_ content: GeneratedContent) -> String { GeneratedContent.object(["text": .string(content.jsonString)]).jsonString }

    func ask(_ sentence: String, script: [String]) throws -> (status: Int, body: GeneratedContent, serve: ServeProcess) {
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(script.joined(separator: "\n"), to: folder + "/script.jsonl")
        let serve = try ServeProcess(["--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"])
        let answer = try serve.post("/chat/completions", ["model": "trip-planner", "messages": [["role": "user", "content": .string(sentence)]]])
        return (answer.status, answer.body, serve)
    }

    func testASentenceBecomesATypedRequestAndAPlan() throws {
        let read: GeneratedContent = ["landmark": "Joshua Tree", "days": 2, "from": "2026-12-05", "to": "2026-12-20"]
        let (status, body, serve) = try ask("Plan a 2-day trip to Joshua Tree in the first half of December", script: [Self.words(read), Self.draft(days: 2)])
        XCTAssertEqual(status, 200, "\(body)\n\(serve.output)")
        let text = try XCTUnwrap(body["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue)
        let itinerary = try GeneratedContent(json: text)
        XCTAssertEqual(itinerary["destination"]?.stringValue, "Joshua Tree National Park", "the place resolved in the index")
        let request = body["trailhead"]?["request"]
        XCTAssertEqual(request?["landmark"]?.stringValue, "Joshua Tree National Park", "the typed request the words became: \(body)")
        XCTAssertEqual(request?["days"]?.intValue, 2)
        XCTAssertEqual(request?["from"]?.stringValue, "2026-12-05")
        XCTAssertEqual(request?["to"]?.stringValue, "2026-12-20")
        let dates = (itinerary["days"]?.arrayValue ?? []).compactMap { $0["date"]?.stringValue }
        XCTAssertEqual(dates.count, 2)
        XCTAssertTrue(dates.allSatisfy { $0 >= "2026-12-05" && $0 <= "2026-12-20" }, "the window the words gave: \(dates)")
    }

    func testDatesTheWordsDoNotSayAreNotTaken() throws {
        // The model wrote a window the sentence never spoke of: the planner's own window instead.
        let read: GeneratedContent = ["landmark": "Joshua Tree", "days": 2, "from": "2027-03-01", "to": "2027-03-02"]
        let (status, body, serve) = try ask("Plan a 2-day trip to Joshua Tree", script: [Self.words(read), Self.draft(days: 2)])
        XCTAssertEqual(status, 200, "\(body)\n\(serve.output)")
        let request = body["trailhead"]?["request"]
        XCTAssertEqual(request?["days"]?.intValue, 2)
        XCTAssertNotEqual(request?["from"]?.stringValue, "2027-03-01", "\(body)")
        XCTAssertNotEqual(request?["to"]?.stringValue, "2027-03-02", "\(body)")
        for said in ["in late December", "from 2026-12-19", "on the 5th", "next weekend", "on Friday", "12/20 to 12/24"] {
            XCTAssertTrue(TripWords.mentionsTime("Two days at Zion " + said), said)
        }
        for unsaid in ["Plan a 2-day trip to Joshua Tree", "Take me to the Grand Canyon, one day, with Ben", "Somewhere with beaches, 3 days"] {
            XCTAssertFalse(TripWords.mentionsTime(unsaid), unsaid)
        }
    }

    func testWordsWithoutAPlaceGetAQuestionNotAnError() throws {
        let (status, body, serve) = try ask("Plan me a relaxed weekend with Ana", script: [Self.words(["days": 2, "companions": ["Ana"]])])
        XCTAssertEqual(status, 200, "\(body)\n\(serve.output)")
        let choice = body["choices"]?.arrayValue?.first
        XCTAssertEqual(choice?["finish_reason"]?.stringValue, "stop")
        XCTAssertEqual(choice?["message"]?["role"]?.stringValue, "assistant")
        XCTAssertEqual(choice?["message"]?["content"]?.stringValue, TripWords.placeQuestion)
    }

    func testWordsThePlannerCannotPlanAreAskedAboutAsTheCLIChecksThem() throws {
        // Five days in a three-day window: `agent plan`'s own message, asked back.
        let read: GeneratedContent = ["landmark": "Joshua Tree", "days": 5, "from": "2026-12-05", "to": "2026-12-07"]
        let (status, body, _) = try ask("Five days in Joshua Tree from the 5th to the 7th of December", script: [Self.words(read)])
        XCTAssertEqual(status, 200)
        let question = body["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue ?? ""
        XCTAssertTrue(question.contains("a 5-day trip does not fit the window 2026-12-05…2026-12-07"), question)
        // The same request in JSON: the same check (`TripRequest.problem`), refused in the same words.
        let json = try ask(#"{"landmark": "Joshua Tree", "days": 5, "from": "2026-12-05", "to": "2026-12-07"}"#, script: [Self.draft(days: 2)])
        XCTAssertEqual(json.status, 400, "\(json.body)")
        XCTAssertEqual(json.body["error"]?["message"]?.stringValue, "a 5-day trip does not fit the window 2026-12-05…2026-12-07, which has 3 days")
    }

    func testAWindowTheCalendarLeavesTooFewFreeDaysInIsAskedAboutInWordsAndRefusedInJSON() throws {
        // 2026-12-05…06: the sample calendar leaves one of the two days free.
        let read: GeneratedContent = ["landmark": "Joshua Tree", "days": 2, "from": "2026-12-05", "to": "2026-12-06"]
        let (status, body, serve) = try ask("Joshua Tree on the weekend of 5 December, two days", script: [Self.words(read), Self.draft(days: 2)])
        XCTAssertEqual(status, 200, "\(body)\n\(serve.output)")
        let question = body["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue ?? ""
        XCTAssertTrue(question.hasPrefix("I can't plan that yet: a 2-day trip does not fit the free days of 2026-12-05…2026-12-06"), question)
        XCTAssertEqual(body["trailhead"]?["request"]?["from"]?.stringValue, "2026-12-05")
        let json = try ask(#"{"landmark": "Joshua Tree", "days": 2, "from": "2026-12-05", "to": "2026-12-06"}"#, script: [Self.draft(days: 2)])
        XCTAssertEqual(json.status, 400, "\(json.body)")
        XCTAssertTrue(json.body["error"]?["message"]?.stringValue?.hasPrefix("a 2-day trip does not fit the free days") ?? false, "\(json.body)")
    }

    func testAnUnknownPlaceInWordsIsAskedAbout() throws {
        let (status, body, _) = try ask("Take me to Qxzzyv Nowhereland for two days", script: [Self.words(["landmark": "Qxzzyv Nowhereland", "days": 2])])
        XCTAssertEqual(status, 200)
        let question = body["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue ?? ""
        XCTAssertTrue(question.contains("Qxzzyv Nowhereland") && question.hasSuffix("Which place did you mean?"), question)
    }

    func testAPlaceTheModelMisreadIsTheCuratedLandmarkTheSentenceNames() throws {
        // A 1.5B model wrote "Não especificado" for "A weekend in Lisbon with Ben and Ana".
        // (A window with one free day: the planner asks back before any turn, naming the request.)
        let read: GeneratedContent = ["landmark": "Não especificado", "days": 2, "from": "2026-12-05", "to": "2026-12-06"]
        let (status, body, serve) = try ask("A weekend in Lisbon with Ben and Ana", script: [Self.words(read)])
        XCTAssertEqual(body["trailhead"]?["request"]?["landmark"]?.stringValue, "Lisbon", "\(status) \(body)\n\(serve.output)")
    }

    func testCompanionsAreOnlyPeopleTheSentenceNames() throws {
        // The same model wrote [""] (the contacts tool matches everyone with it) and ["Your Name"].
        let read: GeneratedContent = ["landmark": "Joshua Tree", "days": 2, "from": "2026-12-05", "to": "2026-12-06", "companions": ["", "Your Name", "Ana"]]
        let (_, body, _) = try ask("Joshua Tree with Ana, the weekend of 5 December, two days", script: [Self.words(read)])
        XCTAssertEqual(body["trailhead"]?["request"]?["companions"], ["Ana"], "\(body)")
    }

    func testAPlaceTheSentenceDoesNotContainIsNoPlace() throws {
        // The same model wrote ", companions" for "Plan a relaxing 2-day getaway with my sister".
        let (status, body, _) = try ask("Plan a relaxing 2-day getaway with my sister", script: [Self.words(["landmark": ", companions", "days": 2])])
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue, TripWords.placeQuestion)
    }

    func testTheAnswerToTheQuestionIsReadWithTheWordsItAskedAbout() throws {
        let folder = try Scratch.newFolder()
        // The first output is the earlier turn's (the client sends that exchange along); the model
        // then reads both messages together.
        let read: GeneratedContent = ["landmark": "Joshua Tree", "days": 2, "from": "2026-12-05", "to": "2026-12-20", "companions": ["Ana"]]
        try ServeFixtures.write([Self.words(["days": 2]), Self.words(read), Self.draft(days: 2)].joined(separator: "\n"), to: folder + "/script.jsonl")
        let serve = try ServeProcess(["--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"])
        let answer = try serve.post("/chat/completions", ["model": "trip-planner", "messages": [
            ["role": "user", "content": "Plan a relaxed 2-day trip with Ana in early December"],
            ["role": "assistant", "content": .string(TripWords.placeQuestion)],
            ["role": "user", "content": "Joshua Tree"],
        ]])
        XCTAssertEqual(answer.status, 200, "\(answer.body)\n\(serve.output)")
        let request = answer.body["trailhead"]?["request"]
        XCTAssertEqual(request?["landmark"]?.stringValue, "Joshua Tree National Park", "\(answer.body)")
        XCTAssertEqual(request?["days"]?.intValue, 2, "the days the first message gave")
        XCTAssertEqual(request?["companions"], ["Ana"])
    }

    func testAPlaceNameAloneAndAJSONRequestNeedNoReadingTurn() throws {
        // The script holds only the plan: no model turn reads the request.
        let (status, body, serve) = try ask(#"{"landmark": "Joshua Tree", "days": 1, "from": "2026-12-05", "to": "2026-12-10", "tools": ["poi", "calendar"]}"#, script: [Self.draft(days: 1)])
        XCTAssertEqual(status, 200, "\(body)\n\(serve.output)")
        XCTAssertEqual(body["trailhead"]?["turns"]?.intValue, 1)
        let named = try ask("Joshua Tree National Park", script: [Self.draft(days: 3)])
        XCTAssertEqual(named.status, 200, "\(named.body)\n\(named.serve.output)")
        let refused = try ask(#"{"landmark": "Joshua Tree", "tools": ["poi", "weather"]}"#, script: [Self.draft(days: 3)])
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.body["error"]?["message"]?.stringValue?.contains("'weather'") ?? false, "\(refused.body)")
    }
}
