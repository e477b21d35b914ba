import TrailheadTestSupport
import XCTest

/// `agent schema check`, run as a user runs it: the built executable, real files, stdin.
final class SchemaCheckCommandTests: XCTestCase {
    func testValidItinerariesPrintValidAndExitZero() throws {
        let lines = try Fixtures.itineraryLines()
        let result = try AgentProcess.run(["schema", "check", Fixtures.schema, "-"], input: lines[0] + "\n" + lines[1] + "\n")
        XCTAssertEqual(result.stdout, "valid\nvalid\n")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.status, 0)
    }

    func testStdinIsReadWhenInstancesAreOmitted() throws {
        let lines = try Fixtures.itineraryLines()
        let result = try AgentProcess.run(["schema", "check", Fixtures.schema], input: lines[1])
        XCTAssertEqual(result.stdout, "valid\n", "a last line without a newline is still a line")
        XCTAssertEqual(result.status, 0)
    }

    func testNonJSONLineIsInvalidAndTheRestGoOn() throws {
        let lines = try Fixtures.itineraryLines()
        let input = lines[0] + "\n" + "{\"title\": \"Truncated\", \"days\": [" + "\n" + lines[1] + "\n"
        let result = try AgentProcess.run(["schema", "check", Fixtures.schema], input: input)
        let output = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(output.count, 4, result.stdout)
        XCTAssertEqual(output[0], "valid")
        XCTAssertTrue(output[1].hasPrefix("invalid\t\tnot JSON: "), String(output[1]))
        XCTAssertTrue(output[1].contains("unexpected end of input"), String(output[1]))
        XCTAssertEqual(output[2], "valid")
        XCTAssertEqual(output[3], "")
        XCTAssertEqual(result.status, 1)
    }

    func testAnEmptyLineIsNotJSONButAFinalNewlineIsNoLine() throws {
        let result = try AgentProcess.run(["schema", "check", Fixtures.schema], input: "\n\n")
        let output = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(output.count, 2, "two newlines are two empty lines, not three: \(result.stdout)")
        XCTAssertTrue(output.allSatisfy { $0.hasPrefix("invalid\t\tnot JSON: ") }, result.stdout)
        XCTAssertEqual(result.status, 1)

        let empty = try AgentProcess.run(["schema", "check", Fixtures.schema], input: "")
        XCTAssertEqual(empty.stdout, "", "no input, no lines")
        XCTAssertEqual(empty.status, 0)
    }

    func testFixtureFileReportsEachLine() throws {
        let result = try AgentProcess.run(["schema", "check", Fixtures.schema, Fixtures.itineraries])
        let output = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(output.count, try Fixtures.itineraryLines().count, result.stdout)
        XCTAssertEqual(output[0], "valid")
        XCTAssertEqual(output[1], "valid")
        XCTAssertTrue(output[2].hasPrefix("invalid\t/days\t"), "minItems: \(output[2])")
        XCTAssertTrue(output[3].hasPrefix("invalid\t/days/0/date\t"), "pattern: \(output[3])")
        XCTAssertTrue(output[4].hasPrefix("invalid\t/days/0/activities/0/time\t"), "pattern: \(output[4])")
        XCTAssertTrue(output[5].hasPrefix("invalid\t\t"), "required days at the root: \(output[5])")
        XCTAssertTrue(output[6].hasPrefix("invalid\t\tnot JSON: "), output[6])
        XCTAssertEqual(result.status, 1)
    }

    func testAllListsEveryViolationIndented() throws {
        let line = try Fixtures.itineraryLines()[4]  // bad time, unknown category, duplicate companions
        let result = try AgentProcess.run(["schema", "check", "--all", Fixtures.schema], input: line + "\n")
        let output = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(output.first, "invalid", result.stdout)
        let pointers = output.dropFirst().map { line -> String in
            XCTAssertTrue(line.hasPrefix("  "), line)
            return String(line.dropFirst(2).prefix { $0 != "\t" })
        }
        XCTAssertEqual(
            Set(pointers), ["/days/0/activities/0/time", "/days/0/activities/0/category", "/companions"], result.stdout)
        XCTAssertEqual(result.status, 1)
    }

    func testAllPrintsValidForValidLines() throws {
        let line = try Fixtures.itineraryLines()[0]
        let result = try AgentProcess.run(["schema", "check", Fixtures.schema, "--all"], input: line + "\n")
        XCTAssertEqual(result.stdout, "valid\n")
        XCTAssertEqual(result.status, 0)
    }

    func testUnsupportedKeywordExitsTwoNamingKeywordAndPointer() throws {
        let schema = try Scratch.file(
            #"{"type": "object", "properties": {"tags": {"type": "object", "patternProperties": {"^x": {}}}}}"#)
        let result = try AgentProcess.run(["schema", "check", schema], input: "{}\n")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("patternProperties"), result.stderr)
        XCTAssertTrue(result.stderr.contains("/properties/tags"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
    }

    func testUnreadableSchemaExitsTwo() throws {
        let result = try AgentProcess.run(["schema", "check", "/nonexistent/itinerary.schema.json"], input: "{}\n")
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(
            result.stderr, "agent: cannot read schema file /nonexistent/itinerary.schema.json: No such file or directory\n")
        XCTAssertEqual(result.stdout, "")
    }

    func testSchemaThatIsNotJSONExitsTwo() throws {
        let schema = try Scratch.file(#"{"type": "object",}"#)
        let result = try AgentProcess.run(["schema", "check", schema], input: "{}\n")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("agent: schema \(schema) is not JSON: line 1, column 19:"), result.stderr)
    }

    func testUnreadableInstancesFileExitsTwo() throws {
        let result = try AgentProcess.run(["schema", "check", Fixtures.schema, "/nonexistent.jsonl"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("cannot read instances file /nonexistent.jsonl"), result.stderr)
    }

    func testMissingAndExtraArgumentsAreUsageErrors() throws {
        let missing = try AgentProcess.run(["schema", "check"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.hasPrefix("agent: missing argument SCHEMA\nusage: agent schema check"), missing.stderr)

        let extra = try AgentProcess.run(["schema", "check", Fixtures.schema, Fixtures.itineraries, "more.jsonl"])
        XCTAssertEqual(extra.status, 2)
        XCTAssertTrue(extra.stderr.hasPrefix("agent: unexpected argument 'more.jsonl'\n"), extra.stderr)
        XCTAssertEqual(extra.stdout, "")
    }
}
