/// Whether a model can answer now, and if not, why in words a user can act on.
public enum ModelAvailability: Sendable, Equatable, CustomStringConvertible {
    case available
    case unavailable(UnavailableReason)

    public var isAvailable: Bool { self == .available }

    public var description: String {
        switch self {
        case .available: "available"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }
}

/// The reasons a model may be unavailable, each with what to do about it.
public enum UnavailableReason: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file the model needs is missing (`what`), and the command that installs it.
    case notInstalled(what: String, fix: String)
    /// A server that should be running is not answering at `endpoint`.
    case unreachable(endpoint: String, detail: String)
    /// Configuration is missing, e.g. the environment variable that holds an API key.
    case notConfigured(detail: String, fix: String)
    /// The backend cannot run here at all.
    case unsupported(detail: String)
    /// This machine cannot run the installed server binary (it was killed by SIGILL: built for
    /// instructions this CPU does not allow); `fix` rebuilds it.
    case cannotRunHere(detail: String, fix: String)
    /// The server crashed (another fatal signal) and will not be started again until `fix`.
    case serverFailed(detail: String, fix: String)

    /// One command or step that fixes it, when there is one.
    public var fix: String? {
        switch self {
        case .notInstalled(_, let fix), .notConfigured(_, let fix), .cannotRunHere(_, let fix), .serverFailed(_, let fix): fix
        case .unreachable: "start the server, or check the URL"
        case .unsupported: nil
        }
    }

    public var description: String {
        switch self {
        case .notInstalled(let what, let fix): "\(what) not installed — run \(fix)"
        case .unreachable(let endpoint, let detail): "\(endpoint) is not reachable (\(detail))"
        case .notConfigured(let detail, let fix): "\(detail) — \(fix)"
        case .unsupported(let detail): "unsupported: \(detail)"
        case .cannotRunHere(let detail, let fix): "\(detail) — run \(fix)"
        case .serverFailed(let detail, let fix): "the server failed: \(detail) — run \(fix)"
        }
    }
}
