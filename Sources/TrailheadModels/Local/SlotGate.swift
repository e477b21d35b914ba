import Synchronization

/// Lets at most `slots` requests through at once and queues the rest here, in order.
///
/// The managed llama-server decodes `-np` requests at once; one more waits inside the server,
/// where our idle timeout sees no byte for as long as the others take and gives up (measured: 3 of
/// 4 plans on one slot failed after 120 s). Waiting here instead, a request is only timed once it
/// has a slot.
final class SlotGate: Sendable {
    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(slots: Int) { state = Mutex(State(free: max(1, slots))) }

    /// Waits for a slot.
    func acquire() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiters.append(waiter)
                return false
            }
            if granted { waiter.resume() }
        }
    }

    /// Gives a slot back: to the longest waiter, or to the pool.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
