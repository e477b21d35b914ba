/// A command of the `agent` tool: a leaf that does one job (`agent schema check`) or a group
/// that only holds subcommands (`agent schema`).
///
/// Adding a command takes one file and one line:
///
/// ```swift
/// // Sources/TrailheadCLI/Commands/ToolsCallCommand.swift
/// struct ToolsCallCommand: Command {
///     static let configuration = CommandConfiguration(
///         name: "call",
///         summary: "Call a tool with JSON arguments and print its result.",
///         options: [
///             .option("args", valueName: "JSON", help: "The tool's arguments as a JSON object."),
///             .flag("json", help: "Print the raw JSON result."),
///             CommonOptions.plugins, CommonOptions.manifests,
///         ],
///         positionals: [.required("TOOL", help: "The tool's name.")])
///
///     static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
///         let tool = arguments.positional("TOOL")!
///         let json = arguments.value(of: "args") ?? "{}"
///         let folders = CommonOptions.folders(arguments, context: context)
///         context.stdout.line("calling \(tool) with \(json) from \(folders.plugins)")
///         return .success
///     }
/// }
/// ```
///
/// then list it in its parent's `subcommands` (here `ToolsCommand`, itself listed in
/// `AgentCommand`). The framework parses and checks the arguments against the configuration,
/// answers `--help`/`-h` at every level, and turns usage mistakes into exit code 2. A command
/// reports a failure either by returning `.failure` after writing its message to
/// `context.stderr`, or by throwing: a `CommandError` carries its own exit code; any other error
/// is printed as `agent: error: …` and exits with 1.
public protocol Command: Sendable {
    /// Name, summary, options, positionals and subcommands: everything usage and parsing need.
    static var configuration: CommandConfiguration { get }

    /// Does the command's job with arguments already checked against `configuration`.
    /// Groups need not implement it: by default a group invoked without a subcommand is a
    /// usage error.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode
}

// MARK: - Default implementations

extension Command {
    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        throw UsageError("missing subcommand")
    }
}
