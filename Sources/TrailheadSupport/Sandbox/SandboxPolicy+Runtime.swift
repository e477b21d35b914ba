import Foundation

extension SandboxPolicy {
    /// What any confined program needs to run, granted without asking: its own executable and
    /// the shared objects it has loaded (the Swift runtime, the C library), system libraries
    /// and data (`/usr`: zoneinfo, the loader's cache), a few files of `/etc`, harmless devices,
    /// and its own `/proc` entries. Nothing of any user's home, and nothing writable but
    /// `/dev/null`. With `network`, the resolver's and TLS's configuration as well.
    public static func runtime(network: Bool) -> SandboxPolicy {
        var readable = ["/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin"]
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            readable.append(executable)
        }
        readable += loadedObjectFolders()
        readable += [
            "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/timezone",
            "/etc/nsswitch.conf", "/etc/passwd", "/etc/group", "/etc/host.conf",
        ]
        if network {
            readable += ["/etc/resolv.conf", "/etc/hosts", "/etc/gai.conf", "/etc/services", "/etc/protocols", "/etc/ssl",
                         "/etc/ca-certificates", "/etc/pki"]
        }
        readable += ["/dev/zero", "/dev/random", "/dev/urandom", "/proc/self", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat",
                     "/sys/devices/system/cpu"]
        return SandboxPolicy(readable: readable, writable: ["/dev/null", "/dev/full"], network: network)
    }

    /// The folders of every file mapped into this process (from `/proc/self/maps`): where the
    /// loader found the runtime, so libraries loaded later from beside them are found too.
    static func loadedObjectFolders() -> [String] {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return [] }
        var folders: [String] = []
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard !path.hasSuffix(" (deleted)") else { continue }
            let folder = (path as NSString).deletingLastPathComponent
            if !folders.contains(folder) { folders.append(folder) }
        }
        return folders
    }

    /// This policy with `other`'s grants added (and its network if either allows it).
    public func adding(_ other: SandboxPolicy) -> SandboxPolicy {
        SandboxPolicy(readable: readable + other.readable, writable: writable + other.writable, network: network || other.network)
    }
}
