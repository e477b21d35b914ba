/// A command of the `agent` tool: a leaf that does one job (`agent schema check`) or a group
/// that only holds subcommands (`agent schema`).
///
/// Adding a command takes one file and one line:
///
/// ```swift
/// // Sources/TrailheadCLI/Commands/ToolsCallCommand.swift
/// struct ToolsCallCommand: Command {
///     static let configuration = CommandConfiguration(
///         name: "call", summary: "Call a tool with JSON arguments and print its result.")
///
///     @Argument("TOOL", help: "The tool's name.") var tool: String
///     @Option(valueName: "JSON", help: "The tool's arguments as a JSON object.") var args = "{}"
///     @Option(valueName: "MS", in: 1..., help: "The call's timeout.") var timeoutMs: Int?
///     @Flag(help: "Print the raw JSON result.") var json: Bool
///     @OptionGroup var folders: PluginFolderOptions
///
///     func run(context: CommandContext) async throws -> ExitCode {
///         context.stdout.line("calling \(tool) with \(args) from \(folders.resolved(context).plugins)")
///         return .success
///     }
/// }
/// ```
///
/// then list it in its parent's `subcommands` (here `ToolsCommand`, itself listed in
/// `AgentCommand`). Each property declares one argument, with its name (the property's, in
/// dashes: `timeoutMs` is `--timeout-ms`), type, default, bounds and help together; the framework
/// parses the words into those typed values, answers `--help`/`-h` at every level from the
/// declarations, and turns usage mistakes (an unknown option, `--timeout-ms 0`) into exit code 2
/// before `run` is called. A command reports a failure either by returning `.failure` after
/// writing its message to `context.stderr`, or by throwing: a `CommandError` carries its own exit
/// code; any other error is printed as `agent: error: …` and exits with 1.
public protocol Command: ParsableArguments {
    /// Name, summary, discussion and subcommands; the arguments are the properties.
    static var configuration: CommandConfiguration { get }

    /// Does the command's job with its properties filled from the command line. Groups need not
    /// implement it: by default a group invoked without a subcommand is a usage error.
    func run(context: CommandContext) async throws -> ExitCode
}

// MARK: - Default implementations

extension Command {
    public func run(context: CommandContext) async throws -> ExitCode {
        throw UsageError("missing subcommand")
    }
}
