#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What a command may use of the world: its outputs, input, environment and location.
/// Commands take everything from here (never from globals) so tests can run them in-process.
public struct CommandContext: Sendable {
    public var stdout: TextOutput
    public var stderr: TextOutput
    /// Reads standard input to its end.
    public var readStandardInput: @Sendable () -> [UInt8]
    public var environment: [String: String]
    /// The real path of the running executable (symlinks resolved).
    public var executablePath: String
    public var currentDirectory: String

    public init(
        stdout: TextOutput, stderr: TextOutput, readStandardInput: @escaping @Sendable () -> [UInt8],
        environment: [String: String], executablePath: String, currentDirectory: String
    ) {
        self.stdout = stdout
        self.stderr = stderr
        self.readStandardInput = readStandardInput
        self.environment = environment
        self.executablePath = executablePath
        self.currentDirectory = currentDirectory
    }

    /// The context of the running process.
    public static func process() -> CommandContext {
        CommandContext(
            stdout: .standardOutput, stderr: .standardError,
            readStandardInput: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) },
            environment: ProcessInfo.processInfo.environment,
            executablePath: realExecutablePath(),
            currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// Whether to colour stdout: only on a terminal, and never when `NO_COLOR` is set to anything
    /// non-empty (https://no-color.org) or `TERM` is `dumb`.
    public var usesColor: Bool {
        stdout.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// `text` wrapped in an ANSI colour when `usesColor`, unchanged otherwise.
    public func styled(_ text: String, _ style: TextStyle) -> String {
        usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Resolves a path given on the command line against the current directory.
    public func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : (currentDirectory as NSString).appendingPathComponent(path)
    }

    private static func realExecutablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 { return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return (CommandLine.arguments[0] as NSString).resolvingSymlinksInPath
    }
}

/// ANSI styles used by commands.
public enum TextStyle: String, Sendable {
    case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", cyan = "36"
}
