#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended: by exiting, or killed by a signal. Kept apart because they call
/// for different fixes: an exit status is the program's own verdict (a port in use, a bad
/// argument), a signal is the system's (SIGILL: an instruction this CPU will not execute).
public enum ProcessTermination: Sendable, Equatable, CustomStringConvertible {
    case exited(status: Int32)
    case killed(signal: Int32)

    /// Decodes a `waitpid` status (the `WIFEXITED`/`WTERMSIG` macros do not import into Swift).
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited(status: (status >> 8) & 0xff) : .killed(signal: signal)
    }

    /// True for a signal that means the program itself faulted, not that someone stopped it.
    public var isCrash: Bool {
        guard case .killed(let signal) = self else { return false }
        return [SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGSYS, SIGTRAP].contains(signal)
    }

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .killed(let signal): "was killed by signal \(signal) (\(Self.name(of: signal)))"
        }
    }

    /// "SIGILL, illegal instruction", or the number when the signal has no common name.
    static func name(of signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
            SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGSYS: "SIGSYS",
        ]
        let meaning = strsignal(signal).map { String(cString: $0).lowercased() }
        switch (names[signal], meaning) {
        case (let name?, let meaning?): return "\(name), \(meaning)"
        case (let name?, nil): return name
        default: return "signal \(signal)"
        }
    }
}
