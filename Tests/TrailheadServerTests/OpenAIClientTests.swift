import Foundation
import TrailheadSchema
import TrailheadSupport
import XCTest

/// `agent serve` as the official `openai` Python client (PyPI, in the project's venv) sees it.
final class OpenAIClientTests: XCTestCase {
    func testTheOpenAIClientStreamsAChatCompletionWithAToolCallInsideAndContinuesAResponse() throws {
        let python = try Self.python()
        let folder = try ServeFixtures.folder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        try ServeFixtures.write([
            ServeFixtures.call("2026-12-01", "2026-12-07"), ServeFixtures.final("You are free on Sunday 6 December."),
            ServeFixtures.final("The weekend of the 12th is free too."),
        ].joined(separator: "\n"), to: folder + "/script.jsonl")
        let serve = try ServeProcess(["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"])

        let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/openai_client.py").path
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

    /// The venv's Python, which Scripts/setup-python.sh gives the openai client.
    static func python() throws -> String {
        let cache = ProcessInfo.processInfo.environment["TRAILHEAD_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.cache/trailhead"
        let python = cache + "/venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ServeProcess.Failure(description: "no Python venv at \(python): run `make setup` (Scripts/setup-python.sh installs openai)")
        }
        return python
    }
}
