import Foundation
import TrailheadSchema
import TrailheadSupport


/// Carries out `LocalServerLifecycle`'s actions: reads and writes the state file, spawns and
/// probes llama-server, starts the watchdog. An actor, so one start happens at a time.
actor LocalServerManager {
    let configuration: LocalModelConfiguration
    let modelID: String
    private var lifecycle = LocalServerLifecycle()
    private var backend: (server: LocalServerLifecycle.Server, model: OpenAICompatibleModel)?

    init(configuration: LocalModelConfiguration, modelID: String) {
        self.configuration = configuration
        self.modelID = modelID
    }

    /// The backend talking to a healthy server, starting one if needed.
    func ensureRunning() async throws -> OpenAICompatibleModel {
        var action = lifecycle.serverNeeded()
        while true {
            switch action {
            case .use(let server), .recordAndUse(let server):
                if case .recordAndUse = action { try record(server) }
                if let backend, backend.server == server { return backend.model }
                let model = makeBackend(port: server.port)
                backend = (server, model)
                return model
            case .inspectRecordedServer:
                let recorded = LocalServerRecord.read(configuration.statePath)
                let server = recorded.map { LocalServerLifecycle.Server(pid: $0.pid, port: $0.port) }
                var usable = false
                if let recorded { usable = await isUsable(recorded) }
                action = lifecycle.inspected(server, usable: usable)
            case .replace(let server):
                ProcessSpawner.terminate(server.pid)
                try? FileManager.default.removeItem(atPath: configuration.statePath)
                action = lifecycle.replaced()
            case .start:
                do {
                    let server = try spawnServer()
                    action = lifecycle.spawned(server)
                } catch let failure as StartFailure {
                    action = lifecycle.failedToStart(failure.message, retryable: failure.retryable)
                } catch {
                    // Missing files, a bad hash, a taken fixed port: keep the precise error.
                    _ = lifecycle.failedToStart(String(describing: error), retryable: false)
                    throw error
                }
            case .waitUntilHealthy(let server):
                do {
                    try await waitUntilHealthy(server)
                    action = lifecycle.becameHealthy()
                } catch {
                    ProcessSpawner.terminate(server.pid)
                    let failure = error as? StartFailure
                    action = lifecycle.failedToStart(
                        failure?.message ?? String(describing: error), retryable: failure?.retryable ?? false)
                }
            case .stop, .forget:
                // Only answers to stopRequested/serverLost; never to serverNeeded.
                throw ModelError.localServer(message: "unexpected lifecycle action \(action)")
            case .fail(let message):
                throw ModelError.localServer(message: message)
            }
        }
    }

    /// The running server broke a request's connection: forget it so the next request starts
    /// anew. Returns the error to report instead of retrying when the server crashed (a signal
    /// such as SIGILL would only repeat on a fresh start).
    func serverLost() async -> ModelError? {
        guard let server = forgetServer() else { return nil }
        // The connection drops a moment before the process is reaped.
        let deadline = monotonicSeconds() + 2
        while ProcessSpawner.isAlive(server.pid), monotonicSeconds() < deadline {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        guard let ended = await ProcessSpawner.termination(of: server.pid, within: 1), ended.isCrash else { return nil }
        try? FileManager.default.removeItem(atPath: configuration.statePath)
        return .localServer(message: recordCrash(ended, while: "answering a request", logTail: logTail()))
    }

    /// Forgets the running server, returning it. Not inlined: Swift 6.3.1's release build crashed
    /// ("Found ownership error", CopyPropagation) on the lifecycle's state read inside the async
    /// `serverLost()`.
    @inline(never)
    private func forgetServer() -> LocalServerLifecycle.Server? {
        let server = lifecycle.runningServer
        _ = lifecycle.serverLost()
        backend = nil
        return server
    }

    /// Stops the server this process uses or the state file names.
    @discardableResult
    func stop() -> LocalServerRecord? {
        let recorded = LocalServerRecord.read(configuration.statePath)
        let action = lifecycle.stopRequested(recorded: recorded.map { .init(pid: $0.pid, port: $0.port) })
        backend = nil
        if case .stop(let server) = action { stop(server) }
        try? FileManager.default.removeItem(atPath: configuration.statePath)
        return recorded
    }

    /// The recorded server, when it is alive and answering.
    func status() async -> LocalServerRecord? {
        guard let recorded = LocalServerRecord.read(configuration.statePath),
            ProcessSpawner.isAlive(recorded.pid), await health(port: recorded.port) == 200
        else { return nil }
        return recorded
    }

    private func stop(_ server: LocalServerLifecycle.Server) {
        ProcessSpawner.terminate(server.pid)
        if let recorded = LocalServerRecord.read(configuration.statePath), recorded.pid == server.pid {
            try? FileManager.default.removeItem(atPath: configuration.statePath)
        }
    }

    // MARK: - Effects

    private struct StartFailure: Error {
        var message: String
        var retryable: Bool
    }

    private func isUsable(_ record: LocalServerRecord) async -> Bool {
        // Another slot count or context is another server: reusing it would silently queue
        // sessions behind one slot (or cut their context); it is replaced.
        guard ProcessSpawner.isAlive(record.pid), record.modelPath == modelPath,
            record.slots == configuration.parallelSlots, record.contextPerSlot == configuration.contextSize,
            ProcessSpawner.executablePath(record.pid).map({ $0.hasSuffix("llama-server") }) ?? true
        else { return false }
        // A server still loading answers 503: give it the startup time.
        do {
            try await waitUntilHealthy(.init(pid: record.pid, port: record.port))
            return true
        } catch { return false }
    }

    private var modelPath: String { configuration.assets.modelPath(configuration.model) }

    private func spawnServer() throws -> LocalServerLifecycle.Server {
        let located: (server: String, model: String)
        switch configuration.assets.locate(configuration.model) {
        case .success(let found): located = found
        case .failure(let reason): throw ModelError.unavailable(model: modelID, reason: reason)
        }
        if let crash = LocalServerCrash.read(configuration.crashPath), crash.concerns(server: located.server) {
            throw ModelError.localServer(message: crash.message)
        }
        if configuration.verifiesModelFile { try configuration.assets.verify(configuration.model) }
        let port: Int
        if let fixed = configuration.port {
            if LocalPorts.isInUse(fixed) {
                throw ModelError.localServer(
                    message: "port \(fixed) on 127.0.0.1 is already in use by another program; choose another port or leave it unset to pick a free one")
            }
            port = fixed
        } else {
            port = try LocalPorts.freePort()
        }
        try FileManager.default.createDirectory(atPath: configuration.runDirectory, withIntermediateDirectories: true)
        let arguments = [
            "-m", located.model, "--host", "127.0.0.1", "--port", "\(port)", "-t", "\(configuration.threads)",
            // llama-server divides -c among its slots: each gets `contextSize`.
            "-c", "\(configuration.contextSize * configuration.parallelSlots)", "-np", "\(configuration.parallelSlots)",
            "--no-webui", "--jinja", "--alias", configuration.model.name,
        ] + configuration.extraServerArguments
        appendToLog("\n== \(Date()) starting \(located.server) \(arguments.joined(separator: " "))\n")
        do {
            let pid = try ProcessSpawner.spawn(located.server, arguments, logPath: configuration.logPath, detached: true)
            return .init(pid: pid, port: port)
        } catch {
            throw StartFailure(message: error.description, retryable: false)
        }
    }

    private func waitUntilHealthy(_ server: LocalServerLifecycle.Server) async throws {
        let deadline = monotonicSeconds() + configuration.startupTimeout
        while monotonicSeconds() < deadline {
            guard ProcessSpawner.isAlive(server.pid) else {
                let ended = await ProcessSpawner.termination(of: server.pid, within: 2)
                let tail = logTail()
                if let ended, ended.isCrash { throw StartFailure(message: recordCrash(ended, while: "starting", logTail: tail), retryable: false) }
                let portTaken = tail.contains("bind") || tail.contains("in use")
                let how = ended.map { "\($0)" } ?? "exited"
                throw StartFailure(
                    message: "llama-server \(how) while starting; its log (\(configuration.logPath)) ends:\n\(tail)",
                    retryable: portTaken && configuration.port == nil)
            }
            if await health(port: server.port) == 200 { return }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw StartFailure(
            message: "llama-server did not become ready within \(Int(configuration.startupTimeout)) s (log: \(configuration.logPath))",
            retryable: false)
    }

    private func health(port: Int) async -> Int? {
        try? await HTTPStreamingCall.fetch(HTTPClient.Request(url: "http://127.0.0.1:\(port)/health"), timeouts: .init(idle: 2, total: 3)).status
    }

    private func record(_ server: LocalServerLifecycle.Server) throws {
        let located = configuration.assets.llamaServerPath
        try LocalServerRecord(
            pid: server.pid, port: server.port, modelPath: modelPath, serverPath: located,
            startedAt: Date().timeIntervalSince1970, slots: configuration.parallelSlots, contextPerSlot: configuration.contextSize
        ).write(configuration.statePath)
        IdleWatchdog.touch(configuration.stampPath)
        if let idle = configuration.idleShutdownSeconds {
            try IdleWatchdog.start(
                serverPID: server.pid,
                serverExecutable: ProcessSpawner.executablePath(server.pid) ?? configuration.assets.llamaServerPath,
                stampPath: configuration.stampPath, idleSeconds: idle,
                statePath: configuration.statePath, logPath: configuration.logPath)
        }
    }

    private func makeBackend(port: Int) -> OpenAICompatibleModel {
        OpenAICompatibleModel(
            configuration: .init(
                endpoint: ModelEndpoint(baseURL: URL(string: "http://127.0.0.1:\(port)/v1")!),
                constraint: .grammar, defaultOptions: configuration.defaultOptions,
                retry: RetryPolicy(maximumRetries: 1, initialDelay: 0.1), idleTimeout: 120, id: modelID,
                contextSize: configuration.contextSize))
    }

    private func appendToLog(_ text: String) {
        guard let handle = FileHandle(forWritingAtPath: configuration.logPath) else {
            _ = FileManager.default.createFile(atPath: configuration.logPath, contents: Data(text.utf8))
            return
        }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data(text.utf8))
    }

    /// Remembers a crash of the current binary (so `availability` can say this CPU cannot run it
    /// and no later command starts it again until it is rebuilt) and returns the message.
    private func recordCrash(_ ended: ProcessTermination, while doing: String, logTail: String) -> String {
        let crash = LocalServerCrash(
            server: configuration.assets.llamaServerPath, termination: ended, activity: doing,
            logPath: configuration.logPath, logTail: logTail)
        try? FileManager.default.createDirectory(atPath: configuration.runDirectory, withIntermediateDirectories: true)
        crash.write(configuration.crashPath)
        return crash.message
    }

    private func logTail() -> String {
        guard let data = FileManager.default.contents(atPath: configuration.logPath) else { return "(no log)" }
        let lines = String(decoding: data.suffix(4000), as: UTF8.self).split(separator: "\n").suffix(8)
        return lines.joined(separator: "\n")
    }
}
