/// The process exit status of `agent`. These values are part of its interface: scripts rely on them.
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// 0: the command did its job (for checks: everything was valid).
    public static let success = ExitCode(0)
    /// 1: the command ran but failed, or found something invalid.
    public static let failure = ExitCode(1)
    /// 2: the command line was wrong (unknown command or option, missing or extra argument,
    /// unusable input such as an unreadable or unsupported schema).
    public static let usage = ExitCode(2)
    /// 3: no language model is available (the message says why and what to do).
    public static let noModel = ExitCode(3)

    public var description: String { String(rawValue) }
}
