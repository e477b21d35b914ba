import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import XCTest

@testable import TrailheadPostgres  // a run's row, made here rather than stored
@testable import TrailheadServer

/// The typed records of a background run keep the stored JSON shape runs already in PostgreSQL
/// have (the same keys and value types), and a record that cannot be read is a clear error.
final class StoredRunRecordTests: XCTestCase {
    private func json(_ value: some Encodable) throws -> String { try GeneratedContent(encoding: value).jsonString }

    func testStepsAreWrittenInTheirStoredShape() throws {
        let timed = ModelResponse(
            text: "hi", modelID: "m", usage: TokenUsage(promptTokens: 12, completionTokens: 3), timings: ModelTimings(total: 1.5), finishReason: "stop")
        XCTAssertEqual(
            try json(RecordedSteps.ModelTurn(timed)), #"{"text":"hi","model":"m","seconds":1.5,"promptTokens":12,"completionTokens":3,"finishReason":"stop"}"#)
        let bare = ModelResponse(text: "", modelID: "m", usage: nil, timings: ModelTimings(total: 2), finishReason: nil)
        XCTAssertEqual(try json(RecordedSteps.ModelTurn(bare)), #"{"text":"","model":"m","seconds":2}"#)
        XCTAssertEqual(try json(RecordedSteps.Probabilities(nil)), #"{"probabilities":null}"#)
        XCTAssertEqual(
            try json(RecordedSteps.Probabilities([TokenProbability(token: "a", probability: 0.5)])), #"{"probabilities":[{"token":"a","probability":0.5}]}"#)
        XCTAssertEqual(try json(RecordedSteps.ToolOutcome(ToolCallOutcome(result: nil, error: "no"))), #"{"result":null,"error":"no"}"#)
        XCTAssertEqual(try json(RecordedSteps.ToolOutcome(ToolCallOutcome(result: ["ok": true], error: nil))), #"{"result":{"ok":true},"error":null}"#)
        XCTAssertEqual(try json(RecordedSteps.CallStart(tool: "calendarAddEvents")), #"{"tool":"calendarAddEvents"}"#)
    }

    func testStoredStepsAreReadByKey() throws {
        // As PostgreSQL's jsonb gives them back (its own key order).
        let stored: [String: GeneratedContent] = try [
            "model:0": GeneratedContent(json: #"{"text":"hi","model":"m","seconds":1.5,"promptTokens":12,"finishReason":"stop","completionTokens":3}"#),
            "model:1": GeneratedContent(json: #"{"text":"done","model":"m","seconds":2}"#),
            "probabilities:0": GeneratedContent(json: #"{"probabilities":null}"#),
            "call_abc_0": GeneratedContent(json: #"{"error":null,"result":{"ok":true}}"#),
            "started:call_abc_0": GeneratedContent(json: #"{"tool":"t"}"#),
            "started:call_def_0": GeneratedContent(json: #"{"tool":"t"}"#),
            "approval:call_def_0": GeneratedContent(json: #"{"approved":false}"#),
        ]
        let steps = try RecordedSteps(stored, run: "resp_bgx")
        XCTAssertEqual(steps.modelTurns.count, 2)
        let first = try XCTUnwrap(steps.modelTurns[0]).response
        XCTAssertEqual(first.text, "hi")
        XCTAssertEqual(first.usage, TokenUsage(promptTokens: 12, completionTokens: 3))
        XCTAssertEqual(first.finishReason, "stop")
        XCTAssertNil(try XCTUnwrap(steps.modelTurns[1]).response.usage)
        XCTAssertNil(try XCTUnwrap(steps.probabilityQueries[0]).list)
        XCTAssertEqual(steps.outcomes["call_abc_0"]?.outcome, ToolCallOutcome(result: ["ok": true], error: nil))
        XCTAssertEqual(steps.started, ["call_abc_0", "call_def_0"])
        XCTAssertEqual(steps.approvals, ["call_def_0": false])
        for key: RecordedSteps.Key in [.modelTurn(3), .probabilities(1), .outcome(call: "call_abc_0"), .started(call: "c"), .approval(call: "c")] {
            XCTAssertEqual(RecordedSteps.Key(key.text), key)
        }
    }

    func testAStepThatCannotBeReadIsAnErrorNamingIt() throws {
        let cases: [(String, String, String)] = [
            ("model:0", #"{"text":5,"model":"m","seconds":1}"#, "the step model:0 cannot be read: text: expected a string"),
            ("call_abc_0", #""oops""#, "the step call_abc_0 cannot be read"),
            ("approval:call_abc_0", #"{}"#, "approved: is required"),
            ("model:x", #"{}"#, "the step model:x has a key no execution writes"),
        ]
        for (key, text, message) in cases {
            XCTAssertThrowsError(try RecordedSteps([key: try GeneratedContent(json: text)], run: "resp_bgx")) { error in
                let error = error as? SessionStoreError
                XCTAssertEqual(error?.kind, .failed)
                XCTAssertTrue(error?.message.contains(message) == true, "\(error?.message ?? "")")
            }
        }
    }

    func testARunsRequestResponseAndEventsAreReadOnce() throws {
        var row = PostgresRunStore.Run(
            id: "resp_bgx", status: .completed, request: ["model": "trip", "input": "hi", "previous_response_id": "resp_a_2"], session: "s",
            response: ["id": "resp_bgx", "trailhead": ["session": "s", "response_id": "resp_s_4"]], pending: nil, cancelRequested: false, createdAt: 1)
        let run = try StoredRun(row)
        XCTAssertEqual(run.request.model, "trip")
        XCTAssertEqual(run.request.previousResponseID, "resp_a_2")
        XCTAssertEqual(run.continuation, "resp_s_4")
        row.response = nil
        XCTAssertNil(try StoredRun(row).continuation)
        row.request = ["input": "hi"]
        XCTAssertThrowsError(try StoredRun(row)) { error in
            XCTAssertEqual((error as? SessionStoreError)?.message, "run resp_bgx: its request cannot be read: model: is required")
        }

        let event = try StoredRunEvent(["type": "response.output_item.done", "item": ["id": "call_abc_0"], "sequence_number": 3], run: "resp_bgx")
        XCTAssertEqual(event.type, "response.output_item.done")
        XCTAssertEqual(event.sequenceNumber, 3)
        XCTAssertEqual(event.item, ["id": "call_abc_0"])
        XCTAssertThrowsError(try StoredRunEvent(["sequence_number": 3], run: "resp_bgx"))
    }
}
