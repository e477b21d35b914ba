import Foundation
import TrailheadSchema
import TrailheadSupport

/// Calls one plugin's tools through its `agent-tool-host` worker, restarting the worker after a
/// crash, killing it on a timeout, and quarantining the plugin after repeated crashes (see
/// `WorkerStateMachine`). Calls are serialised: a worker answers one request at a time.
final class WorkerClient: @unchecked Sendable {
    /// A reply line longer than this is refused (the worker's own limit on results is 1 MB;
    /// the reply carries the result twice, escaped once).
    static let maximumReplyBytes = 4 * LoadedPlugin.maximumResultBytes + 64 * 1024
    /// Starting a worker (loading the Swift runtime and the plugin, then `open`) may take longer
    /// than a call on a loaded machine; it gets at least this long, whatever the call's timeout.
    static let minimumStartupSeconds = 10.0
    /// How much of the worker's stderr goes into a crash report.
    static let stderrExcerptBytes = 2048

    let plugin: String
    let library: LibraryFile
    private let executable: String
    private let arguments: [String]
    private let config: [UInt8]
    private let timeoutMs: Int
    private let lock = NSLock()
    private var machine: WorkerStateMachine
    private var process: WorkerProcess?
    private var nextID = 1
    private var quarantinedFingerprint: LibraryFile.Fingerprint?
    /// Workers started so far (the first one included): a transcript can report restarts.
    private(set) var spawnCount = 0

    /// What `initialize` told about the plugin.
    struct Handshake: Sendable {
        var plugin: String
        var abiVersion: Int?
        var embeddedManifest: GeneratedContent
    }

    init(plugin: String, executable: String, library: LibraryFile, manifestPath: String?, config: GeneratedContent,
         timeoutMs: Int, crashLimit: Int = 3) {
        self.plugin = plugin
        self.executable = executable
        self.library = library
        // The config goes on descriptor 3, not the command line: one argument may not exceed
        // 128 KB, and a manifest's config may hold a large table.
        self.config = Array(config.jsonString.utf8)
        var arguments = [library.path, "--config-fd", "3", "--arguments-validated"]
        if let manifestPath { arguments += ["--manifest", manifestPath] }
        self.arguments = arguments
        self.timeoutMs = timeoutMs
        self.machine = WorkerStateMachine(crashLimit: crashLimit)
    }

    deinit { shutdown() }

    /// Starts the worker now and returns its handshake, so load-time problems (a missing
    /// symbol, a wrong ABI version, a refused `open`) surface when the registry loads.
    func start() throws(PluginLoadError) -> Handshake {
        lock.lock()
        defer { lock.unlock() }
        guard machine.callRequested() == .spawnThenSend else { preconditionFailure("start() on a started worker") }
        do {
            let handshake = try spawn(deadline: startupDeadline)
            _ = machine.replied()
            return handshake
        } catch {
            let stderr = process?.stderrTail.text(last: Self.stderrExcerptBytes) ?? ""
            let how: String
            switch error {
            case WorkerFailure.died: how = process?.reap() ?? "is gone"
            case WorkerFailure.timedOut: how = "did not answer initialize within \(Int(max(Double(timeoutMs) / 1000, Self.minimumStartupSeconds))) s"
            default: how = ""
            }
            apply(machine.spawnFailed())
            if let error = error as? PluginLoadError { throw error }
            if case WorkerFailure.garbage(let what) = error { throw PluginLoadError("\(library.fileName): its worker sent \(what)") }
            throw PluginLoadError("\(library.fileName): its worker \(how) while starting" + Self.excerpt(stderr))
        }
    }

