import Foundation
@testable import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadTestSupport
import XCTest

@testable import TrailheadEvaluation

/// `agent eval --bfcl multi_turn_base`, on BFCL's own first conversation (a file system and a
/// posting API) with a scripted model: the calls run on BFCL's executable backends through the
/// worker, what they return is what the model reads next, and BFCL's `multi_turn_checker` scores
/// the whole conversation. The pinned bfcl-eval wheel comes from `Scripts/setup-python.sh`.
final class BFCLConversationTests: XCTestCase {
    private let keys = StepSchema.keys

    private func call(_ name: String, _ arguments: String) -> String { #"{"\#(keys.call)":"\#(name)","\#(keys.arguments)":\#(arguments)}"# }
    private func answer(_ text: String) -> String { #"{"\#(keys.final)":"\#(text)"}"# }
    /// Calls chained in one model turn, as the step schema has them.
    private func chain(_ calls: [String]) -> String {
        var text = calls.last ?? ""
        for call in calls.dropLast().reversed() {
            let link: String = String(call.dropLast()) + #","\#(keys.next)":"#
            text = link + text + "}"
        }
        return text
    }

    private func evaluate(_ outputs: [String]) async throws -> (BFCLEvaluation.CaseResult, BFCLCase) {
        let home = Checkout.root
        let worker = try BFCLWorker(home: home, python: ModelAssets().cacheDirectory + "/venv/bin/python")
        var evaluation = BFCLEvaluation(worker: worker, model: ScriptedModel(outputs: outputs), peerEndpoint: nil, transcripts: nil)
        evaluation.toolSearch = ToolSearch(mode: .never)
        let cases = try evaluation.cases(["multi_turn_base"], limit: 1)
        let item = try XCTUnwrap(cases.first)
        let results = try await evaluation.evaluate(item)
        XCTAssertEqual(results.map(\.agent), [.trailhead], "no peers without an endpoint")
        return (try XCTUnwrap(results.first), item)
    }

    /// The ground truth's calls: "move the report into a new temp folder" (three calls in one model
    /// turn, which must run in the order written), grep it, sort it, move the other report and diff.
    private var groundTruth: [String] {
        [
            chain([call("cd", #"{"folder":"document"}"#), call("mkdir", #"{"dir_name":"temp"}"#),
                   call("mv", #"{"source":"final_report.pdf","destination":"temp"}"#)]),
            answer("Moved."),
            call("cd", #"{"folder":"temp"}"#), call("grep", #"{"file_name":"final_report.pdf","pattern":"budget analysis"}"#),
            answer("Found it."),
            call("sort", #"{"file_name":"final_report.pdf"}"#), answer("Sorted."),
            call("cd", #"{"folder":".."}"#), call("mv", #"{"source":"previous_report.pdf","destination":"temp"}"#),
            call("cd", #"{"folder":"temp"}"#), call("diff", #"{"file_name1":"final_report.pdf","file_name2":"previous_report.pdf"}"#),
            answer("Compared."),
        ]
    }

    func testTheGroundTruthsCallsThroughTheSessionAreValid() async throws {
        let (result, item) = try await evaluate(groundTruth)
        XCTAssertEqual(item.turns.count, 4)
        XCTAssertTrue(item.instructions.contains("At each turn"), "BFCL's words on turns: \(item.instructions)")
        XCTAssertTrue(result.valid, "\(result.kind): \(result.error)")
        XCTAssertEqual(result.kind, "")
        XCTAssertEqual(result.turnsRight, 4)
        XCTAssertEqual(result.turns, 4)
        XCTAssertEqual(result.calls.compactMap { $0["name"]?.stringValue },
                       ["cd", "mkdir", "mv", "cd", "grep", "sort", "cd", "mv", "cd", "diff"])
    }

    func testABackendsErrorIsAFailedCallAndItsDictionaryIsReadAsJSON() throws {
        // As BFCL's executor hands results over: a dictionary as JSON text, `None` for nothing.
        let failure = #"{"error": "cd: ./project: Unsupported path. Only one folder level at a time is supported."}"#
        XCTAssertThrowsError(try BackendResult.read(.string(failure))) { error in
            XCTAssertEqual("\(error)", "cd: ./project: Unsupported path. Only one folder level at a time is supported.")
        }
        XCTAssertEqual(try BackendResult.read(.string(#"{"current_working_directory": "document"}"#)), ["current_working_directory": "document"])
        XCTAssertEqual(try BackendResult.read(.string(#"{"error": "x", "code": 2}"#)), ["error": "x", "code": 2], "more than an error: a result")
        XCTAssertEqual(try BackendResult.read(.string("None")), .null, "Python's None: nothing returned")
        XCTAssertEqual(try BackendResult.read(.null), .null)
    }

    func testAMissedCallLeavesTheBackendInAnotherStateAndTheCheckerSaysSo() async throws {
        // Without mkdir, mv renames the report to "temp" instead of moving it into a folder.
        var outputs = groundTruth
        outputs[0] = chain([call("cd", #"{"folder":"document"}"#), call("mv", #"{"source":"final_report.pdf","destination":"temp"}"#)])
        let (result, _) = try await evaluate(outputs)
        XCTAssertFalse(result.valid)
        XCTAssertEqual(result.kind, "multi_turn:instance_state_mismatch", result.error)
        XCTAssertEqual(result.turnsRight, 0, "the miss is in the first turn")
    }

    func testAMissInALaterTurnCountsTheTurnsBeforeIt() async throws {
        // The fourth turn moves the other report without leaving the temp folder first: the first
        // three turns are right.
        let outputs = groundTruth.filter { $0 != call("cd", #"{"folder":".."}"#) }
        XCTAssertEqual(outputs.count, groundTruth.count - 1)
        let (result, _) = try await evaluate(outputs)
        XCTAssertFalse(result.valid)
        XCTAssertEqual(result.turnsRight, 3, "\(result.kind): \(result.error)")
        XCTAssertEqual(result.turns, 4)
    }

    /// A framework's loop past BFCL's step limit: BFCL's own runner forces the model to quit after
    /// its 20th step in a turn and fails the whole entry (`multi_turn:force_terminated`); the peers
    /// and `agent serve`'s client are driven the same way, not on through the later turns.
    func testAPeerThatNeverStopsCallingIsForcedToQuitAsBFCLsRunnerDoes() throws {
        let reply = #"{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","#
            + #""function":{"name":"ls","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5}}"#
        let server = try FakeHTTPServer { _, _ in [.send(FakeHTTPServer.head(type: "application/json") + reply)] }
        defer { server.stop() }
        let worker = try BFCLWorker(home: Checkout.root, python: ModelAssets().cacheDirectory + "/venv/bin/python")
        let evaluation = BFCLEvaluation(worker: worker, model: ScriptedModel(outputs: []), peerEndpoint: nil, transcripts: nil)
        let item = try XCTUnwrap(try evaluation.cases(["multi_turn_base"], limit: 1).first)
        let result = try evaluation.drivenConversation(item, .native, server.baseURL)
        XCTAssertEqual(server.requests.count, 21, "BFCL's 20 steps, and the one past them that forces the quit")
        XCTAssertEqual(result.calls.count, 21)
        XCTAssertFalse(result.valid)
        XCTAssertEqual(result.kind, "multi_turn:force_terminated", result.error)
        XCTAssertEqual(result.turnsRight, 0, "the first turn is the one forced")
        XCTAssertEqual(result.turns, 4)
        let second = try XCTUnwrap(item.turns.dropFirst().first)
        XCTAssertFalse(server.requests.contains { $0.body.contains(GeneratedContent.string(second).jsonString.dropFirst().dropLast()) }, "no later turn was sent")
    }
}
