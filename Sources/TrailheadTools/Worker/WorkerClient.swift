import Foundation
import Synchronization
import TrailheadSchema
import TrailheadSupport

/// Calls one plugin's tools through its worker (an `agent-tool-host` process, or an MCP server
/// reached over stdio or HTTP), restarting it after a crash, stopping it on a timeout or a
/// cancellation, and quarantining the plugin after repeated crashes (see `WorkerStateMachine`).
/// Calls are serialised: a worker answers one request at a time.
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
    let launcher: any WorkerLauncher
    private let timeoutMs: Int
    /// The name each tool has on the wire, when it differs from the registered one (a prefix).
    private let wireNames: [String: String]
    private let lock = NSLock()
    private var machine: WorkerStateMachine
    private var channel: (any WorkerChannel)?
    private var nextID = 1
    private var quarantinedFingerprint: LibraryFile.Fingerprint?
    /// The peer said its tool list changed: it is restarted (and checked again) before the next call.
    private var toolsChanged = false
    /// Workers started so far (the first one included): a transcript can report restarts.
    private(set) var spawnCount = 0
    /// Mirrors the state machine's quarantine for readers that must not wait for a call to end.
    private let quarantined = Mutex(false)
    /// Told when the plugin enters (true) or leaves (false) quarantine.
    let onQuarantineChange: (@Sendable (Bool) -> Void)?

    init(plugin: String, launcher: any WorkerLauncher, timeoutMs: Int, crashLimit: Int = 3, wireNames: [String: String] = [:],
         onQuarantineChange: (@Sendable (Bool) -> Void)? = nil) {
        self.plugin = plugin
        self.launcher = launcher
        self.timeoutMs = timeoutMs
        self.wireNames = wireNames
        self.machine = WorkerStateMachine(crashLimit: crashLimit)
        self.onQuarantineChange = onQuarantineChange
    }

    deinit { shutdown() }

    var isQuarantined: Bool { quarantined.withLock { $0 } }

    /// Starts the worker now and returns its handshake, so load-time problems (a missing
    /// symbol, a wrong ABI version, a refused `open`, a changed MCP server) surface when the registry loads.
    func start() throws(PluginLoadError) -> WorkerHandshake {
        lock.lock()
        defer { lock.unlock() }
        guard machine.callRequested() == .spawnThenSend else { preconditionFailure("start() on a started worker") }
        do {
            let handshake = try spawn(deadline: startupDeadline)
            _ = machine.replied()
            return handshake
        } catch {
            let stderr = channel?.stderrExcerpt(last: Self.stderrExcerptBytes) ?? ""
            let how: String
            switch error {
            case WorkerFailure.died: how = channel?.reap() ?? "is gone"
            case WorkerFailure.timedOut: how = "did not answer initialize within \(Int(max(Double(timeoutMs) / 1000, Self.minimumStartupSeconds))) s"
            default: how = ""
            }
            apply(machine.spawnFailed())
            if let error = error as? PluginLoadError { throw error }
            if case WorkerFailure.garbage(let what) = error { throw PluginLoadError("\(launcher.label): \(launcher.peer) sent \(what)") }
            throw PluginLoadError("\(launcher.label): \(launcher.peer) \(how) while starting" + Self.excerpt(stderr))
        }
    }

    /// Calls `tool` (its registered name) with validated `arguments`.
    func call(tool: String, arguments: GeneratedContent, cancellation: ToolCallCancellation? = nil) -> Result<GeneratedContent, ToolCallError> {
        lock.lock()
        defer { lock.unlock() }
        if cancellation?.isCancelled == true { return .failure(.cancelled(tool: tool)) }
        if toolsChanged, channel != nil {
            // Restart it, so the new list is checked against the pin like a restart after a crash.
            toolsChanged = false
            apply(machine.shutdownRequested())
        }
        var action = machine.callRequested()
        if case .refuseQuarantined = action, let quarantinedFingerprint, launcher.fingerprint() != quarantinedFingerprint {
            liftQuarantine()
            action = machine.callRequested()
        }
        switch action {
        case .refuseQuarantined(let crashes):
            let remedy = launcher.fingerprint() == nil ? "load it again to retry" : "replace its library file to try again"
            return .failure(.unavailable(tool: tool, plugin: plugin, reason: "is quarantined after \(crashes) crashes in a row; \(remedy)"))
        case .spawnThenSend:
            do { _ = try spawn(deadline: startupDeadline) } catch let error as WorkerFailure {
                return .failure(finish(error, tool: tool, cancellation: nil))
            } catch {
                apply(machine.spawnFailed())
                return .failure(.unavailable(tool: tool, plugin: plugin, reason: "cannot start: \(error)"))
            }
        case .send:
            break
        }
        do {
            let deadline = monotonicSeconds() + Double(timeoutMs) / 1000
            if let cancellation, let channel {
                // `kill()` is the one channel method safe from another thread.
                nonisolated(unsafe) let target = channel
                cancellation.whileCancellable { target.kill() }
            }
            defer { cancellation?.whileCancellable(nil) }
            let result = try exchange(JSONRPC.toolCallLine(id: nextID, tool: wireNames[tool] ?? tool, arguments: arguments), deadline: deadline)
            apply(machine.replied())
            return launcher.outcome(tool: tool, result: result)
        } catch let failure as WorkerFailure {
            return .failure(finish(failure, tool: tool, cancellation: cancellation))
        } catch {
            apply(machine.replied())
            return .failure(.failed(tool: tool, message: "\(error)"))
        }
    }

    /// Lifts a quarantine when what it depends on changed (a new library file); true when lifted.
    func recheckQuarantine() -> Bool {
        guard isQuarantined else { return false }
        lock.lock()
        defer { lock.unlock() }
        guard machine.isQuarantined, let quarantinedFingerprint, launcher.fingerprint() != quarantinedFingerprint else { return false }
        liftQuarantine()
        return true
    }

    /// Stops a running worker: closing its stdin lets it `close` the plugin and exit.
    func shutdown() {
        lock.lock()
        defer { lock.unlock() }
        if case .discard = machine.shutdownRequested(), let channel {
            channel.closeInput()
            channel.reap(graceSeconds: 2)
            self.channel = nil
        }
    }

    private var startupDeadline: Double {
        monotonicSeconds() + max(Double(timeoutMs) / 1000, Self.minimumStartupSeconds)
    }

    private func liftQuarantine() {
        machine.libraryChanged()
        quarantinedFingerprint = nil
        quarantined.withLock { $0 = false }
        onQuarantineChange?(false)
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

    private func spawn(deadline: Double) throws -> WorkerHandshake {
        let channel = try launcher.launch()
        self.channel = channel
        spawnCount += 1
        toolsChanged = false
        let result: GeneratedContent
        do {
            result = try exchange(method: "initialize", params: JSONRPC.initializeParams, deadline: deadline)
        } catch let error as ReplyError {
            // The worker runs but the plugin cannot load: a load error, not a crash.
            channel.closeInput()
            channel.reap(graceSeconds: 2)
            self.channel = nil
            throw PluginLoadError(error.message)
        }
        _ = channel.send(Array((JSONRPC.notification(method: "notifications/initialized").jsonString + "\n").utf8))
        return try launcher.accept(initializeResult: result) { method, params in
            do { return try self.exchange(method: method, params: params, deadline: deadline) } catch let error as ReplyError {
                throw PluginLoadError("\(self.launcher.label): \(method) failed: \(error.message)")
            }
        }
    }

    private func exchange(method: String, params: GeneratedContent, deadline: Double) throws -> GeneratedContent {
        var line = JSONRPC.request(id: nextID, method: method, params: params).jsonString
        line.append("\n")
        return try exchange(line, deadline: deadline)
    }

    /// Sends one request line (its id is `nextID`) and reads the reply to it. Notifications
    /// from the peer are taken in passing, and its own requests (an MCP server's `ping`) answered.
    private func exchange(_ line: String, deadline: Double) throws -> GeneratedContent {
        guard let channel else { throw WorkerFailure.died }
        let id = nextID
        nextID += 1
        guard channel.send(Array(line.utf8)) else { throw WorkerFailure.died }
        while true {
            switch channel.readLine(deadline: deadline, maximumBytes: Self.maximumReplyBytes) {
            case .endOfFile: throw WorkerFailure.died
            case .timedOut: throw WorkerFailure.timedOut
            case .tooLong(let count): throw WorkerFailure.garbage("a reply of more than \(count) bytes")
            case .line(let bytes):
                guard let message = try? GeneratedContent(json: bytes), case .object = message else {
                    throw WorkerFailure.garbage("a reply that is not JSON: \(String(decoding: bytes.prefix(120), as: UTF8.self))")
                }
                if case .string(let method) = message["method"] ?? .null {
                    takePeerMessage(method: method, id: message["id"], channel: channel)
                    continue
                }
                guard message["id"]?.intValue == id else { throw WorkerFailure.garbage("a reply to another request: \(message.jsonString.prefix(120))") }
                if let error = message["error"] {
                    throw ReplyError(code: error["code"]?.intValue ?? 0, message: error["message"]?.stringValue ?? error.jsonString)
                }
                guard let result = message["result"] else { throw WorkerFailure.garbage("a reply without result or error") }
                return result
            }
        }
    }

    /// A request or notification from the peer while a reply is awaited. Trailhead offers an
    /// MCP server no client capabilities, so only `ping` has an answer.
    private func takePeerMessage(method: String, id: GeneratedContent?, channel: any WorkerChannel) {
        guard let id else {
            if method == "notifications/tools/list_changed" { toolsChanged = true }
            return
        }
        let reply =
            method == "ping"
            ? JSONRPC.result(id: id, [:]) : JSONRPC.error(id: id, code: JSONRPC.methodNotFound, message: "Trailhead does not offer '\(method)'")
        _ = channel.send(Array((reply.jsonString + "\n").utf8))
    }

    /// Applies the state machine's verdict on a failed exchange and builds the tool error.
    private func finish(_ failure: WorkerFailure, tool: String, cancellation: ToolCallCancellation?) -> ToolCallError {
        if cancellation?.isCancelled == true {
            apply(machine.cancelled())
            return .cancelled(tool: tool)
        }
        switch failure {
        case .timedOut:
            apply(machine.timedOut())
            return .timedOut(tool: tool, plugin: plugin, timeoutMs: timeoutMs)
        case .died:
            let how = channel?.reap() ?? "is gone"
            let stderr = channel?.stderrExcerpt(last: Self.stderrExcerptBytes) ?? ""
            apply(machine.died())
            return .crashed(tool: tool, plugin: plugin, detail: "\(launcher.peer) \(how)" + Self.excerpt(stderr) + quarantineNote)
        case .garbage(let what):
            apply(machine.sentGarbage())
            return .crashed(tool: tool, plugin: plugin, detail: "\(launcher.peer) sent \(what); it was stopped" + quarantineNote)
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
        if let channel {
            if kill { channel.kill() } else { channel.closeInput() }
            channel.reap(graceSeconds: kill ? nil : 2)
        }
        channel = nil
        if quarantine {
            quarantinedFingerprint = launcher.fingerprint()
            quarantined.withLock { $0 = true }
            onQuarantineChange?(true)
        }
    }
}
