import Foundation
import TrailheadSchema
import TrailheadTestSupport
import XCTest

/// `agent run` end to end: a default session over a real bundled plugin, a scripted model, text
/// and JSON answers, the transcript, and usage errors.
final class RunCommandTests: XCTestCase {
    static let home = PlanCommandTests.home

    func script(_ outputs: [String]) throws -> String {
        let lines = outputs.map { GeneratedContent.string($0).jsonString }
        return try Scratch.file(lines.joined(separator: "\n") + "\n", name: "script.jsonl")
    }

    func run(_ arguments: [String], outputs: [String]) throws -> (AgentProcess.Result, transcript: String) {
        let transcript = try Scratch.file("", name: "run.jsonl")
        try FileManager.default.removeItem(atPath: transcript)
        let result = try AgentProcess.run(
            ["run"] + arguments + ["--model", "scripted:\(try script(outputs))", "--transcript", transcript,
                                   "--plugins", Self.home + "/Plugins", "--manifests", Self.home + "/Manifests"],
            environment: ["TRAILHEAD_HOME": Self.home])
        return (result, transcript)
    }

    func entries(_ transcript: String) throws -> [GeneratedContent] {
        try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n").map { try GeneratedContent(json: String($0)) }
    }

    func testAPluginToolIsCalledAndTheTextAnswerPrinted() throws {
        let (result, transcript) = try run(
            ["Where does Ana live?", "--tools", "contacts"],
            outputs: [#"{"name":"searchContacts","arguments":{"query":"Ana"}}"#, #"{"answer":"Ana Lima lives in Lisbon."}"#])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "Ana Lima lives in Lisbon.\n")
        let log = try entries(transcript)
        XCTAssertEqual(log.compactMap { $0["kind"]?.stringValue }, ["instructions", "prompt", "modelTurn", "toolCall", "toolOutput", "modelTurn", "response"])
        let output = try XCTUnwrap(log.first { $0["kind"] == "toolOutput" })
        XCTAssertTrue(output["result"]?.jsonString.contains("Ana Lima") == true, output.jsonString)
        // The model was shown the tool's signature.
        XCTAssertTrue(log[0]["text"]?.stringValue?.contains("- searchContacts(") == true, log[0].jsonString)
        XCTAssertTrue(result.stderr.contains("answered in 2 turns"), result.stderr)
    }

    func testAPlaceholderGroupIsDroppedAndAWrongGroupStillFindsThePerson() throws {
        // "None" is no group: dropped before the call. "friends" is a group, but the cousin is family:
        // the matches in the other groups come back, said so.
        let (result, transcript) = try run(
            ["Which city does my cousin live in?", "--tools", "contacts"],
            outputs: [
                #"{"name":"searchContacts","arguments":{"query":"Ben","group":"None"},"and":{"name":"searchContacts","arguments":{"query":"cousin","group":"friends"}}}"#,
                #"{"answer":"Palm Springs."}"#,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let log = try entries(transcript)
        let calls = log.filter { $0["kind"] == "toolCall" }
        XCTAssertEqual(calls.first?["arguments"], ["query": "Ben"])
        XCTAssertEqual(calls.first?["dropped"], [#"group: "None""#])
        let outputs = log.filter { $0["kind"] == "toolOutput" }.map(\.jsonString)
        XCTAssertEqual(outputs.count, 2)
        XCTAssertTrue(outputs.contains { $0.contains("Ben Okafor") }, outputs.joined(separator: "\n"))
        XCTAssertTrue(outputs.contains { $0.contains("Chloé Martin") && $0.contains("other groups") }, outputs.joined(separator: "\n"))
    }

    func testASchemaAnswerIsJSONThatMatchesIt() throws {
        let schema = try Scratch.file(
            #"{"type":"object","properties":{"name":{"type":"string"},"city":{"type":"string"}},"required":["name","city"],"additionalProperties":false}"#,
            name: "person.schema.json")
        let (result, _) = try run(
            ["Where does Ana live?", "--tools", "contacts", "--schema", schema, "--format", "json"],
            outputs: [#"{"name":"searchContacts","arguments":{"query":"Ana"}}"#, #"{"answer":{"name":"Ana Lima","city":"Lisbon"}}"#])
        XCTAssertEqual(result.status, 0, result.stderr)
        let printed = try GeneratedContent(json: result.stdout)
        XCTAssertEqual(printed["answer"], ["name": "Ana Lima", "city": "Lisbon"])
        XCTAssertEqual(printed["turns"], 2)
    }

    func testAnAnswerThatBreaksTheSchemaIsRepairedThenFails() throws {
        let schema = try Scratch.file(#"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#, name: "city.schema.json")
        let wrong = #"{"answer":{"town":"Lisbon"}}"#
        let (result, transcript) = try run(["Where?", "--schema", schema], outputs: [wrong, wrong, wrong, wrong, wrong])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("the run failed"), result.stderr)
        XCTAssertTrue(try entries(transcript).contains { $0["kind"] == "repair" })
    }

    func testToolCallingRequiredKeepsTheAnswerBackUntilAToolAnswered() throws {
        let (result, transcript) = try run(
            ["Who is Ana?", "--tools", "contacts", "--tool-calling", "required"],
            outputs: [#"{"answer":"I know no Ana."}"#, #"{"name":"searchContacts","arguments":{"query":"Ana"}}"#, #"{"answer":"Ana Lima."}"#])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "Ana Lima.\n")
        XCTAssertEqual(try entries(transcript).filter { $0["kind"] == "repair" }.count, 1)
    }

    /// `--ground`: a list field takes only names the tool returned, each once; an invented one
    /// is repaired, and a tool that returns none ends the run saying so, with no answer.
    func testAGroundedFieldTakesOnlyWhatTheToolReturned() throws {
        let schema = try Scratch.file(
            #"{"type":"object","properties":{"people":{"type":"array","items":{"type":"string"},"minItems":1}},"required":["people"],"additionalProperties":false}"#,
            name: "people.schema.json")
        let ground = ["--schema", schema, "--ground", "/people/*=searchContacts:/contacts/*/name", "--tools", "contacts"]
        let (result, transcript) = try run(
            ["Who is Ana?"] + ground,
            outputs: [#"{"name":"searchContacts","arguments":{"query":"Ana"}}"#, #"{"answer":{"people":["Ana Banana"]}}"#, #"{"answer":{"people":["Ana Lima"]}}"#])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try GeneratedContent(json: result.stdout), ["people": ["Ana Lima"]])
        let repairs = try entries(transcript).filter { $0["kind"] == "repair" }
        XCTAssertEqual(repairs.count, 1)
        XCTAssertTrue(repairs[0]["message"]?.stringValue?.contains("Ana Lima") == true, repairs[0].jsonString)

        let nobody = try run(
            ["Who is Zed?"] + ground,
            outputs: [#"{"name":"searchContacts","arguments":{"query":"Zed"}}"#, #"{"answer":{"people":["Zed"]}}"#, #"{"name":"searchContacts","arguments":{"query":"Zed"}}"#]).0
        XCTAssertEqual(nobody.status, 1, nobody.stderr)
        XCTAssertTrue(nobody.stderr.contains("searchContacts") && nobody.stderr.contains("no answer"), nobody.stderr)
        XCTAssertEqual(nobody.stdout, "")

        let bad = try run(["Hi", "--ground", "people=searchContacts"], outputs: ["x"]).0
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--ground needs --schema"), bad.stderr)
        let malformed = try run(["Hi", "--schema", schema, "--ground", "people=searchContacts"], outputs: ["x"]).0
        XCTAssertEqual(malformed.status, 2)
        XCTAssertTrue(malformed.stderr.contains("FIELD=TOOL:VALUES"), malformed.stderr)
    }

    func testUsageErrorsNameWhatIsWrong() throws {
        let named = try run(["Hi", "--tools", "contacts", "--tool-calling", "radar"], outputs: ["x"]).0
        XCTAssertEqual(named.status, 2)
        XCTAssertTrue(named.stderr.contains("radar") && named.stderr.contains("searchContacts"), named.stderr)
        let badSchema = try Scratch.file(#"{"type":"object","patternProperties":{}}"#, name: "bad.schema.json")
        let schema = try run(["Hi", "--schema", badSchema], outputs: ["x"]).0
        XCTAssertEqual(schema.status, 2)
        XCTAssertTrue(schema.stderr.contains("patternProperties"), schema.stderr)
        let unknown = try run(["Hi", "--tools", "nosuchplugin"], outputs: ["x"]).0
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("nosuchplugin"), unknown.stderr)
    }
}
