import TrailheadSupport
import Foundation
import TrailheadSchema

/// Turns a plugin library into its manifest: the manifest the library embeds, with `library`
/// set to its file name and `sha256` pinned to its contents (what `agent tools register` writes).
public enum PluginRegistration {
    /// Reads the embedded manifest through `agent-tool-host --describe`, so a library that
    /// crashes while loading cannot take the caller down.
    public static func manifest(forLibrary path: String, toolHost: String, timeoutMs: Int = 10_000) throws(PluginLoadError) -> Manifest {
        let name = (path as NSString).lastPathComponent
        let report: GeneratedContent
        do {
            let process = try WorkerProcess(executable: toolHost, arguments: ["--describe", path])
            let line = process.readLine(deadline: monotonicSeconds() + Double(timeoutMs) / 1000, maximumBytes: 16 << 20)
            switch line {
            case .line(let bytes):
                process.reap()
                report = (try? GeneratedContent(json: bytes)) ?? ["error": .string("\(name): unreadable description from agent-tool-host")]
            case .timedOut, .endOfFile, .tooLong:
                process.kill()
                let how = process.reap()
                let stderr = process.stderrTail.text(last: 1024).trimmingCharacters(in: .whitespacesAndNewlines)
                throw PluginLoadError("\(name): loading it in agent-tool-host failed (the worker \(how))\(stderr.isEmpty ? "" : ": \(stderr)")")
            }
        }
        if let error = report["error"]?.stringValue { throw PluginLoadError(error) }
        guard let text = report["embeddedManifest"]?.stringValue else {
            throw PluginLoadError("\(name): plugin '\(report["plugin"]?.stringValue ?? "?")' embeds no manifest (manifest_json is NULL); write its manifest by hand")
        }
        guard case .object(var members) = (try? GeneratedContent(json: text)) ?? .null else {
            throw PluginLoadError("\(name): the embedded manifest is not a JSON object")
        }
        members["library"] = .string(name)
        do { members["sha256"] = .string(try SHA256.hex(ofFileAt: path)) } catch {
            throw PluginLoadError("\(name): cannot read it to compute its sha256")
        }
        let manifest: Manifest
        do { manifest = try Manifest(json: .object(members)) } catch { throw PluginLoadError("\(name): its embedded manifest is invalid: \(error)") }
        if let plugin = report["plugin"]?.stringValue, plugin != manifest.plugin {
            throw PluginLoadError("\(name): the descriptor names plugin '\(plugin)' but its embedded manifest says '\(manifest.plugin)'")
        }
        return manifest
    }
}
