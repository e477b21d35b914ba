import Foundation
import TrailheadSupport

#if canImport(Glibc)
import Glibc
#endif

/// Starting and watching the managed server and its watchdog, through the one process runner
/// (`ChildProcess`: nothing of the caller's is inherited but the standard streams handed over).
enum ProcessSpawner {
    /// Starts `executable` with `arguments`, stdin from /dev/null and stdout+stderr appended to
    /// `logPath`. With `detached`, the child gets its own session, so a Ctrl-C in the terminal
    /// that started it does not reach it (the managed server outlives the command that started it).
    static func spawn(_ executable: String, _ arguments: [String], logPath: String, detached: Bool) throws(ModelError) -> pid_t {
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable, arguments,
                options: .init(
                    environment: ChildProcess.Options.environment(adding: ["SWIFT_BACKTRACE": "enable=no"]),
                    standardOutput: .file(logPath), standardError: .standardOutput, grouping: detached ? .newSession : .inherit))
        } catch {
            throw .localServer(message: error.description)
        }
        _ = terminations.withLock { $0.removeValue(forKey: child.pid) }
        return child.pid
    }

    /// Runs `executable` to completion and returns its exit status and standard output
    /// (standard error is discarded).
    static func output(of executable: String, _ arguments: [String]) throws(ModelError) -> (status: Int32, stdout: String) {
        do {
            let completed = try ChildProcess.run(executable, arguments)
            return (completed.status, completed.stdout)
        } catch {
            throw .localServer(message: "cannot run \(executable): \(error.reason)")
        }
    }

    /// Waits for a child on a thread of its own, so one nobody else waits for is reaped when it
    /// exits. Never use it for a child that `isAlive` or `terminate` will wait for.
    static func reapWhenItExits(_ pid: pid_t) {
        Thread { _ = ChildProcess.wait(for: pid) }.start()
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
            guard let ended = ChildProcess.termination(of: pid) else { return nil }
            known[pid] = ended
            return ended
        }
    }

    /// How `pid` (our child) ended, waiting up to `seconds` for the kernel to report it: a killed
    /// multi-threaded process is a zombie in /proc (so `isAlive` says no) a moment before `waitid`
    /// reports it, while its other threads exit; without the wait a SIGILL read as "exited".
    static func termination(of pid: pid_t, within seconds: Double) async -> ProcessTermination? {
        let deadline = monotonicSeconds() + seconds
        while true {
            if let ended = termination(of: pid) { return ended }
            guard monotonicSeconds() < deadline else { return nil }
            try? await Task.sleep(nanoseconds: 10_000_000)
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

/// How a child ended; kept under this name here, where the managed server's reports use it.
public typealias ProcessTermination = TrailheadSupport.ProcessTermination
