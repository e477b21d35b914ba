import TrailheadTestSupport
import XCTest

/// The command line's shape, through the built executable: help at every level, the version,
/// and usage mistakes (one line, the usage, exit 2).
final class AgentCommandLineTests: XCTestCase {
    func testVersion() throws {
        let result = try AgentProcess.run(["--version"])
        XCTAssertEqual(result.stdout, "agent 0.1.0\n")
        XCTAssertEqual(result.status, 0)
    }

    func testTopLevelHelpListsCommandsAndExitCodes() throws {
        for flag in ["--help", "-h"] {
            let result = try AgentProcess.run([flag])
            XCTAssertEqual(result.status, 0)
            XCTAssertTrue(result.stdout.hasPrefix("usage: agent <command> [options]\n"), result.stdout)
            XCTAssertTrue(result.stdout.contains("Commands:\n"), result.stdout)
            for command in ["plan", "tools", "transcript", "model", "doctor", "geodata", "schema"] {
                XCTAssertTrue(result.stdout.contains("\n  \(command) "), "\(command) missing from \(result.stdout)")
            }
            XCTAssertTrue(result.stdout.contains("--version"), result.stdout)
            XCTAssertTrue(result.stdout.contains("2 usage error"), result.stdout)
            XCTAssertEqual(result.stderr, "")
        }
    }

    func testGroupHelpListsSubcommands() throws {
        let result = try AgentProcess.run(["schema", "--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.hasPrefix("usage: agent schema <command> [options]\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Commands:\n  check  Validate JSON instances"), result.stdout)
        XCTAssertFalse(result.stdout.contains("--version"), "only the root has --version")
    }

    func testLeafHelpShowsArgumentsAndOptions() throws {
        let result = try AgentProcess.run(["schema", "check", "-h"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.hasPrefix("usage: agent schema check [options] SCHEMA [INSTANCES]\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Arguments:\n  SCHEMA "), result.stdout)
        XCTAssertTrue(result.stdout.contains("  --all "), result.stdout)
        XCTAssertTrue(result.stdout.contains("  -h, --help "), result.stdout)
    }

    func testHelpWinsOverOtherMistakes() throws {
        let result = try AgentProcess.run(["schema", "check", "--bogus", "--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.hasPrefix("usage: agent schema check"), result.stdout)
    }

    func testUnknownCommandIsAUsageError() throws {
        let result = try AgentProcess.run(["fly"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(
            result.stderr, "agent: unknown command 'fly'\nusage: agent <command> [options]\nRun 'agent --help' for more.\n")
    }

    func testUnknownSubcommandIsAUsageErrorOfItsGroup() throws {
        let result = try AgentProcess.run(["schema", "lint"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("agent: unknown command 'lint'\nusage: agent schema <command>"), result.stderr)
    }

    func testUnknownFlagIsAUsageError() throws {
        let result = try AgentProcess.run(["schema", "check", "--strict", Fixtures.schema])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("agent: unknown option '--strict'\nusage: agent schema check"), result.stderr)

        let top = try AgentProcess.run(["--verbose"])
        XCTAssertEqual(top.status, 2)
        XCTAssertTrue(top.stderr.hasPrefix("agent: unknown option '--verbose'\n"), top.stderr)
    }

    func testFlagWithValueIsAUsageError() throws {
        let result = try AgentProcess.run(["schema", "check", "--all=yes", Fixtures.schema])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("agent: option '--all' takes no value\n"), result.stderr)
    }

    func testMissingCommandIsAUsageError() throws {
        let result = try AgentProcess.run([])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("agent: missing subcommand\nusage: agent <command>"), result.stderr)
    }
}
