import Synchronization
import TrailheadAgent

/// The session store of one execution of a background run: reads go to the shared store, writes
/// stay here until the run completes and `commit` writes them there at once. An execution that
/// stops early (an approval to wait for, a lost lease, a crash) leaves the shared transcript as it
/// was, and the execution that completes the run writes the response's entries once.
final class BufferedSessionStore: SessionStore {
    let base: any SessionStore

    private struct Buffer {
        /// Sessions created here (not yet in `base`).
        var created: [String: String] = [:]
        /// Per session: the index of its first buffered entry, and the entries.
        var entries: [String: (from: Int, entries: [Transcript.Entry])] = [:]
    }
    private let buffer = Mutex(Buffer())

    init(base: any SessionStore) { self.base = base }

    var description: String { base.description }

    func load(_ session: String) throws(SessionStoreError) -> StoredSession? {
        let (agent, pending) = buffer.withLock { ($0.created[session], $0.entries[session]) }
        var stored: StoredSession
        if let agent {
            stored = StoredSession(agent: agent, transcript: Transcript())
        } else {
            guard let loaded = try base.load(session) else { return nil }
            stored = loaded
        }
        if let pending { stored.transcript = Transcript(entries: Array(stored.transcript.entries.prefix(pending.from)) + pending.entries) }
        return stored
    }

    func create(_ session: String, agent: String) throws(SessionStoreError) {
        let taken = buffer.withLock { $0.created[session] != nil }
        let stored = taken ? nil : try base.load(session)
        if taken || stored != nil { throw SessionStoreError(.conflict, "session \(session) exists already") }
        buffer.withLock { $0.created[session] = agent }
    }

    func append(_ entries: [Transcript.Entry], to session: String, at index: Int) throws(SessionStoreError) {
        try buffer.withLock { buffer throws(SessionStoreError) in
            var pending = buffer.entries[session] ?? (from: index, entries: [])
            guard index == pending.from + pending.entries.count else {
                throw SessionStoreError(.conflict, "session \(session): entry \(index) is not the next one")
            }
            pending.entries += entries
            buffer.entries[session] = pending
        }
    }

    /// Writes what was buffered to the shared store: sessions created here, then the entries.
    func commit() throws(SessionStoreError) {
        let (created, entries) = buffer.withLock { ($0.created, $0.entries) }
        for (session, agent) in created { try base.create(session, agent: agent) }
        for (session, pending) in entries where !pending.entries.isEmpty { try base.append(pending.entries, to: session, at: pending.from) }
    }
}
