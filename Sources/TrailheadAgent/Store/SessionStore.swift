/// Where sessions' transcripts are kept so that any process can continue any conversation: the
/// embedded default is a folder of JSON Lines files (`FileSessionStore`); `agent serve --store
/// postgresql://…` keeps them in PostgreSQL, shared by every replica.
///
/// A store numbers each session's entries from 0. An append names the index of its first entry
/// and is refused as a `conflict` when that index is taken (another process continued the session
/// meanwhile), so two writers never interleave one transcript.
public protocol SessionStore: Sendable {
    /// A short description for logs (`files:/path`, `postgresql://host:port/db`; never a password).
    var description: String { get }

    /// The session's agent and every entry stored so far, in order; nil for an unknown session.
    func load(_ session: String) throws(SessionStoreError) -> StoredSession?

    /// Records a new session of `agent`; a session that exists already is a `conflict`.
    func create(_ session: String, agent: String) throws(SessionStoreError)

    /// Appends `entries` as numbers `index`, `index + 1`… of `session`, durably, all or none.
    func append(_ entries: [Transcript.Entry], to session: String, at index: Int) throws(SessionStoreError)
}

/// A stored session: which agent it runs, and its transcript.
public struct StoredSession: Sendable, Equatable {
    public var agent: String
    public var transcript: Transcript

    public init(agent: String, transcript: Transcript) {
        self.agent = agent
        self.transcript = transcript
    }
}

/// Why a store could not read or write.
public struct SessionStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The store cannot be reached now (a restart, a network cut): worth retrying.
        case unavailable
        /// An entry index or a session id is taken: another writer got there first.
        case conflict
        /// Bad input or a broken store: retrying would not help.
        case failed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension SessionStore {
    /// Session ids are also file names and SQL values: letters, digits, `-` and `_`, 1–128 of them.
    public static func isValidSessionID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
        }
    }
}
