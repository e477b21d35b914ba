import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Starting and watching processes with `posix_spawn` (Foundation's `Process.waitUntilExit`
/// costs 25–50 ms here; `posix_spawn` + `waitpid` about 0.5 ms).
enum ProcessSpawner {
    /// Starts `executable` with `arguments`, stdin from /dev/null and stdout+stderr appended to
    /// `logPath`. With `detached`, the child gets its own session, so a Ctrl-C in the terminal
    /// that started it does not reach it (the managed server outlives the command that started it).
    static func spawn(_ executable: String, _ arguments: [String], logPath: String, detached: Bool) throws(ModelError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the caller's: a detached server that kept a caller's pipe open kept a
        // test waiting for its output until the idle watchdog stopped the server, 10 minutes on.
        _ = closeFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if detached { flags |= 0x80 }  // POSIX_SPAWN_SETSID (glibc ≥ 2.26); not imported as a constant
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }

        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw .localServer(message: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        _ = terminations.withLock { $0.removeValue(forKey: pid) }
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift does not import.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Runs `executable` to completion and returns its exit status and standard output
    /// (standard error is discarded).
    static func output(of executable: String, _ arguments: [String]) throws(ModelError) -> (status: Int32, stdout: String) {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw .localServer(message: "cannot create a pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        close(pipeFDs[1])
        defer { close(pipeFDs[0]) }
        guard spawned == 0 else {
            throw .localServer(message: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(pipeFDs[0], &buffer, buffer.count)
            if n > 0 { output += buffer[0..<n] } else if n == 0 || errno != EINTR { break }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exited, String(decoding: output, as: UTF8.self))
    }

    /// Waits for a child on a thread of its own, so one nobody else waits for is reaped when it
    /// exits. Never use it for a child that `isAlive` or `terminate` will wait for.
    static func reapWhenItExits(_ pid: pid_t) {
        Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }.start()
    }

    /// True while `pid` is a live process (not a zombie). Reaps it first if it is our child.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        if termination(of: pid) != nil { return false }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        // A zombie of another parent still answers kill(0): look at its state.
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        {
            let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
            return state != "Z" && state != "X"
        }
        return true
    }

    /// How our child `pid` ended, once it has; nil while it runs, and for a process that is not
    /// our child (a server started by another `agent` command: only its parent can know).
    /// Reaps it, and remembers the answer, so asking again gives the same one.
    static func termination(of pid: pid_t) -> ProcessTermination? {
        guard pid > 0 else { return nil }
        return terminations.withLock { known in
            if let ended = known[pid] { return ended }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            let ended = ProcessTermination(waitStatus: status)
            known[pid] = ended
            return ended
        }
    }

    /// Children reaped by `termination(of:)`, by pid. A pid is reused only after it was reaped, so
    /// a new child with an old pid must clear its entry: `spawn` does.
    private static let terminations = Locked<[pid_t: ProcessTermination]>([:])

    /// The executable path of `pid` (Linux `/proc`), to tell our server from a reused pid.
    static func executablePath(_ pid: pid_t) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; waits until it is gone.
    static func terminate(_ pid: pid_t, grace: Double = 3) {
        guard isAlive(pid) else { return }
        kill(pid, SIGTERM)
        let deadline = monotonicSeconds() + grace
        while isAlive(pid), monotonicSeconds() < deadline { usleep(20_000) }
        if isAlive(pid) {
            kill(pid, SIGKILL)
            let hardDeadline = monotonicSeconds() + 2
            while isAlive(pid), monotonicSeconds() < hardDeadline { usleep(10_000) }
        }
    }
}
