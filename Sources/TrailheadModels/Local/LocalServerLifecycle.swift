/// The managed llama-server's lifecycle, as a state machine: each event returns the one action
/// the driver (`LocalServerManager`) must take next, and the driver reports the outcome as the
/// next event. Keeping decisions here, and effects in the driver, lets every transition be
/// tested without processes.
///
///     unknown ──serverNeeded──▶ inspecting ──inspected(usable)──▶ running
///                                   │ inspected(none / unusable)
///                                   ▼
///            ┌──────────────── starting(n) ──spawned──▶ waiting(n) ──healthy──▶ running
///            │ failedToStart(retryable, n < max)                 │
///            └───────────────────────────────────────────────────┘ otherwise ──▶ failed
///     running ──serverLost──▶ unknown        any ──stopRequested──▶ stopped
///
/// `failed` and `stopped` behave like `unknown` on the next `serverNeeded`: every request gets
/// a fresh chance, so a server fixed by the user is picked up without restarting the agent.
struct LocalServerLifecycle {
    /// A server process and where it listens.
    struct Server: Equatable, Sendable {
        var pid: Int32
        var port: Int
    }

    enum Action: Equatable {
        /// Read the state file and probe the server it names (alive, healthy, same model).
        case inspectRecordedServer
        /// Send requests to this server.
        case use(Server)
        /// A recorded server that cannot be used: terminate it, then start (attempt 1).
        case replace(Server)
        /// Spawn a server on a new port; `attempt` counts from 1.
        case start(attempt: Int)
        /// Poll its health until it has loaded the model.
        case waitUntilHealthy(Server)
        /// Write the state file and start the idle watchdog, then use it.
        case recordAndUse(Server)
        /// Terminate this server and remove the state file.
        case stop(Server)
        /// Remove a state file that names no usable server.
        case forget
        case fail(String)
    }

    private enum State: Equatable {
        case unknown
        case inspecting
        case starting(attempt: Int)
        case waiting(Server, attempt: Int)
        case running(Server)
        case stopped
        case failed(String)
    }

    private var state: State = .unknown
    let maximumStartAttempts: Int

    init(maximumStartAttempts: Int = 3) { self.maximumStartAttempts = maximumStartAttempts }

    /// The server the next request goes to, when one is known to be running.
    var runningServer: Server? {
        if case .running(let server) = state { server } else { nil }
    }

    /// A request needs the server.
    mutating func serverNeeded() -> Action {
        switch state {
        case .running(let server): return .use(server)
        case .unknown, .stopped, .failed:
            state = .inspecting
            return .inspectRecordedServer
        case .inspecting, .starting, .waiting:
            // The driver serializes events; reaching this is a driver bug, not a user error.
            return .fail("the local model is already being started")
        }
    }

    /// The state file was read: `recorded` is the server it names (nil if none or unreadable),
    /// `usable` whether that server is alive, healthy and serving the same model.
    mutating func inspected(_ recorded: Server?, usable: Bool) -> Action {
        guard state == .inspecting else { return .fail("unexpected inspection result") }
        if let recorded, usable {
            state = .running(recorded)
            return .use(recorded)
        }
        state = .starting(attempt: 1)
        if let recorded { return .replace(recorded) }
        return .start(attempt: 1)
    }

    /// After `.replace`, the old server is gone.
    mutating func replaced() -> Action {
        guard case .starting(let attempt) = state else { return .fail("unexpected replacement") }
        return .start(attempt: attempt)
    }

    /// The process was spawned.
    mutating func spawned(_ server: Server) -> Action {
        guard case .starting(let attempt) = state else { return .fail("unexpected spawn") }
        state = .waiting(server, attempt: attempt)
        return .waitUntilHealthy(server)
    }

    /// It answers `/health` with the model loaded.
    mutating func becameHealthy() -> Action {
        guard case .waiting(let server, _) = state else { return .fail("unexpected health report") }
        state = .running(server)
        return .recordAndUse(server)
    }

    /// Spawning failed, or the process exited or never became healthy. `retryable` when another
    /// port may help (the port was taken between choosing and binding it).
    mutating func failedToStart(_ reason: String, retryable: Bool) -> Action {
        let attempt: Int
        switch state {
        case .starting(let a): attempt = a
        case .waiting(_, let a): attempt = a
        default: return .fail(reason)
        }
        if retryable && attempt < maximumStartAttempts {
            state = .starting(attempt: attempt + 1)
            return .start(attempt: attempt + 1)
        }
        state = .failed(reason)
        return .fail(reason)
    }

    /// A request found the running server gone (connection refused, process dead).
    mutating func serverLost() -> Action {
        guard case .running = state else { return .forget }
        state = .unknown
        return .forget
    }

    /// `agent model stop`, or the owner shuts down. `recorded` is the state file's server when
    /// this process did not start or inspect one itself.
    mutating func stopRequested(recorded: Server?) -> Action {
        let target: Server?
        switch state {
        case .running(let server), .waiting(let server, _): target = server
        default: target = recorded
        }
        state = .stopped
        return target.map { .stop($0) } ?? .forget
    }
}
