import Foundation
import Synchronization
import TrailheadSchema

/// The embedded store: one JSON Lines transcript per session in a folder (`<id>.jsonl`, the
/// format `agent transcript show` reads), and the agent's name in `<id>.agent`. For one process:
/// replicas that must continue each other's conversations share a PostgreSQL store instead.
public final class FileSessionStore: SessionStore {
    public let folder: String
    /// Entries per session as this process counted them (read from the file on first use).
    private let counts = Mutex<[String: Int]>([:])

    public init(folder: String) throws(SessionStoreError) {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw SessionStoreError(.failed, "cannot create the session folder \(folder): \(error.localizedDescription)")
        }
        self.folder = folder
    }

    public var description: String { "files:\(folder)" }

    public func transcriptPath(_ session: String) -> String { "\(folder)/\(session).jsonl" }
    private func agentPath(_ session: String) -> String { "\(folder)/\(session).agent" }

    public func load(_ session: String) throws(SessionStoreError) -> StoredSession? {
        try check(session)
        guard let agent = FileManager.default.contents(atPath: agentPath(session)) else { return nil }
        let entries: [Transcript.Entry]
        if FileManager.default.fileExists(atPath: transcriptPath(session)) {
            do { entries = try TranscriptReader.read(path: transcriptPath(session)).entries } catch {
                throw SessionStoreError(.failed, error.message)
            }
        } else {
            entries = []
        }
        counts.withLock { $0[session] = entries.count }
        return StoredSession(agent: String(decoding: agent, as: UTF8.self), transcript: Transcript(entries: entries))
    }

    public func create(_ session: String, agent: String) throws(SessionStoreError) {
        try check(session)
        let fd = open(agentPath(session), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            if errno == EEXIST { throw SessionStoreError(.conflict, "session \(session) exists already") }
            throw SessionStoreError(.failed, "cannot create \(agentPath(session)): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        try Self.write(fd, Array(agent.utf8), path: agentPath(session))
        counts.withLock { $0[session] = 0 }
    }

    public func append(_ entries: [Transcript.Entry], to session: String, at index: Int) throws(SessionStoreError) {
        try check(session)
        try counts.withLock { counts throws(SessionStoreError) in
            let stored: Int
            if let known = counts[session] {
                stored = known
            } else {
                guard let loaded = try load(session) else { throw SessionStoreError(.failed, "no session \(session)") }
                stored = loaded.transcript.count
            }
            guard stored == index else {
                throw SessionStoreError(.conflict, "session \(session) has \(stored) entries, not \(index): another writer continued it")
            }
            let fd = open(transcriptPath(session), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw SessionStoreError(.failed, "cannot write \(transcriptPath(session)): \(String(cString: strerror(errno)))")
            }
            defer { close(fd) }
            let lines = entries.map { $0.content.jsonString + "\n" }.joined()
            try Self.write(fd, Array(lines.utf8), path: transcriptPath(session))
            counts[session] = stored + entries.count
        }
    }

    private func check(_ session: String) throws(SessionStoreError) {
        guard Self.isValidSessionID(session) else {
            throw SessionStoreError(.failed, "'\(session.prefix(40))' is not a session id (letters, digits, - and _)")
        }
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SessionStoreError) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SessionStoreError(.failed, "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            rest = rest.dropFirst(written)
        }
    }
}
