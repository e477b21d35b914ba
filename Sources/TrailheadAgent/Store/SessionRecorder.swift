import Foundation
import Synchronization
import TrailheadSupport

/// Writes a session's transcript to a store entry by entry as the session runs
/// (`LanguageModelSession.Configuration.recorder`), so that another replica can continue the
/// conversation from its last complete entry.
///
/// An entry the store cannot take now (PostgreSQL restarting) is kept and written, in order, with
/// the next one; `flush` waits for the store within a bound. A response is acknowledged to a
/// client only after `flush` succeeded, so nothing acknowledged is lost. A conflict (another
/// writer took an index) is final: every later append and `flush` fail with it.
public final class SessionRecorder: Sendable {
    public let store: any SessionStore
    public let session: String

    private struct State {
        var next: Int
        var pending: [Transcript.Entry] = []
        var failure: SessionStoreError?
        var retries = 0
    }

    private let state: Mutex<State>

    /// Appends to `session` from entry number `index` (the entries the store already holds).
    public init(store: any SessionStore, session: String, from index: Int) {
        self.store = store
        self.session = session
        state = Mutex(State(next: index))
    }

    /// Entries written so far (the store's count for this session).
    public var written: Int { state.withLock { $0.next } }

    /// Entries waiting for the store.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    /// How many writes failed because the store was unavailable and were tried again.
    public var retries: Int { state.withLock { $0.retries } }

    /// Takes `entry` and tries to write it (with any entries still waiting) now.
    public func append(_ entry: Transcript.Entry) {
        state.withLock { state in
            state.pending.append(entry)
            try? write(&state)
        }
    }

    /// Writes what is waiting, trying again for up to `timeout` seconds while the store is
    /// unavailable; throws when it is still unavailable then, or on a conflict or failure.
    public func flush(timeout: Double = 30) async throws(SessionStoreError) {
        let deadline = monotonicSeconds() + timeout
        var delay = 0.05
        while true {
            let outcome: Result<Void, SessionStoreError> = state.withLock { state in
                do throws(SessionStoreError) {
                    try write(&state)
                    return .success(())
                } catch { return .failure(error) }
            }
            switch outcome {
            case .success: return
            case .failure(let error):
                guard error.kind == .unavailable, monotonicSeconds() + delay < deadline else { throw error }
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                delay = min(delay * 2, 1)
            }
        }
    }

    private func write(_ state: inout State) throws(SessionStoreError) {
        if let failure = state.failure { throw failure }
        guard !state.pending.isEmpty else { return }
        do {
            try store.append(state.pending, to: session, at: state.next)
            state.next += state.pending.count
            state.pending = []
        } catch {
            if error.kind == .unavailable {
                state.retries += 1
            } else {
                state.failure = error
            }
            throw error
        }
    }
}
