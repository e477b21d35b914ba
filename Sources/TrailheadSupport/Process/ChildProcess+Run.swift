import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// A program run to its end: how it ended and what it wrote.
    public struct Completed: Sendable {
        public var termination: ProcessTermination
        public var standardOutput: [UInt8]
        public var standardError: [UInt8]
        /// True when it was killed for outliving its time limit.
        public var timedOut: Bool

        /// The exit status, or 128 + the signal, as a shell reports it.
        public var status: Int32 {
            switch termination {
            case .exited(let status): status
            case .killed(let signal): 128 + signal
            }
        }

        public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
        public var stderr: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// Runs `executable` to its end with `input` on its standard input, collecting its standard
    /// output and error (read as they come, so a child writing a lot never blocks). With
    /// `timeLimit`, a child still running after that many seconds is killed with SIGKILL (with
    /// its group, when it leads one). The options' standard streams are replaced by pipes.
    public static func run(
        _ executable: String, _ arguments: [String], input: [UInt8] = [], options: Options = Options(),
        timeLimit: Double? = nil
    ) throws(SpawnError) -> Completed {
        var options = options
        options.standardInput = .pipe
        options.standardOutput = .pipe
        options.standardError = .pipe
        let child = try ChildProcess(executable, arguments, options: options)
        let deadline = timeLimit.map { monotonicSeconds() + $0 }
        var written = 0
        if input.isEmpty { child.closeStandardInput() }
        // Our end only: a write never blocks while the child waits for us to read its output.
        if let fd = child.standardInput { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        var out: [UInt8] = [], err: [UInt8] = []
        var openOutputs = [child.standardOutput!, child.standardError!]
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !openOutputs.isEmpty || child.standardInput != nil {
            var fds = openOutputs.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if let fd = child.standardInput { fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
            var wait: Int32 = -1
            if let deadline {
                let remaining = deadline - monotonicSeconds()
                if remaining <= 0 {
                    timedOut = true
                    _ = Glibc.kill(options.grouping == .inherit ? child.pid : -child.pid, SIGKILL)
                    break
                }
                wait = Int32(min(remaining * 1000, 60_000).rounded(.up))
            }
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 && errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                if entry.fd == child.standardInput {
                    let count = input.withUnsafeBytes { write(entry.fd, $0.baseAddress! + written, $0.count - written) }
                    if count > 0 { written += count }
                    if count < 0 && errno != EINTR && errno != EAGAIN || written == input.count { child.closeStandardInput() }
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress!, $0.count) }
                if count > 0 {
                    if entry.fd == child.standardOutput { out += buffer[0..<count] } else { err += buffer[0..<count] }
                } else if count == 0 || errno != EINTR {
                    openOutputs.removeAll { $0 == entry.fd }
                }
            }
        }
        child.closeStandardInput()
        return Completed(termination: child.wait(), standardOutput: out, standardError: err, timedOut: timedOut)
    }
}

extension ChildProcess.Grouping: Equatable {}
