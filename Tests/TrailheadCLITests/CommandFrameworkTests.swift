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
        XCTAssertTrue(run(["tools", "-h"]).out.contains("Commands:\n  call   Call one tool.\n  typed  Typed options.\n"))
        let leaf = run(["tools", "call", "--help"]).out
        XCTAssertTrue(leaf.hasPrefix("usage: tool tools call [options] TOOL [EXTRA…]\n"), leaf)
        XCTAssertTrue(leaf.contains("  --tag TAG"), leaf)
        XCTAssertTrue(leaf.contains("(repeatable)"), leaf)
        XCTAssertTrue(leaf.contains("  -j, --json"), leaf)
        XCTAssertEqual(run(["--version"]).out, "tool 9.9\n")
        XCTAssertEqual(run(["tools", "--version"]).status, 2, "--version belongs to the root only")
    }

    func testTypedOptionsTakeTheirDefaults() {
        let result = run(["tools", "typed"])
        XCTAssertEqual(result.out, "days=3 temperature=nil runs=1 shape=round port=nil names=a+b numbers= dryRun=false\n")
        XCTAssertEqual(result.status, 0)
    }

    func testTypedOptionsReadTheirValues() {
        let result = run([
            "tools", "typed", "--days", "14", "--temperature=0.5", "--runs", "7", "--shape", "square", "--port", "0",
            "--names", " x, ,y ", "--with", "1", "--with", "2", "--dry-run",
        ])
        XCTAssertEqual(result.out, "days=14 temperature=0.5 runs=7 shape=square port=0 names=x+y numbers=1+2 dryRun=true\n")
        XCTAssertEqual(result.status, 0, result.err)
    }

    func testAValueOutsideItsDeclarationIsAUsageErrorNamingIt() {
        for (words, message) in [
            (["--days", "20"], "--days must be an integer from 1 to 14, not '20'"),
            (["--days", "two"], "--days must be an integer from 1 to 14, not 'two'"),
            (["--temperature", "3"], "--temperature must be a number from 0 to 2, not '3'"),
            (["--runs", "0"], "--runs must be an integer ≥ 1, not '0'"),
            (["--shape", "oval"], "--shape must be one of round, square, not 'oval'"),
            (["--port", "70000"], "--port must be a port from 0 to 65535, not '70000'"),
            (["--with", "1", "--with", "x"], "--with must be an integer, not 'x'"),
        ] {
            let result = run(["tools", "typed"] + words)
            XCTAssertEqual(result.status, 2, "\(words)")
            XCTAssertEqual(result.out, "", "\(words): the command did not run")
            XCTAssertTrue(result.err.hasPrefix("tool: \(message)\nusage: tool tools typed [options]\n"), "\(words): \(result.err)")
        }
    }

    func testHelpIsWrittenFromTheDeclarations() {
        let help = run(["tools", "typed", "--help"]).out
        XCTAssertTrue(help.hasPrefix("usage: tool tools typed [options]\n\nTyped options.\n"), help)
        for line in ["  --days N ", "Days (default 3).", "  --dry-run ", "  --with N ", "Numbers. (repeatable)", "  --port PORT "] {
            XCTAssertTrue(help.contains(line), "\(line) missing from \(help)")
        }
        XCTAssertLessThan(help.range(of: "--days")!.lowerBound, help.range(of: "--dry-run")!.lowerBound, "in declaration order")
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
    static let configuration = CommandConfiguration(name: "tool", summary: "A demo tool.", subcommands: [DemoTools.self])

    @OptionGroup var pluginFolders: PluginFolderOptions
}

private struct DemoTools: Command {
    static let configuration = CommandConfiguration(name: "tools", summary: "Work with tools.", subcommands: [DemoCall.self, DemoTyped.self])
}

private struct DemoCall: Command {
    static let configuration = CommandConfiguration(name: "call", summary: "Call one tool.")

    @Option(valueName: "JSON", help: "Arguments.") var args: String?
    @Flag(short: "j", help: "JSON output.") var json: Bool
    @Option(valueName: "TAG", help: "A tag.") var tag: [String] = []
    @OptionGroup var pluginFolders: PluginFolderOptions
    @Argument("TOOL", help: "The tool.") var tool: String
    @Argument("EXTRA", help: "More.") var extra: [String]

    struct Other: Error, CustomStringConvertible { var description: String { "other" } }

    func run(context: CommandContext) async throws -> ExitCode {
        switch tool {
        case "fail": throw CommandError("no model available", exitCode: .noModel)
        case "usage": throw UsageError("bad tool name")
        case "other": throw Other()
        default: break
        }
        context.stdout.line(
            "tool=\(tool) args=\(args ?? "nil") json=\(json)"
                + " tags=\(tag.joined(separator: ","))"
                + " extra=\(extra.joined(separator: ","))"
                + " plugins=\(pluginFolders.plugins ?? "nil")")
        return .success
    }
}

/// Every kind of typed option: defaults, bounds, closed sets, optional and repeatable values.
private struct DemoTyped: Command {
    static let configuration = CommandConfiguration(name: "typed", summary: "Typed options.")

    enum Shape: String, CaseIterable, ArgumentValue { case round, square }

    @Option(valueName: "N", in: 1...14, help: "Days (default 3).") var days = 3
    @Option(valueName: "T", in: 0.0...2.0, help: "Temperature.") var temperature: Double?
    @Option(valueName: "N", in: 1..., help: "Runs.") var runs = 1
    @Option(valueName: "SHAPE", help: "A shape.") var shape = Shape.round
    @Option(valueName: "PORT", in: PortNumber.any, help: "A port.") var port: PortNumber?
    @Option(valueName: "LIST", help: "Names.") var names: NameList = ["a", "b"]
    @Option(name: "with", valueName: "N", help: "Numbers.") var numbers: [Int] = []
    @Flag(help: "Dry run.") var dryRun: Bool

    func run(context: CommandContext) async throws -> ExitCode {
        context.stdout.line(
            "days=\(days) temperature=\(temperature.map { "\($0)" } ?? "nil") runs=\(runs) shape=\(shape.rawValue)"
                + " port=\(port.map { "\($0.number)" } ?? "nil") names=\(names.names.joined(separator: "+"))"
                + " numbers=\(numbers.map(String.init).joined(separator: "+")) dryRun=\(dryRun)")
        return .success
    }
}
