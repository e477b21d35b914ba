import TrailheadAgent

/// `agent`: the root of the command line. Add a top-level command by listing it in `subcommands`.
public struct AgentCommand: Command {
    /// What `agent --version` prints after the name.
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        name: "agent",
        summary: "Run and inspect Trailhead agents, their tools and schemas.",
        discussion: """
            Exit codes: 0 success, 1 failure or invalid input found, 2 usage error, \
            3 no model available.
            """,
        subcommands: [
            PlanCommand.self, RunCommand.self, EvalCommand.self, ServeCommand.self, ToolsCommand.self, MCPCommand.self, TranscriptCommand.self,
            ModelCommand.self,
            DoctorCommand.self, GeodataCommand.self, SchemaCommand.self, WorkerCommand.self, RunsCommand.self,
        ])

    public init() {}

    /// Runs `agent` with the process's command line and returns its exit status, once the spans
    /// of its sessions reached the OTLP endpoint (when `OTEL_EXPORTER_OTLP_ENDPOINT` names one;
    /// at most 5 s more).
    public static func main(_ commandLine: [String]) -> Int32 {
        let status = main(commandLine, version: version)
        Telemetry.process?.exporter.flush(timeout: 5)
        return status
    }

    /// The same with an explicit context (tests run commands in-process through it).
    public static func main(_ commandLine: [String], context: CommandContext) -> Int32 {
        main(commandLine, version: version, context: context)
    }
}
