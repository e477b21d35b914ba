import Foundation
import TrailheadSupport

/// Runs the built `agent` executable as a subprocess, the way a user or a script does.
public enum AgentProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The environment every run gets besides the caller's: no crash backtraces in the outputs a
    /// test reads, no colours.
    public static let quiet: [String: String?] = ["SWIFT_BACKTRACE": "enable=no", "NO_COLOR": "1"]

    /// Runs `agent arguments…` to its end with `input` on stdin and returns its status and outputs.
    /// `executable` runs another program the same way (an example agent).
    public static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:], executable: String? = nil) throws -> Result {
        var changes = quiet
        for (name, value) in environment { changes[name] = value }
        let completed = try ChildProcess.run(
            try executable ?? BuildProducts.path("agent"), arguments, input: Array(input.utf8),
            options: .init(environment: ChildProcess.Options.environment(adding: changes)))
        return Result(status: completed.status, stdout: completed.stdout, stderr: completed.stderr)
    }
}
