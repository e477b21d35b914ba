/// The life of one plugin's `agent-tool-host` worker, as seen by the client.
///
/// ```
///            callRequested                    replied / toolError
///  stopped ─────────────────▶ calling ───────────────────────────▶ running
///     ▲      (spawn first)      │  ▲                                   │
///     │                         │  └────────── callRequested ──────────┘
///     │   died / garbage /      │
///     └─ timedOut / cancelled ──┤  (the worker is reaped; the next call spawns a new one)
///                               │
///   quarantined ◀── died or garbage for the `crashLimit`-th time in a row
///        │
///        └── libraryChanged ──▶ stopped (crash count reset)
/// ```
///
/// Only crashes and protocol garbage count towards quarantine: a timeout may be a slow input, a
/// cancellation is the caller's choice, and a tool error is the plugin working as designed. Any good reply resets the count.
/// Calls are serialised by the owner, so `calling` never sees a second `callRequested`.
struct WorkerStateMachine: Sendable {
    private enum State: Sendable, Equatable {
        case stopped
        case running
        case calling(workerWasRunning: Bool)
        case quarantined
    }

    /// What to do when a call is requested.
    enum CallAction: Sendable, Equatable {
        /// Start a worker (and initialize it), then send the request.
        case spawnThenSend
        /// The worker is up: send the request.
        case send
        /// Refuse the call: the plugin crashed this many times in a row.
        case refuseQuarantined(crashes: Int)
    }

    /// What to do with the worker once a call has ended.
    enum EndAction: Sendable, Equatable {
        /// Keep it for the next call.
        case keep
        /// Stop it: `kill` with SIGKILL first when it may still be running, then reap it with
        /// waitpid; `quarantine` when this was the last crash allowed.
        case discard(kill: Bool, quarantine: Bool)
    }

    let crashLimit: Int
    private var state: State = .stopped
    /// Crashes (or garbage replies) since the last good reply.
    private(set) var consecutiveCrashes = 0

    init(crashLimit: Int = 3) { self.crashLimit = crashLimit }

    var isQuarantined: Bool { state == .quarantined }
    var hasWorker: Bool { state == .running }

    mutating func callRequested() -> CallAction {
        switch state {
        case .stopped:
            state = .calling(workerWasRunning: false)
            return .spawnThenSend
        case .running:
            state = .calling(workerWasRunning: true)
            return .send
        case .quarantined:
            return .refuseQuarantined(crashes: consecutiveCrashes)
        case .calling:
            preconditionFailure("calls into one worker are serialised")
        }
    }

    /// A well-formed reply arrived (a result or a tool error).
    mutating func replied() -> EndAction {
        precondition(isCalling, "a reply without a call")
        state = .running
        consecutiveCrashes = 0
        return .keep
    }

    /// The worker could not be started, or its plugin could not load: not the plugin's crash to count.
    mutating func spawnFailed() -> EndAction {
        precondition(isCalling, "spawning outside a call")
        state = .stopped
        return .discard(kill: true, quarantine: false)
    }

    /// End of file on the worker's stdout: it exited or was killed by a signal.
    /// (Killed anyway: a plugin may have closed the descriptor and still be running.)
    mutating func died() -> EndAction { crashed() }

    /// The worker wrote something that is not a reply to this call: it is out of step and cannot be trusted.
    mutating func sentGarbage() -> EndAction { crashed() }

    /// The call ran past its deadline.
    mutating func timedOut() -> EndAction {
        precondition(isCalling, "a timeout without a call")
        state = .stopped
        return .discard(kill: true, quarantine: false)
    }

    /// The caller cancelled the call; the worker was stopped mid-call (it cannot be trusted to
    /// finish and answer in step), so it is reaped without counting as a crash.
    mutating func cancelled() -> EndAction {
        precondition(isCalling, "a cancellation without a call")
        state = .stopped
        return .discard(kill: true, quarantine: false)
    }

    /// The library file changed since the quarantine began: give it another chance.
    mutating func libraryChanged() {
        guard state == .quarantined else { return }
        state = .stopped
        consecutiveCrashes = 0
    }

    /// The owner shuts down: a running worker is told to stop (stdin closed) and reaped.
    mutating func shutdownRequested() -> EndAction {
        switch state {
        case .running:
            state = .stopped
            return .discard(kill: false, quarantine: false)
        case .stopped, .quarantined, .calling:
            return .keep
        }
    }

    private var isCalling: Bool { if case .calling = state { true } else { false } }

    private mutating func crashed() -> EndAction {
        precondition(isCalling, "a crash report without a call")
        consecutiveCrashes += 1
        let quarantine = consecutiveCrashes >= crashLimit
        state = quarantine ? .quarantined : .stopped
        return .discard(kill: true, quarantine: quarantine)
    }
}
