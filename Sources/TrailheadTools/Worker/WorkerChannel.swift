/// The line-oriented connection between a `WorkerClient` and its peer: the pipes of an
/// `agent-tool-host` worker or of an MCP stdio server (`WorkerProcess`), or an MCP server's
/// Streamable HTTP endpoint (`HTTPWorkerChannel`). One JSON-RPC message per line either way.
///
/// Not thread-safe except `kill()`, which may be called from any thread to abort a call in flight.
protocol WorkerChannel: AnyObject {
    /// Sends one line (with its newline); false when the peer is gone.
    func send(_ bytes: [UInt8]) -> Bool
    /// The next line from the peer, waiting at most until `deadline` (monotonic seconds).
    func readLine(deadline: Double, maximumBytes: Int) -> WorkerReadOutcome
    /// Stops the peer at once (a hung plugin ignores anything gentler); safe from any thread.
    func kill()
    /// Asks the peer to end (closes its stdin; ends an HTTP session).
    func closeInput()
    /// Waits for the peer to end and says how it ended; with `graceSeconds`, kills it after that long.
    @discardableResult
    func reap(graceSeconds: Double?) -> String
    /// The end of what the peer wrote on stderr, for crash reports ("" when there is none).
    func stderrExcerpt(last bytes: Int) -> String
}

extension WorkerChannel {
    @discardableResult
    func reap() -> String { reap(graceSeconds: nil) }
}

/// What reading one line from a worker gave.
enum WorkerReadOutcome {
    case line([UInt8])
    case endOfFile
    case timedOut
    case tooLong(Int)
}
