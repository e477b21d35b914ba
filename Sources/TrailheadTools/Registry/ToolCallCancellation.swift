import Synchronization

/// Stops a tool call in flight from another thread: an MCP client's `notifications/cancelled`,
/// or a cancelled Swift task around `ToolRegistry.call`. A call into a worker or an MCP server
/// ends at once (the worker is stopped, as after a timeout, and restarted by the next call); a
/// call in process cannot be interrupted and runs to its end, its result dropped.
public final class ToolCallCancellation: Sendable {
    private struct State {
        var cancelled = false
        var handler: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels the call; later calls do nothing.
    public func cancel() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            defer { state.handler = nil }
            return state.handler
        }
        handler?()
    }

    /// What to run on `cancel()` while the call is at a cancellable step (`nil` when it leaves
    /// it). Runs at once when the call is already cancelled.
    func whileCancellable(_ handler: (@Sendable () -> Void)?) {
        let runNow = state.withLock { state -> Bool in
            if state.cancelled { return handler != nil }
            state.handler = handler
            return false
        }
        if runNow { handler?() }
    }
}
