import Foundation

/// One running `agent-tool-host` process and its three pipes.
///
/// Started with `posix_spawn` (Foundation's `Process` costs milliseconds to wait for), read with
/// `poll` so every read has a deadline, and reaped with `waitpid`. The worker's stderr is drained
/// while waiting for replies and its tail kept for crash reports. Not thread-safe: the owning
/// `WorkerClient` serialises use.
final class WorkerProcess {
    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private let errors: Int32
    private var pending = LineBuffer()
    private(set) var stderrTail = BoundedTail(capacity: 64 * 1024)
    private var reaped = false

    enum ReadOutcome {
        case line([UInt8])
        case endOfFile
        case timedOut
        case tooLong(Int)
    }

    /// Spawns `executable` with `arguments`; the child gets the current environment plus
    /// `SWIFT_BACKTRACE=enable=no` (a crashing plugin should not spend a second printing a backtrace).
    init(executable: String, arguments: [String]) throws(PluginLoadError) {
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
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
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
        if !reaped {
            _ = Foundation.kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

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
    /// Never after `reap`: the pid may belong to another process by then.
    func kill() {
        guard !reaped else { return }
        _ = Foundation.kill(pid, SIGKILL)
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
    func reap(graceSeconds: Double? = nil) -> String {
        guard !reaped else { return "already reaped" }
        var status: Int32 = 0
        if let graceSeconds {
            let deadline = monotonicSeconds() + graceSeconds
            while waitpid(pid, &status, WNOHANG) == 0 {
                if monotonicSeconds() > deadline {
                    _ = Foundation.kill(pid, SIGKILL)
                    break
                }
                usleep(1000)
            }
        }
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        drainStderr()
        let signal = status & 0x7F
        if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        let name = strsignal(signal).map { String(cString: $0) } ?? "unknown"
        return "was killed by signal \(signal) (\(name))"
    }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
