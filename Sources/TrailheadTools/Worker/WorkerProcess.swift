import Foundation
import TrailheadSupport

/// One running worker process (`agent-tool-host`, or an MCP stdio server) and its three pipes.
///
/// Started through the one process runner (`ChildProcess`), read with `poll` so every read has a
/// deadline, and reaped with `waitpid`. The worker's stderr is drained while waiting for replies
/// and its tail kept for crash reports. Not thread-safe except `kill()`: the owning
/// `WorkerClient` serialises use.
final class WorkerProcess: WorkerChannel {
    let pid: pid_t
    /// Owns the pipes: they close when the worker process object goes away.
    private let child: ChildProcess
    private let input: Int32
    private let output: Int32
    private let errors: Int32
    private var pending = LineBuffer()
    private(set) var stderrTail = BoundedTail(capacity: 64 * 1024)
    private var reaped = false

    typealias ReadOutcome = WorkerReadOutcome

    /// Spawns `executable` with `arguments` through the one process runner (close-on-exec pipes,
    /// no other descriptor inherited, signals at their defaults). The child gets the current
    /// environment plus `environment` and `SWIFT_BACKTRACE=enable=no` (a crashing plugin should
    /// not spend a second printing a backtrace); an `executable` without a `/` is looked up in
    /// `PATH` (an MCP server's `python3`); `directory` is its working directory; `descriptors` are
    /// handed over as 3, 4, … (a plugin's config, which may be too large for the command line).
    ///
    /// Each worker leads a process group of its own: a Ctrl-C in the terminal reaches the agent
    /// alone, which cancels its work first and then stops its workers (`ChildProcess.interruptAll`),
    /// so a plan knows it was interrupted before a call fails. A worker whose host is gone exits
    /// by itself (`HostWatch`).
    init(
        executable: String, arguments: [String], environment extra: [String: String] = [:], directory: String? = nil,
        descriptors: [Int32] = []
    ) throws(PluginLoadError) {
        var changes: [String: String?] = extra
        changes["SWIFT_BACKTRACE"] = "enable=no"
        do {
            child = try ChildProcess(
                executable, arguments,
                options: .init(
                    environment: ChildProcess.Options.environment(adding: changes), directory: directory, standardInput: .pipe,
                    standardOutput: .pipe, standardError: .pipe, grouping: .newGroup, interruptible: true, descriptors: descriptors))
        } catch {
            throw PluginLoadError(error.description)
        }
        pid = child.pid
        input = child.standardInput!
        output = child.standardOutput!
        errors = child.standardError!
    }

    private var inputOpen = true

    deinit {
        closeInput()
        if !reaped {
            kill()
            _ = ChildProcess.wait(for: pid)
        }
    }

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

    /// Kills the worker, and whatever its plugin started, with SIGKILL (it may be stuck in a
    /// plugin that ignores everything else). Safe from any thread (a cancelled call kills its
    /// worker from the canceller's thread): the runner signals it only while it is not reaped,
    /// so never a process that took its pid afterwards.
    func kill() {
        child.signal(SIGKILL, group: true)
    }

    /// Closes the worker's stdin, which asks a healthy worker to close its plugin and exit.
    func closeInput() {
        guard inputOpen else { return }
        inputOpen = false
        child.closeStandardInput()
    }

    /// Waits for the worker to end and says how it ended ("was killed by signal 11 (SIGSEGV,
    /// segmentation fault)"). With `graceSeconds`, a worker still running after that long is
    /// killed (a plugin's `close` must not hold up the host's shutdown forever).
    @discardableResult
    func reap(graceSeconds: Double?) -> String {
        guard !reaped else { return "already reaped" }
        var ended: ProcessTermination?
        if let graceSeconds {
            let deadline = monotonicSeconds() + graceSeconds
            while true {
                ended = ChildProcess.termination(of: pid)
                if ended != nil { break }
                if monotonicSeconds() > deadline {
                    kill()
                    break
                }
                usleep(1000)
            }
        }
        if ended == nil { ended = ChildProcess.wait(for: pid) }
        reaped = true
        drainStderr()
        return ended!.description
    }
}
