import Foundation
import TrailheadSchema
import TrailheadSupport

/// A manifest's `permissions` made to hold: `agent-tool-host` confines itself to them before it
/// loads the plugin (`Sandbox`: Landlock for files, seccomp for sockets), so an isolated plugin
/// reads and writes only what its manifest grants, and opens no socket unless `"network": true`.
///
/// Paths in `read` and `write` are relative to the installation folder (`$home`), or start with
/// `~/` (the user's home), `$TRAILHEAD_CACHE` (Trailhead's cache, `~/.cache/trailhead` unless
/// set) or `$TMPDIR` (the temporary folder), or are absolute. A directory grants what is beneath
/// it; `write` implies `read`. The plugin's own library, its folder and what the worker needs to
/// run (see `SandboxPolicy.runtime`) are granted implicitly. `inProcess` plugins run inside the
/// host and are not confined: only trusted plugins should run so.
///
/// `TRAILHEAD_SANDBOX=off` in the environment runs plugins unconfined (with a line on the
/// worker's stderr), for kernels without Landlock or seccomp.
enum PluginSandbox {
    /// Confines this worker to what `manifest` grants; a load error when it cannot.
    static func confine(_ manifest: Manifest, library: String, home: String) throws(PluginLoadError) {
        try confine(policy(manifest, library: library, home: home), library: library)
    }

    /// Confines this worker to reading the library and what it needs to run (`--describe`,
    /// which loads a library nobody has vetted yet, for `agent tools register`). Best effort: no
    /// plugin code is called, so where the kernel cannot confine, it goes on (and says so).
    static func confineToLibrary(_ library: String) throws(PluginLoadError) {
        let policy = SandboxPolicy.runtime(network: false).adding(SandboxPolicy(readable: [absolute(library)]))
        do { try Sandbox.check(policy, support: .probe()) } catch {
            writeAll(2, "agent-tool-host: describing \((library as NSString).lastPathComponent) unconfined: \(error.message)\n")
            return
        }
        try confine(policy, library: library)
    }

    private static func confine(_ policy: SandboxPolicy, library: String) throws(PluginLoadError) {
        let name = (library as NSString).lastPathComponent
        if ProcessInfo.processInfo.environment["TRAILHEAD_SANDBOX"] == "off" {
            writeAll(2, "agent-tool-host: \(name) runs unconfined (TRAILHEAD_SANDBOX=off): its permissions are not enforced\n")
            return
        }
        do {
            let report = try Sandbox.confine(policy)
            writeAll(2, "agent-tool-host: \(name): \(report)\n")
        } catch {
            throw PluginLoadError(refusal(name, error))
        }
    }

    /// The load error for a plugin whose permissions cannot be enforced here.
    static func refusal(_ library: String, _ error: SandboxError) -> String {
        "\(library): \(error.message); set TRAILHEAD_SANDBOX=off to run plugins unconfined"
    }

    /// The manifest's grants as absolute paths, with what every worker needs.
    static func policy(_ manifest: Manifest, library: String, home: String) throws(PluginLoadError) -> SandboxPolicy {
        let permissions = manifest.permissions
        let network = permissions["network"]
        guard network == nil || network?.boolValue != nil else {
            throw PluginLoadError("\(manifest.library): permissions.network must be true or false, got \(network!.jsonString)")
        }
        let allowsNetwork = network?.boolValue ?? false
        let plugin = absolute(library)
        let own = SandboxPolicy(
            readable: [plugin, (plugin as NSString).deletingLastPathComponent] + (try paths("read", in: manifest, home: home)),
            writable: try paths("write", in: manifest, home: home), network: allowsNetwork)
        return SandboxPolicy.runtime(network: allowsNetwork).adding(own)
    }

    private static func paths(_ key: String, in manifest: Manifest, home: String) throws(PluginLoadError) -> [String] {
        guard let value = manifest.permissions[key] else { return [] }
        guard let entries = value.arrayValue else {
            throw PluginLoadError("\(manifest.library): permissions.\(key) must be an array of paths, got \(value.jsonString)")
        }
        var resolved: [String] = []
        for (index, entry) in entries.enumerated() {
            guard let path = entry.stringValue, !path.isEmpty else {
                throw PluginLoadError("\(manifest.library): permissions.\(key)[\(index)] must be a non-empty path, got \(entry.jsonString)")
            }
            guard let absolute = resolve(path, home: home) else {
                throw PluginLoadError(
                    "\(manifest.library): permissions.\(key)[\(index)] '\(path)' starts with an unknown variable (known: $TRAILHEAD_CACHE, $TMPDIR)")
            }
            resolved.append(absolute)
        }
        return resolved
    }

    /// `path` made absolute, or `nil` for an unknown `$VARIABLE`.
    static func resolve(_ path: String, home: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        let variables = [
            "$TRAILHEAD_CACHE": environment["TRAILHEAD_CACHE"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() + "/.cache/trailhead",
            "$TMPDIR": String(NSTemporaryDirectory().reversed().drop { $0 == "/" }.reversed()),
            "~": NSHomeDirectory(),
        ]
        for (name, value) in variables where path == name || path.hasPrefix(name + "/") {
            return value + path.dropFirst(name.count)
        }
        if path.hasPrefix("$") || path.hasPrefix("~") { return nil }
        return path.hasPrefix("/") ? path : home + "/" + path
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
