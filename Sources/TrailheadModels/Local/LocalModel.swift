import Foundation
import TrailheadSchema

/// The runtime's managed local model: llama-server serving a pinned GGUF on 127.0.0.1.
///
/// Started on first use (or by `start`/`prewarm`), reused by later commands through the state
/// file, restarted when found dead, and stopped by `stop` or after `idleShutdownSeconds`
/// without requests (see `IdleWatchdog`). Requests go through `OpenAICompatibleModel` with our
/// compact GBNF grammar for schemas.
public final class LocalModel: LanguageModel, Sendable {
    public let configuration: LocalModelConfiguration
    public let id: String
    private let manager: LocalServerManager
    /// Requests beyond the server's slots wait here, not inside the server (see `SlotGate`).
    private let gate: SlotGate

    public init(configuration: LocalModelConfiguration = LocalModelConfiguration()) {
        self.configuration = configuration
        id = "local:" + configuration.model.name
        manager = LocalServerManager(configuration: configuration, modelID: id)
        gate = SlotGate(slots: configuration.parallelSlots)
    }

    /// Tool calling and guided generation: every schema becomes a GBNF grammar llama-server
    /// enforces token by token. (The pinned models do not reason in tokens of their own.)
    public var capabilities: LanguageModelCapabilities { .toolCallingAndGuidedGeneration }

    public var availability: ModelAvailability {
        get async {
            switch configuration.assets.locate(configuration.model) {
            case .failure(let reason): return .unavailable(reason)
            case .success(let found):
                if let crash = LocalServerCrash.read(configuration.crashPath), crash.concerns(server: found.server) {
                    return .unavailable(crash.reason)
                }
                return .available
            }
        }
    }

    /// Starts the server (or finds the running one) and returns where it listens.
    @discardableResult
    public func start() async throws -> LocalServerRecord {
        _ = try await manager.ensureRunning()
        guard let record = LocalServerRecord.read(configuration.statePath) else {
            throw ModelError.localServer(message: "the server started but its state file \(configuration.statePath) is missing")
        }
        return record
    }

    /// Stops the managed server, if one runs; returns what it was.
    @discardableResult
    public func stop() async -> LocalServerRecord? { await manager.stop() }

    /// The running server, if any (alive and answering `/health`).
    public func status() async -> LocalServerRecord? { await manager.status() }

    public func prewarm(prefix: [ChatMessage]) async throws {
        let backend = try await manager.ensureRunning()
        IdleWatchdog.touch(configuration.stampPath)
        try await backend.prewarm(prefix: prefix)
    }

    public func countTokens(_ text: String) async throws -> Int? {
        try await manager.ensureRunning().countTokens(text)
    }

    /// The configured context per slot (`LocalModelConfiguration.contextSize`), known without
    /// starting the server.
    public var contextSize: Int? { get async { configuration.contextSize } }

    /// Exact, by the model's own template and tokenizer; starts the server if it is not running.
    public func tokenCount(for messages: [ChatMessage]) async throws -> Int {
        try await manager.ensureRunning().tokenCount(for: messages)
    }

    public func nextTokenProbabilities(for messages: [ChatMessage], continuing prefix: String, count: Int) async throws -> [TokenProbability]? {
        await gate.acquire()
        defer { gate.release() }
        let backend = try await manager.ensureRunning()
        IdleWatchdog.touch(configuration.stampPath)
        return try await backend.nextTokenProbabilities(for: messages, continuing: prefix, count: count)
    }

    public func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        .producing { continuation in
            await self.gate.acquire()
            defer { self.gate.release() }
            try Task.checkCancellation()
            try await self.run(request, continuation)
        }
    }

    /// One attempt, and one more on a fresh server when the first found the server gone before
    /// any output (it crashed, or the idle watchdog stopped it a moment ago).
    private func run(_ request: ModelRequest, _ continuation: AsyncThrowingStream<ModelEvent, any Error>.Continuation) async throws {
        for attempt in 1...2 {
            let backend = try await manager.ensureRunning()
            IdleWatchdog.touch(configuration.stampPath)
            defer { IdleWatchdog.touch(configuration.stampPath) }
            // A request in flight is use, not idleness, however long the prompt takes.
            let stampPath = configuration.stampPath
            let heartbeat = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 1_000_000_000)
                    IdleWatchdog.touch(stampPath)
                }
            }
            defer { heartbeat.cancel() }
            var produced = false
            do {
                for try await event in backend.generate(request) {
                    if case .text = event { produced = true }
                    continuation.yield(event)
                }
                return
            } catch let error as ModelError {
                guard case .connection = error else { throw error }
                if let crash = await manager.serverLost() { throw crash }
                guard !produced, attempt == 1 else { throw error }
            }
        }
    }
}
