import CTrailheadSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a confined process may touch besides what it holds open already.
public struct SandboxPolicy: Sendable, Equatable {
    /// Absolute paths of files or directories (a directory grants what is beneath it) it may read.
    public var readable: [String]
    /// Absolute paths it may read and write (create, remove and rename beneath a directory).
    public var writable: [String]
    /// Whether it may open sockets at all.
    public var network: Bool

    public init(readable: [String] = [], writable: [String] = [], network: Bool = false) {
        self.readable = readable
        self.writable = writable
        self.network = network
    }
}

/// Why a process could not be confined.
public struct SandboxError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Confines the calling process with Landlock (files, and TCP where the ABI has it) and a
/// seccomp filter (sockets), as `agent-tool-host` does before it loads a plugin.
///
/// Both confine the calling thread and everything it starts afterwards, and last until the
/// process ends: call `confine` while the process has one thread, before anything untrusted runs.
public enum Sandbox {
    /// What `confine` did, for the record.
    public struct Report: Sendable, CustomStringConvertible {
        /// The Landlock ABI used, and whether sockets were denied by seccomp.
        public var landlockABI: Int
        public var socketsDenied: Bool
        /// Grants that name nothing on disk (nothing to grant: opening them fails as missing).
        public var skipped: [String]

        public var description: String {
            "confined by Landlock ABI \(landlockABI)" + (socketsDenied ? " and a seccomp filter denying sockets" : " (network allowed)")
                + (skipped.isEmpty ? "" : "; granted paths that do not exist: \(skipped.joined(separator: ", "))")
        }
    }

    /// Says why `policy` cannot be enforced with `support`, or nothing when it can: files need
    /// Landlock; `network: false` needs seccomp (Landlock alone covers only TCP).
    public static func check(_ policy: SandboxPolicy, support: SandboxSupport) throws(SandboxError) {
        guard support.landlockABI != nil else {
            throw SandboxError("cannot enforce the plugin's file permissions: \(support.landlockMissing ?? "no Landlock")")
        }
        if !policy.network && !support.seccomp {
            throw SandboxError("cannot enforce \"network\": false: this kernel takes no seccomp filters (CONFIG_SECCOMP_FILTER)")
        }
    }

    /// Confines this process to `policy`. Throws, leaving the process as it was, when the kernel
    /// cannot enforce it or the process already runs other threads.
    @discardableResult
    public static func confine(_ policy: SandboxPolicy, support: SandboxSupport = .probe()) throws(SandboxError) -> Report {
        try check(policy, support: support)
        let abi = support.landlockABI!
        let threads = th_thread_count()
        guard threads == 1 else {
            throw SandboxError("cannot confine a process that already runs \(threads) threads (only the calling thread would be confined)")
        }
        let rights = LandlockRights(abi: abi)
        let ruleset = th_landlock_create_ruleset(rights.handledFS, policy.network ? 0 : rights.handledNet, rights.scoped(network: policy.network), Int32(abi))
        guard ruleset >= 0 else { throw SandboxError("cannot create a Landlock ruleset: \(String(cString: strerror(-ruleset)))") }
        defer { close(ruleset) }
        var skipped: [String] = []
        let grants = policy.readable.map { ($0, rights.read) } + policy.writable.map { ($0, rights.read | rights.write) }
        for (path, access) in grants {
            var info = stat()
            guard stat(path, &info) == 0 else {
                skipped.append(path)
                continue
            }
            let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
            let result = th_landlock_allow_path(ruleset, path, isDirectory ? access : access & rights.fileOnly & rights.handledFS)
            guard result == 0 else { throw SandboxError("cannot grant \(path): \(String(cString: strerror(-result)))") }
        }
        let restricted = th_landlock_restrict_self(ruleset)
        guard restricted == 0 else { throw SandboxError("cannot enforce the Landlock ruleset: \(String(cString: strerror(-restricted)))") }
        if !policy.network {
            let filtered = th_seccomp_deny_sockets()
            // Landlock holds already: a half-confined process must not go on as if confined.
            guard filtered == 0 else {
                throw SandboxError("cannot install the seccomp filter that denies sockets: \(String(cString: strerror(-filtered)))")
            }
        }
        return Report(landlockABI: abi, socketsDenied: !policy.network, skipped: skipped)
    }
}

/// Landlock's access rights, as many as the kernel's ABI knows (linux/landlock.h).
struct LandlockRights {
    let abi: Int

    private static let execute: UInt64 = 1 << 0, writeFile: UInt64 = 1 << 1, readFile: UInt64 = 1 << 2, readDir: UInt64 = 1 << 3
    private static let removeDir: UInt64 = 1 << 4, removeFile: UInt64 = 1 << 5, makeChar: UInt64 = 1 << 6, makeDir: UInt64 = 1 << 7
    private static let makeReg: UInt64 = 1 << 8, makeSock: UInt64 = 1 << 9, makeFifo: UInt64 = 1 << 10, makeBlock: UInt64 = 1 << 11
    private static let makeSym: UInt64 = 1 << 12, refer: UInt64 = 1 << 13, truncate: UInt64 = 1 << 14, ioctlDev: UInt64 = 1 << 15

    /// Every filesystem right this ABI handles: what is not granted is denied.
    var handledFS: UInt64 {
        var rights: UInt64 = (1 << 13) - 1
        if abi >= 2 { rights |= Self.refer }
        if abi >= 3 { rights |= Self.truncate }
        if abi >= 5 { rights |= Self.ioctlDev }
        return rights
    }

    /// TCP bind and connect (ABI 4): handled without a rule, so denied on every port.
    var handledNet: UInt64 { abi >= 4 ? 0b11 : 0 }

    /// Abstract Unix sockets (without network) and signals to processes outside the sandbox (ABI 6).
    func scoped(network: Bool) -> UInt64 {
        guard abi >= 6 else { return 0 }
        return (network ? 0 : 1 << 0) | 1 << 1
    }

    /// Reading files and listing directories; executing (a plugin may run a helper program,
    /// itself confined as its parent is).
    var read: UInt64 { Self.readFile | Self.readDir | Self.execute }

    /// Writing files, and making, removing and renaming entries beneath a directory (device nodes excepted).
    var write: UInt64 {
        var rights = Self.writeFile | Self.removeDir | Self.removeFile | Self.makeDir | Self.makeReg | Self.makeSock
            | Self.makeFifo | Self.makeSym
        if abi >= 2 { rights |= Self.refer }
        if abi >= 3 { rights |= Self.truncate }
        return rights
    }

    /// The rights a rule on a file (not a directory) may carry.
    var fileOnly: UInt64 { Self.execute | Self.writeFile | Self.readFile | Self.truncate | Self.ioctlDev }
}