    /// Calls `tool` with validated `arguments`.
    func call(tool: String, arguments: GeneratedContent) -> Result<GeneratedContent, ToolCallError> {
        lock.lock()
        defer { lock.unlock() }
        var action = machine.callRequested()
        if case .refuseQuarantined = action, let quarantinedFingerprint, library.fingerprint() != quarantinedFingerprint {
            machine.libraryChanged()
            self.quarantinedFingerprint = nil
            action = machine.callRequested()
        }
        switch action {
        case .refuseQuarantined(let crashes):
            return .failure(.unavailable(tool: tool, plugin: plugin, reason: "is quarantined after \(crashes) crashes in a row; replace its library file to try again"))
        case .spawnThenSend:
            do { _ = try spawn(deadline: startupDeadline) } catch let error as WorkerFailure {
                return .failure(finish(error, tool: tool))
            } catch {
                apply(machine.spawnFailed())
                return .failure(.unavailable(tool: tool, plugin: plugin, reason: "cannot start: \(error)"))
            }
        case .send:
            break
        }
        do {
            let deadline = monotonicSeconds() + Double(timeoutMs) / 1000
            let result = try exchangeToolCall(tool: tool, arguments: arguments, deadline: deadline)
            apply(machine.replied())
            return Self.toolOutcome(tool: tool, result: result)
        } catch let failure as WorkerFailure {
            return .failure(finish(failure, tool: tool))
        } catch {
            apply(machine.replied())
            return .failure(.failed(tool: tool, message: "\(error)"))
        }
    }

    /// Stops a running worker: closing its stdin lets it `close` the plugin and exit.
    func shutdown() {
        lock.lock()
        defer { lock.unlock() }
        if case .discard = machine.shutdownRequested(), let process {
            process.closeInput()
            process.reap(graceSeconds: 2)
            self.process = nil
        }
    }

    private var startupDeadline: Double {
        monotonicSeconds() + max(Double(timeoutMs) / 1000, Self.minimumStartupSeconds)
    }

    // MARK: - Worker I/O

    /// How an exchange with the worker went wrong, mapped onto the state machine's events.
    private enum WorkerFailure: Error {
        case died
        case garbage(String)
        case timedOut
    }

    /// An error reply from the worker (JSON-RPC `error`), which leaves the worker healthy.
    private struct ReplyError: Error, CustomStringConvertible {
        var code: Int
        var message: String
        var description: String { message }
    }

    private func spawn(deadline: Double) throws -> Handshake {
        try library.verify()
        let configFD: Int32
        do { configFD = try ChildProcess.descriptor(holding: config, name: "trailhead-config") } catch {
            throw PluginLoadError(error.description)
        }
        defer { close(configFD) }
        let process = try WorkerProcess(executable: executable, arguments: arguments, descriptors: [configFD])
        self.process = process
        spawnCount += 1
        let result: GeneratedContent
        do {
            result = try exchange(
                method: "initialize",
                params: ["protocolVersion": .string(JSONRPC.protocolVersion), "capabilities": [:], "clientInfo": ["name": "trailhead", "version": "1"]],
                deadline: deadline)
        } catch let error as ReplyError {
            // The worker runs but the plugin cannot load: a load error, not a crash.
            process.closeInput()
            process.reap()
            self.process = nil
            throw PluginLoadError(error.message)
        }
        _ = process.send(Array((JSONRPC.notification(method: "notifications/initialized").jsonString + "\n").utf8))
        let info = result["trailhead"] ?? [:]
        let name = info["plugin"]?.stringValue ?? result["serverInfo"]?["name"]?.stringValue ?? ""
        guard name == plugin else {
            throw PluginLoadError("\(library.fileName): the library's plugin name is '\(name)' but its manifest says '\(plugin)'")
        }
        return Handshake(plugin: name, abiVersion: info["abiVersion"]?.intValue, embeddedManifest: info["embeddedManifest"] ?? .null)
    }

    private func exchange(method: String, params: GeneratedContent, deadline: Double) throws -> GeneratedContent {
        var line = JSONRPC.request(id: nextID, method: method, params: params).jsonString
        line.append("\n")
        return try exchange(line, deadline: deadline)
    }

