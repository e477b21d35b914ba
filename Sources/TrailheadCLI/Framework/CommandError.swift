/// A failure a command reports by throwing: printed as `agent: <message>` on stderr, and the
/// process exits with `exitCode`.
public struct CommandError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var exitCode: ExitCode

    public init(_ message: String, exitCode: ExitCode = .failure) {
        self.message = message
        self.exitCode = exitCode
    }

    public var description: String { message }
}

/// A mistake on the command line: printed as one line, then the command's usage, on stderr;
/// exits with 2. Commands may throw it too when an argument's value is unusable.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
