import CTrailheadSystem
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process started by the one process runner every part uses: plugin workers, the
/// managed llama-server and its watchdog, helper programs, and the tests.
///
/// Started with `posix_spawn` (Foundation's `Process` costs 25–50 ms to wait for; `posix_spawn`
/// and `waitpid` about 0.5 ms). Whatever the caller's state, the child starts clean:
/// - it holds only descriptors 0, 1 and 2, and those handed over as 3, 4, … Pipes are created
///   close-on-exec, and the child closes every other descriptor before `exec` (a managed server
///   was seen holding its caller's lock file and a pipe for ten minutes after `agent` exited);
/// - its signal mask is empty and every signal has its default disposition (a worker restarted
///   while `agent plan` ignored SIGINT used to inherit the ignored SIGINT);
/// - it runs in the caller's process group, a new group, or a new session, as asked.
///
/// Not thread-safe: one owner reads, writes and waits.
public final class ChildProcess {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// This process's own standard input.
        case inherit
        /// A pipe whose write end is `standardInput`.
        case pipe
    }

    /// Where the child's standard output or error goes.
    public enum Output: Sendable {
        case null
        case inherit
        /// A pipe whose read end is `standardOutput` / `standardError`.
        case pipe
        /// A file, created when missing, appended to (or truncated).
        case file(String, append: Bool = true)
        /// Standard error only: wherever standard output goes.
        case standardOutput
    }

    /// Which process group the child joins.
    public enum Grouping: Sendable {
        /// The caller's: a Ctrl-C in the terminal reaches both.
        case inherit
        /// A group of its own (its id is the child's pid), so one signal reaches it and everything it starts.
        case newGroup
        /// A session of its own, detached from the terminal: it outlives the command that started it.
        case newSession
    }

    /// How to start a child.
    public struct Options: Sendable {
        /// The child's whole environment; `nil` passes this process's environment on.
        public var environment: [String: String]?
        /// The child's working directory; `nil` keeps the caller's.
        public var directory: String?
        public var standardInput: Input
        public var standardOutput: Output
        public var standardError: Output
        public var grouping: Grouping
        /// Stopped (with its group) by `interruptAll()`: work this process waits on, which an
        /// interrupted command ends once it has cancelled its own.
        public var interruptible: Bool
        /// Descriptors handed over besides the standard streams: the child has them as 3, 4, …
        /// in this order (the caller keeps, and closes, its own).
        public var descriptors: [Int32]

        public init(
            environment: [String: String]? = nil, directory: String? = nil, standardInput: Input = .null,
            standardOutput: Output = .null, standardError: Output = .null, grouping: Grouping = .inherit,
            interruptible: Bool = false, descriptors: [Int32] = []
        ) {
            self.descriptors = descriptors
            self.environment = environment
            self.directory = directory
            self.standardInput = standardInput
            self.standardOutput = standardOutput
            self.standardError = standardError
            self.grouping = grouping
            self.interruptible = interruptible
        }

        /// This process's environment with `changes` applied (a `nil` value removes the variable).
        public static func environment(adding changes: [String: String?]) -> [String: String] {
            var environment = ProcessInfo.processInfo.environment
            for (name, value) in changes { environment[name] = value }
            return environment
        }
    }

    public let pid: pid_t
    /// Our ends of the pipes asked for, else `nil`. `closeStandardInput()` closes the first; the
    /// others close when the process object goes away.
    public private(set) var standardInput: Int32?
    public let standardOutput: Int32?
    public let standardError: Int32?
    /// Whether `interruptAll` stops it (see `Options.interruptible`).
    public let interruptible: Bool

    /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments`.
    public init(_ executable: String, _ arguments: [String], options: Options = Options()) throws(SpawnError) {
        Self.ignoreSIGPIPE
        var parentEnds: [Int32] = []  // closed if the spawn fails
        var childEnds: [Int32] = []  // closed once the child has them
        defer { childEnds.forEach { close($0) } }
        func pipePair() throws(SpawnError) -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            let result = th_pipe_cloexec(&fds)
            guard result == 0 else {
                parentEnds.forEach { close($0) }
                throw SpawnError(executable, "cannot create a pipe: \(String(cString: strerror(-result)))")
            }
            return (fds[0], fds[1])
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var input: Int32?, output: Int32?, errors: Int32?
        switch options.standardInput {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .inherit: break
        case .pipe:
            let pair = try pipePair()
            parentEnds.append(pair.write)
            childEnds.append(pair.read)
            input = pair.write
            posix_spawn_file_actions_adddup2(&actions, pair.read, 0)
        }
        for (fd, target) in [(Int32(1), options.standardOutput), (Int32(2), options.standardError)] {
            switch target {
            case .null: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .inherit: break
            case .file(let path, let append):
                posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0o644)
            case .standardOutput: posix_spawn_file_actions_adddup2(&actions, 1, fd)
            case .pipe:
                let pair = try pipePair()
                parentEnds.append(pair.read)
                childEnds.append(pair.write)
                if fd == 1 { output = pair.read } else { errors = pair.read }
                posix_spawn_file_actions_adddup2(&actions, pair.write, fd)
            }
        }
        // Copies above any target first, so handing over 4 as 3 and 3 as 4 cannot clobber one.
        let copies = options.descriptors.map { fcntl($0, F_DUPFD_CLOEXEC, 100) }
        childEnds += copies.filter { $0 >= 0 }
        guard !copies.contains(where: { $0 < 0 }) else {
            parentEnds.forEach { close($0) }
            throw SpawnError(executable, "cannot hand over descriptors \(options.descriptors): \(String(cString: strerror(errno)))")
        }
        for (index, copy) in copies.enumerated() { posix_spawn_file_actions_adddup2(&actions, copy, Int32(3 + index)) }
        Self.closeEverything(from: Int32(3 + copies.count), &actions)
        if let directory = options.directory {
            let result = th_spawn_addchdir(&actions, directory)
            guard result == 0 else {
                parentEnds.forEach { close($0) }
                throw SpawnError(executable, "cannot start it in \(directory): \(String(cString: strerror(-result)))")
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        switch options.grouping {
        case .inherit: break
        case .newGroup:
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        case .newSession: flags |= th_spawn_setsid_flag()
        }
        posix_spawnattr_setflags(&attributes, flags)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        // Every signal back to its default (glibc's sigfillset leaves out its internal ones).
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = options.environment ?? ProcessInfo.processInfo.environment
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let status = Self.interruptibles.withLock { live in
            let status =
                executable.contains("/")
                ? posix_spawn(&child, executable, &actions, &attributes, argv, envp)
                : posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
            if status == 0 && options.interruptible { live[child] = options.grouping != .inherit }
            return status
        }
        guard status == 0 else {
            parentEnds.forEach { close($0) }
            throw SpawnError(executable, String(cString: strerror(status)))
        }
        pid = child
        interruptible = options.interruptible
        standardInput = input
        standardOutput = output
        standardError = errors
    }

    deinit {
        for fd in [standardInput, standardOutput, standardError].compactMap({ $0 }) { close(fd) }
    }

    /// Closes our end of the child's standard input (the child reads end of file).
    public func closeStandardInput() {
        guard let fd = standardInput else { return }
        close(fd)
        standardInput = nil
    }

    /// Sends `signal` to the child, or to its whole group when it leads one. For an
    /// `interruptible` child, safe from any thread: it is signalled only while not reaped, so
    /// never a process that took its pid since.
    @discardableResult
    public func signal(_ signal: Int32, group: Bool = false) -> Bool {
        Self.interruptibles.withLock { live in
            guard !interruptible || live[pid] != nil else { return false }
            return Glibc.kill(group ? -pid : pid, signal) == 0
        }
    }

    /// Waits for the child to end and reaps it (once: later calls give the same answer).
    public func wait() -> ProcessTermination {
        if let ended { return ended }
        let termination = Self.wait(for: pid)
        ended = termination
        return termination
    }

    /// How the child ended, reaping it; `nil` while it runs.
    public func termination() -> ProcessTermination? {
        if ended == nil { ended = Self.termination(of: pid) }
        return ended
    }

    public var isRunning: Bool { termination() == nil }

    private var ended: ProcessTermination?

    /// Waits for `pid` (a child of this process) to end and reaps it.
    public static func wait(for pid: pid_t) -> ProcessTermination {
        // Wait for the exit without reaping: until it is reaped the pid cannot be reused, so
        // `interruptAll` never signals a stranger.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        return reap(pid) ?? .exited(status: -1)
    }

    /// How `pid` (a child of this process) ended, reaping it; `nil` while it runs.
    public static func termination(of pid: pid_t) -> ProcessTermination? {
        var info = siginfo_t()
        if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | WNOHANG) == 0 {
            // With WNOHANG and no exit yet, waitid succeeds and leaves si_pid zero.
            return info._sifields._sigchld.si_pid == pid ? reap(pid) : nil
        }
        return nil  // not our child, or reaped already
    }

    /// Reaps an exited child and forgets it, under the lock `interruptAll` takes.
    private static func reap(_ pid: pid_t) -> ProcessTermination? {
        interruptibles.withLock { live in
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped != 0 { live[pid] = nil }
            return reaped == pid ? ProcessTermination(waitStatus: status) : nil
        }
    }

    /// Sends `signal` to every running child started `interruptible` (to its whole group when
    /// it leads one). An interrupted command calls it after cancelling its own work, so that
    /// work sees the cancellation before the calls it waits on fail. Returns how many it signalled.
    @discardableResult
    public static func interruptAll(_ signal: Int32 = SIGKILL) -> Int {
        interruptibles.withLock { live in
            for (pid, leadsGroup) in live { _ = Glibc.kill(leadsGroup ? -pid : pid, signal) }
            return live.count
        }
    }

    /// Interruptible children not reaped yet, and whether each leads a process group.
    private static let interruptibles = Mutex<[pid_t: Bool]>([:])

    /// A broken pipe to a child that died must be an error (EPIPE), not a signal that kills this
    /// process. Children start with SIGPIPE at its default again.
    private static let ignoreSIGPIPE: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    /// The child closes every descriptor from `lowest` up before `exec`: close-on-exec is only
    /// as good as every library that opens a file in this process, so the child makes sure.
    private static func closeEverything(from lowest: Int32, _ actions: inout posix_spawn_file_actions_t) {
        if th_spawn_addclosefrom(&actions, lowest) == 0 { return }
        // A C library without closefrom: close what is open now.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd >= lowest { posix_spawn_file_actions_addclose(&actions, fd) }
    }
}

/// A program that could not be started, and why.
public struct SpawnError: Error, Sendable, CustomStringConvertible {
    public var executable: String
    public var reason: String

    init(_ executable: String, _ reason: String) {
        self.executable = executable
        self.reason = reason
    }

    public var description: String { "cannot start \(executable): \(reason)" }
}
