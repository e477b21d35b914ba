import Foundation
import TrailheadSupport

/// One running worker process (`agent-tool-host`, or an MCP stdio server) and its three pipes.
///
/// Started with `posix_spawn` (Foundation's `Process` costs milliseconds to wait for), read with
/// `poll` so every read has a deadline, and reaped with `waitpid`. The worker's stderr is drained
/// while waiting for replies and its tail kept for crash reports. Not thread-safe: the owning
/// `WorkerClient` serialises use.
final class WorkerProcess: WorkerChannel {
    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private let errors: Int32
    private var pending = LineBuffer()
    private(set) var stderrTail = BoundedTail(capacity: 64 * 1024)
    /// Guards `reaped` and the signal sent by `kill()` (which may come from another thread).
    private let reapLock = NSLock()
    private var reaped = false

    typealias ReadOutcome = WorkerReadOutcome

    /// Spawns `executable` with `arguments`; the child gets the current environment plus
    /// `environment` and `SWIFT_BACKTRACE=enable=no` (a crashing plugin should not spend a second
    /// printing a backtrace). An `executable` without a `/` is looked up in `PATH` (an MCP
    /// server's `python3`); `directory` is the child's working directory.
    init(executable: String, arguments: [String], environment extra: [String: String] = [:], directory: String? = nil)
        throws(PluginLoadError)
    {
        Self.ignoreSIGPIPE
        var stdinPipe: [Int32] = [-1, -1], stdoutPipe: [Int32] = [-1, -1], stderrPipe: [Int32] = [-1, -1]
        guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else {
            throw PluginLoadError("cannot create pipes for a worker: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec: no other child (another plugin's worker) may inherit these ends, or EOF
        // would never come. (pipe2 is not visible from Swift's Glibc; the window between pipe and
        // fcntl only matters if another thread spawns at that instant.)
        for fd in stdinPipe + stdoutPipe + stderrPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        if let directory {
            guard let addChdir = Self.addChdir else { throw PluginLoadError("cannot start \(executable) in \(directory): this C library has no posix_spawn_file_actions_addchdir_np") }
            _ = addChdir(&actions, directory)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status =
            executable.contains("/")
            ? posix_spawn(&child, executable, &actions, &attributes, argv, envp)
            : posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
        for fd in [stdinPipe[0], stdoutPipe[1], stderrPipe[1]] { close(fd) }
        guard status == 0 else {
            for fd in [stdinPipe[1], stdoutPipe[0], stderrPipe[0]] { close(fd) }
            throw PluginLoadError("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        input = stdinPipe[1]
        output = stdoutPipe[0]
        errors = stderrPipe[0]
    }

    private var inputOpen = true

    deinit {
        closeInput()
        close(output)
        close(errors)
        if !reapLock.withLock({ reaped }) {
            _ = Foundation.kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// glibc ≥ 2.29 has it, but its declaration is not visible from Swift's Glibc module.
    private static let addChdir: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
    }()

    /// Writing to a worker that died must be an error (EPIPE), not a signal that kills the host.
    private static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Writes all of `bytes`; false when the worker is gone.
    func send(_ bytes: [UInt8]) -> Bool {
        guard inputOpen else { return false }
        return bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(input, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Reads one newline-terminated line from the worker's stdout, draining stderr meanwhile.
    func readLine(deadline: Double, maximumBytes: Int) -> ReadOutcome {
        while true {
            if let line = pending.nextLine() { return .line(line) }
            if pending.pendingCount > maximumBytes { return .tooLong(pending.pendingCount) }
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { return .timedOut }
            var fds = (pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0))
            let ready = withUnsafeMutableBytes(of: &fds) { buffer in
                poll(buffer.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, Int32(min(remaining * 1000, Double(Int32.max)).rounded(.up)))
            }
            if ready < 0 {
                if errno == EINTR { continue }
                return .endOfFile
            }
            if fds.1.revents != 0 { drainStderr() }
            if fds.0.revents != 0 {
                let count = pending.fill(from: output)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return .endOfFile }
            }
        }
    }

    func stderrExcerpt(last bytes: Int) -> String { stderrTail.text(last: bytes) }

    /// Moves whatever the worker wrote to stderr into the bounded tail.
    func drainStderr() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var fd = pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 0) > 0 else { return }
            let count = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress!, $0.count) }
            guard count > 0 else { return }
            stderrTail.append(buffer[0..<count])
        }
    }

    /// Kills the worker with SIGKILL (it may be stuck in a plugin that ignores everything else).
    /// Safe from any thread (a cancelled call kills its worker from the canceller's thread); never
    /// after `reap`, when the pid may belong to another process.
    func kill() {
        reapLock.withLock {
            guard !reaped else { return }
            _ = Foundation.kill(pid, SIGKILL)
        }
    }

    /// Closes the worker's stdin, which asks a healthy worker to close its plugin and exit.
    func closeInput() {
        guard inputOpen else { return }
        inputOpen = false
        close(input)
    }

    /// Waits for the worker to end and says how it ended ("was killed by signal 11 (Segmentation fault)").
    /// With `graceSeconds`, a worker still running after that long is killed (a plugin's `close`
    /// must not hold up the host's shutdown forever).
    @discardableResult
    func reap(graceSeconds: Double?) -> String {
        guard !reapLock.withLock({ reaped }) else { return "already reaped" }
        if let graceSeconds {
            let deadline = monotonicSeconds() + graceSeconds
            while !hasExited(blocking: false) {
                if monotonicSeconds() > deadline {
                    kill()
                    break
                }
                usleep(1000)
            }
        }
        // Wait for the exit without reaping (WNOWAIT): while the child is a zombie its pid cannot
        // be reused, so a `kill()` racing with this wait hits the right process or none.
        _ = hasExited(blocking: true)
        var status: Int32 = 0
        reapLock.withLock {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            reaped = true
        }
        drainStderr()
        let signal = status & 0x7F
        if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        let name = strsignal(signal).map { String(cString: $0) } ?? "unknown"
        return "was killed by signal \(signal) (\(name))"
    }

    /// Whether the child has exited, leaving it unreaped.
    private func hasExited(blocking: Bool) -> Bool {
        var info = siginfo_t()
        while true {
            let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | (blocking ? 0 : WNOHANG))
            if result < 0 && errno == EINTR { continue }
            // With WNOHANG and no change, waitid succeeds and leaves si_pid zero.
            return result < 0 || info._sifields._sigchld.si_pid == pid
        }
    }
}