    private func exchangeToolCall(tool: String, arguments: GeneratedContent, deadline: Double) throws -> GeneratedContent {
        try exchange(JSONRPC.toolCallLine(id: nextID, tool: tool, arguments: arguments), deadline: deadline)
    }

    /// Sends one request line (its id is `nextID`) and reads the reply to it.
    private func exchange(_ line: String, deadline: Double) throws -> GeneratedContent {
        guard let process else { throw WorkerFailure.died }
        let id = nextID
        nextID += 1
        guard process.send(Array(line.utf8)) else { throw WorkerFailure.died }
        switch process.readLine(deadline: deadline, maximumBytes: Self.maximumReplyBytes) {
        case .endOfFile: throw WorkerFailure.died
        case .timedOut: throw WorkerFailure.timedOut
        case .tooLong(let count): throw WorkerFailure.garbage("a reply of more than \(count) bytes")
        case .line(let bytes):
            guard let reply = try? GeneratedContent(json: bytes) else {
                throw WorkerFailure.garbage("a reply that is not JSON: \(String(decoding: bytes.prefix(120), as: UTF8.self))")
            }
            guard reply["id"]?.intValue == id else { throw WorkerFailure.garbage("a reply to another request: \(reply.jsonString.prefix(120))") }
            if let error = reply["error"] {
                throw ReplyError(code: error["code"]?.intValue ?? 0, message: error["message"]?.stringValue ?? error.jsonString)
            }
            guard let result = reply["result"] else { throw WorkerFailure.garbage("a reply without result or error") }
            return result
        }
    }

    /// Applies the state machine's verdict on a failed exchange and builds the tool error.
    private func finish(_ failure: WorkerFailure, tool: String) -> ToolCallError {
        switch failure {
        case .timedOut:
            apply(machine.timedOut())
            return .timedOut(tool: tool, plugin: plugin, timeoutMs: timeoutMs)
        case .died:
            let how = process?.reap() ?? "is gone"
            let stderr = process?.stderrTail.text(last: Self.stderrExcerptBytes) ?? ""
            apply(machine.died())
            return .crashed(tool: tool, plugin: plugin, detail: "its worker \(how)" + Self.excerpt(stderr) + quarantineNote)
        case .garbage(let what):
            apply(machine.sentGarbage())
            return .crashed(tool: tool, plugin: plugin, detail: "its worker sent \(what); it was stopped" + quarantineNote)
        }
    }

    private var quarantineNote: String {
        machine.isQuarantined ? "; the plugin is now quarantined after \(machine.consecutiveCrashes) crashes in a row" : ""
    }

    private static func excerpt(_ stderr: String) -> String {
        let trimmed = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "" : "; stderr: \(trimmed)"
    }

    private func apply(_ action: WorkerStateMachine.EndAction) {
        guard case .discard(let kill, let quarantine) = action else { return }
        if let process {
            if kill { process.kill() } else { process.closeInput() }
            process.reap()
        }
        process = nil
        if quarantine { quarantinedFingerprint = library.fingerprint() }
    }

    /// Maps a `tools/call` result onto the tool's outcome.
    private static func toolOutcome(tool: String, result: GeneratedContent) -> Result<GeneratedContent, ToolCallError> {
        let text = result["content"]?.arrayValue?.first?["text"]?.stringValue
        if result["isError"]?.boolValue == true {
            let message = text ?? "no message"
            switch result["_meta"]?[JSONRPC.errorKindKey]?.stringValue {
            case "invalidResult": return .failure(.invalidResult(tool: tool, message: message))
            default: return .failure(.failed(tool: tool, message: message))
            }
        }
        if let structured = result["structuredContent"] { return .success(structured) }
        guard let text, let value = try? GeneratedContent(json: text) else {
            return .failure(.invalidResult(tool: tool, message: "the worker's reply carries no JSON result"))
        }
        return .success(value)
    }
}
