import TrailheadCLI
import XCTest

/// The framework itself, in-process, on a small tree of commands declared the way real ones are.
final class CommandFrameworkTests: XCTestCase {
    private func run(_ words: [String], environment: [String: String] = [:]) -> (status: Int32, out: String, err: String) {
        let out = CapturedText(), err = CapturedText()
        let context = CommandContext(
            stdout: .capturing(into: out), stderr: .capturing(into: err), readStandardInput: { [] },
            environment: environment, executablePath: "/opt/tool/bin/tool", currentDirectory: "/work")
        let status = DemoRoot.main(["tool"] + words, version: "9.9", context: context)
        return (status, out.text, err.text)
    }

    func testNestedSubcommandWithValuedFlagAndPositionals() {
        let result = run(["tools", "call", "echo", "--args", #"{"a":1}"#, "--json"])
        XCTAssertEqual(result.out, #"tool=echo args={"a":1} json=true tags= extra= plugins=nil"# + "\n")
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.err, "")
    }

    func testEqualsFormShortFlagRepeatableAndVariadic() {
        let result = run(["tools", "call", "--args={}", "-j", "--tag", "a", "echo", "--tag=b", "x", "y"])
        XCTAssertEqual(result.out, "tool=echo args={} json=true tags=a,b extra=x,y plugins=nil\n")
    }

    func testGroupOptionBeforeSubcommandReachesTheLeaf() {
        let result = run(["--plugins", "/p", "tools", "call", "echo"])
        XCTAssertEqual(result.out, "tool=echo args=nil json=false tags= extra= plugins=/p\n")
    }

    func testDoubleDashEndsOptionsAndLoneDashIsPositional() {
        let result = run(["tools", "call", "--", "--json", "-"])
        XCTAssertEqual(result.out, "tool=--json args=nil json=false tags= extra=- plugins=nil\n")
    }

    func testNonRepeatableOptionGivenTwiceIsAUsageError() {
        let result = run(["tools", "call", "echo", "--args", "{}", "--args", "[]"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.hasPrefix("tool: option '--args' given more than once\nusage: tool tools call"), result.err)
    }

    func testOptionWithoutItsValueIsAUsageError() {
        let result = run(["tools", "call", "echo", "--args"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.hasPrefix("tool: option '--args' needs a value (JSON)\n"), result.err)
    }

    func testThrownErrorsBecomeExitCodes() {
        XCTAssertEqual(run(["tools", "call", "fail"]).status, 3)
        XCTAssertEqual(run(["tools", "call", "fail"]).err, "tool: no model available\n")
        let usage = run(["tools", "call", "usage"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.err.hasPrefix("tool: bad tool name\nusage: tool tools call"), usage.err)
        XCTAssertEqual(run(["tools", "call", "other"]).status, 1)
        XCTAssertEqual(run(["tools", "call", "other"]).err, "tool: error: other\n")
    }

    func testHelpAtEachLevel() {
        XCTAssertTrue(run(["--help"]).out.contains("Commands:\n  tools  Work with tools.\n"))
        XCTAssertTrue(run(["tools", "-h"]).out.contains("Commands:\n  call  Call one tool.\n"))
        let leaf = run(["tools", "call", "--help"]).out
        XCTAssertTrue(leaf.hasPrefix("usage: tool tools call [options] TOOL [EXTRA…]\n"), leaf)
        XCTAssertTrue(leaf.contains("  --tag TAG"), leaf)
        XCTAssertTrue(leaf.contains("(repeatable)"), leaf)
        XCTAssertTrue(leaf.contains("  -j, --json"), leaf)
        XCTAssertEqual(run(["--version"]).out, "tool 9.9\n")
        XCTAssertEqual(run(["tools", "--version"]).status, 2, "--version belongs to the root only")
    }

    func testColourOnlyOnATerminalWithoutNoColor() {
        let plain = CommandContext(
            stdout: TextOutput(isTerminal: true) { _ in }, stderr: TextOutput { _ in }, readStandardInput: { [] },
            environment: [:], executablePath: "/x", currentDirectory: "/")
        XCTAssertEqual(plain.styled("ok", .green), "\u{1B}[32mok\u{1B}[0m")
        var noColor = plain
        noColor.environment["NO_COLOR"] = "1"
        XCTAssertEqual(noColor.styled("ok", .green), "ok")
        let pipe = CommandContext(
            stdout: TextOutput(isTerminal: false) { _ in }, stderr: TextOutput { _ in }, readStandardInput: { [] },
            environment: [:], executablePath: "/x", currentDirectory: "/")
        XCTAssertEqual(pipe.styled("ok", .green), "ok")
    }
}

// MARK: - A small command tree, declared the way real commands are

private struct DemoRoot: Command {
    static let configuration = CommandConfiguration(
        name: "tool", summary: "A demo tool.", options: [CommonOptions.plugins], subcommands: [DemoTools.self])
}

private struct DemoTools: Command {
    static let configuration = CommandConfiguration(
        name: "tools", summary: "Work with tools.", subcommands: [DemoCall.self])
}

private struct DemoCall: Command {
    static let configuration = CommandConfiguration(
        name: "call", summary: "Call one tool.",
        options: [
            .option("args", valueName: "JSON", help: "Arguments."),
            .flag("json", short: "j", help: "JSON output."),
            .option("tag", valueName: "TAG", repeatable: true, help: "A tag."),
        ],
        positionals: [.required("TOOL", help: "The tool."), .variadic("EXTRA", help: "More.")])

    struct Other: Error, CustomStringConvertible { var description: String { "other" } }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let tool = arguments.positional("TOOL")!
        switch tool {
        case "fail": throw CommandError("no model available", exitCode: .noModel)
        case "usage": throw UsageError("bad tool name")
        case "other": throw Other()
        default: break
        }
        context.stdout.line(
            "tool=\(tool) args=\(arguments.value(of: "args") ?? "nil") json=\(arguments.flag("json"))"
                + " tags=\(arguments.values(of: "tag").joined(separator: ","))"
                + " extra=\(arguments.positionals("EXTRA").joined(separator: ","))"
                + " plugins=\(arguments.value(of: "plugins") ?? "nil")")
        return .success
    }
}
