import Foundation
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// `agent serve` as the official `openai` Python client (PyPI, in the project's venv) sees it.
final class OpenAIClientTests: XCTestCase {
    func testTheOpenAIClientStreamsAChatCompletionWithAToolCallInsideAndContinuesAResponse() throws {
        let python = try TrailheadCache.python()
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        try ServeFixtures.write([
            ServeFixtures.call("2026-12-01", "2026-12-07"), ServeFixtures.final("You are free on Sunday 6 December."),
            ServeFixtures.final("The weekend of the 12th is free too."),
        ].joined(separator: "\n"), to: folder + "/script.jsonl")
        let serve = try ServeProcess(["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"])

        let client = Checkout.path("Tests/TrailheadServerTests/Clients/openai_client.py")
        let run = try ChildProcess.run(python, [client, serve.baseURL, "free-days"], timeLimit: 120)
        XCTAssertEqual(run.status, 0, "the client failed: \(run.stderr)\nserver: \(serve.output)")
        let seen = try GeneratedContent(json: run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))

        // The stream: the tool call and its output as Trailhead events, then the answer in pieces.
        XCTAssertEqual(seen["content"]?.stringValue, "You are free on Sunday 6 December.")
        XCTAssertEqual(seen["finish"]?.stringValue, "stop")
        let events = seen["events"]?.arrayValue ?? []
        XCTAssertEqual(events.first?["type"]?.stringValue, "tool_call")
        XCTAssertEqual(events.first?["tool"]?.stringValue, "calendarFreeDays")
        XCTAssertEqual(events.dropFirst().first?["type"]?.stringValue, "tool_output")
        XCTAssertEqual(events.dropFirst().first?["result"]?["freeDays"]?.arrayValue?.isEmpty, false, "the calendar really answered")
        XCTAssertGreaterThan(seen["chunks"]?.intValue ?? 0, 4, "the answer arrived in several chunks")

        // The Responses API: the second response continues the first's conversation.
        XCTAssertEqual(seen["first"]?.stringValue, "You are free on Sunday 6 December.")
        XCTAssertEqual(seen["second"]?.stringValue, "The weekend of the 12th is free too.")
        XCTAssertEqual(seen["second_previous"]?.stringValue, seen["first_id"]?.stringValue)
    }
}
