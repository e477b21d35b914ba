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

    /// Starts `agent arguments…` as a terminal starts a command in the foreground, leading a process
    /// group of its own, so that a test can type the terminal's Ctrl-C (`interrupt()`: SIGINT to the
    /// whole group). Its standard output and error go to `stdout` and `stderr` in `folder`.
    public static func start(_ arguments: [String], environment: [String: String] = [:], folder: String) throws -> Started {
        try Started(arguments, environment: quiet.merging(environment) { $1 }, folder: folder)
    }

    /// An `agent` a test started and has not seen end yet: killed with its group when it goes, so a
    /// failed test leaves nothing running.
    public final class Started {
        public let process: ChildProcess
        public let folder: String

        init(_ arguments: [String], environment: [String: String?], folder: String) throws {
            self.folder = folder
            process = try ChildProcess(
                try BuildProducts.path("agent"), arguments,
                options: .init(
                    environment: ChildProcess.Options.environment(adding: environment), standardOutput: .file(folder + "/stdout"),
                    standardError: .file(folder + "/stderr"), grouping: .newGroup))
        }

        deinit {
            if process.termination() == nil {
                process.signal(SIGKILL, group: true)
                _ = process.wait()
            }
        }

        public var stdout: String { (try? String(contentsOfFile: folder + "/stdout", encoding: .utf8)) ?? "" }
        public var stderr: String { (try? String(contentsOfFile: folder + "/stderr", encoding: .utf8)) ?? "" }

        /// The terminal's Ctrl-C: SIGINT to the agent's whole process group.
        @discardableResult
        public func interrupt() -> Bool { process.signal(SIGINT, group: true) }

        /// How the agent ended, once it has, within `timeout` seconds.
        public func ended(within timeout: Double) throws -> ProcessTermination {
            var ended: ProcessTermination?
            try waitUntil("the agent ends", timeout: timeout) {
                ended = process.termination()
                return ended != nil
            }
            return ended!
        }
    }
}
