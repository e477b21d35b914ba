import CTrailheadSystem

#if canImport(Glibc)
import Glibc
#endif

/// What this kernel offers to confine a process: Landlock (files; TCP ports from ABI 4;
/// abstract sockets and signals from ABI 6) and seccomp filters (sockets of any kind).
public struct SandboxSupport: Sendable, Equatable {
    /// The Landlock ABI version, or `nil` when the kernel has none.
    public var landlockABI: Int?
    /// Why there is no Landlock, for a message a user can act on.
    public var landlockMissing: String?
    public var seccomp: Bool

    public init(landlockABI: Int?, landlockMissing: String? = nil, seccomp: Bool) {
        self.landlockABI = landlockABI
        self.landlockMissing = landlockMissing
        self.seccomp = seccomp
    }

    /// Asks this kernel (the `landlock_create_ruleset` version query, `PR_GET_SECCOMP`).
    public static func probe() -> SandboxSupport {
        let abi = th_landlock_abi()
        let missing: String? =
            switch -abi {
            case _ where abi > 0: nil
            case ENOSYS: "this kernel was built without Landlock (Linux 5.13 or later with CONFIG_SECURITY_LANDLOCK is needed)"
            case EOPNOTSUPP: "Landlock is built into this kernel but not enabled (add landlock to the lsm= boot parameter)"
            default: "Landlock is unavailable (\(String(cString: strerror(-abi))))"
            }
        return SandboxSupport(landlockABI: abi > 0 ? Int(abi) : nil, landlockMissing: missing, seccomp: th_seccomp_available() == 1)
    }

    /// One line for `agent doctor` and reports: what confines a plugin here.
    public var summary: String {
        var parts: [String] = []
        if let abi = landlockABI {
            var covers = ["files"]
            if abi >= 4 { covers.append("TCP ports") }
            if abi >= 6 { covers.append("abstract sockets and signals") }
            parts.append("Landlock ABI \(abi) (\(covers.joined(separator: ", ")))")
        } else {
            parts.append("no Landlock: \(landlockMissing ?? "unavailable")")
        }
        parts.append(seccomp ? "seccomp (sockets)" : "no seccomp")
        return parts.joined(separator: "; ")
    }
}
