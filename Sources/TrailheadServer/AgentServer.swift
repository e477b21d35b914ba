import Foundation
import Synchronization
import TrailheadAgent
import TrailheadModels
import TrailheadPostgres
import TrailheadSchema
import TrailheadSupport
import TrailheadTools

/// `agent serve`: the configured agents behind OpenAI-compatible HTTP —
/// `POST /v1/chat/completions` (the request's `model` names the agent, or `local`: the served
/// model, plain; the agents' tool calls run here; `stream: true` sends server-sent events with the
/// answer as it is written) and `POST /v1/responses` (`previous_response_id` continues a stored
/// conversation, on any replica that shares the store), `GET /v1/models` (agents and models) and
/// `GET /health`. A request's own `tools` are the client's (`ClientTool`): offered under the step
/// schema, never run here — the response ends with the calls, and the client sends their outputs.
///
/// On 127.0.0.1 by default. Any other address needs an API key (`apiKey`, read by the command from
/// an environment variable and never logged): every request must then carry
/// `Authorization: Bearer KEY`, and one without it is refused with 401.
public final class AgentServer: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var apiKey: String?
        public var agents: [AgentSpec]
        public var store: any SessionStore
        public var models: ModelSource
        /// How long a response waits for an unavailable store before it fails (503).
        public var storeTimeout: Double
        /// Where background responses are kept (`"background": true`); nil: none are served.
        public var runs: PostgresRunStore?
        /// The worker this process runs for them (nil: none here; `agent worker` processes do).
        public var worker: BackgroundWorker.Configuration?

        public init(
            host: String = "127.0.0.1", port: Int = 0, apiKey: String? = nil, agents: [AgentSpec] = [.tripPlanner], store: any SessionStore,
            models: ModelSource, storeTimeout: Double = 30, runs: PostgresRunStore? = nil, worker: BackgroundWorker.Configuration? = nil
        ) {
            self.host = host
            self.port = port
            self.apiKey = apiKey
            self.agents = agents
            self.store = store
            self.models = models
            self.storeTimeout = storeTimeout
            self.runs = runs
            self.worker = worker
        }
    }

    /// Why the server cannot start as configured.
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    public let configuration: Configuration
    let runner: AgentRunner
    /// The in-process worker of background responses, when configured.
    let worker: BackgroundWorker?
    private let server: HTTPServer
    /// Conversations with a response under way in this process (a second request for the same
    /// one waits its turn instead of racing it for the store's next entry).
    let busy = Mutex<Set<String>>([])

    public var port: Int { server.port }
    public var url: String { "http://\(configuration.host):\(server.port)/v1" }
    /// The web app's page.
    public var pageURL: String { "http://\(configuration.host):\(server.port)/" }

    public init(configuration: Configuration, registry: ToolRegistry) throws(SetupError) {
        if !Self.isLoopback(configuration.host), (configuration.apiKey ?? "").isEmpty {
            throw SetupError(description: "listening on \(configuration.host) needs an API key: set the environment variable named by --api-key-env (default TRAILHEAD_API_KEY)")
        }
        self.configuration = configuration
        runner = AgentRunner(
            agents: Dictionary(configuration.agents.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }), registry: registry,
            store: configuration.store, models: configuration.models, storeTimeout: configuration.storeTimeout)
        if let runs = configuration.runs, let settings = configuration.worker {
            worker = BackgroundWorker(configuration: settings, runs: runs, runner: runner)
        } else {
            worker = nil
        }
        let handler = Handler()
        let key = configuration.apiKey ?? ""
        let admit: @Sendable (HTTPHead) -> HTTPServer.Response? = { head in
            guard !key.isEmpty, !Self.authorized(head[header: "authorization"], key: key) else { return nil }
            // The web app's page and files load without it (a browser cannot send it for a page);
            // its API asks the key the page's field holds.
            let path = head.startLine[1].split(separator: "?").first.map(String.init) ?? ""
            if Self.isPublicWebFile(method: head.startLine[0], path: path) { return nil }
            return APIError.response(401, "missing or wrong API key: send Authorization: Bearer KEY", type: "invalid_request_error", code: "invalid_api_key")
        }
        // A health check, the model list and the web app's files answer at once, on libmicrohttpd's polling thread.
        let runsInline: @Sendable (HTTPHead) -> Bool = { head in
            let path = head.startLine[1].split(separator: "?").first.map(String.init) ?? ""
            return head.startLine[0] == "GET" && (["/health", "/v1/models"].contains(path) || Self.isPublicWebFile(method: "GET", path: path))
        }
        do {
            server = try HTTPServer(host: configuration.host, port: configuration.port, admit: admit, runsInline: runsInline) { handler.handle($0) }
        } catch {
            throw SetupError(description: error.message)
        }
        handler.server.withLock { $0 = self }
    }

    /// Serves until `stop()` (and runs background responses, with a worker configured).
    public func run() {
        worker?.start()
        server.run()
    }

    public func stop() {
        worker?.stop()
        server.stop()
    }

    static func isLoopback(_ host: String) -> Bool { host == "127.0.0.1" || host == "localhost" || host.hasPrefix("127.") }

    /// Routes a request (the server is set once it exists).
    private final class Handler: Sendable {
        let server = Mutex<AgentServer?>(nil)
        func handle(_ request: HTTPServer.Request) -> HTTPServer.Outcome {
            guard let server = server.withLock({ $0 }) else { return .respond(APIError.response(503, "starting", type: "unavailable")) }
            return server.route(request)
        }
    }

    /// Routes a request whose API key was checked from its head, before its body was read.
    func route(_ request: HTTPServer.Request) -> HTTPServer.Outcome {
        let path = request.path.split(separator: "?").first.map(String.init) ?? request.path
        if let page = webApp(request, path: path) { return page }
        switch (request.method, path) {
        case ("GET", "/health"): return .respond(.json(200, #"{"status":"ok"}"#))
        case ("GET", "/v1/models"): return .respond(models())
        case ("POST", "/v1/chat/completions"): return chatCompletion(request)
        case ("POST", "/v1/responses"): return response(request)
        case (_, let path) where path.hasPrefix("/v1/responses/"): return backgroundRoute(request, path: path)
        case (_, "/v1/chat/completions"), (_, "/v1/responses"):
            return .respond(APIError.response(405, "use POST", type: "invalid_request_error"))
        default:
            return .respond(APIError.response(404, "no route \(request.method) \(path) (POST /v1/chat/completions, POST /v1/responses, GET /v1/models; the web app at /)", type: "invalid_request_error"))
        }
    }

    /// Compares in time independent of where the texts differ.
    static func authorized(_ header: String?, key: String) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        let given = Array(header.dropFirst(7).utf8), wanted = Array(key.utf8)
        var difference = given.count ^ wanted.count
        for index in 0..<wanted.count { difference |= Int(wanted[index] ^ (index < given.count ? given[index] : 0)) }
        return difference == 0
    }

    private func models() -> HTTPServer.Response {
        let agents = configuration.agents.map { agent -> GeneratedContent in
            ["id": .string(agent.name), "object": "model", "created": 0, "owned_by": "trailhead", "trailhead": ["kind": "agent"]]
        }
        let models = runner.modelNames.filter { name in !configuration.agents.contains { $0.name == name } }.map { name -> GeneratedContent in
            ["id": .string(name), "object": "model", "created": 0, "owned_by": "trailhead", "trailhead": ["kind": "model"]]
        }
        let data = agents + models
        return .json(200, GeneratedContent.object(["object": "list", "data": .array(data)]).jsonString)
    }

    // MARK: - Running a response off the connection's thread

    /// Runs `body` on the concurrency pool and waits for it (a connection has a thread of its own).
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            box.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return box.withLock { $0! }
    }

    /// Marks `session` busy for the duration of `body`; nil when it already is.
    func exclusive<T>(_ session: String, _ body: () async throws -> T) async rethrows -> T? {
        guard busy.withLock({ $0.insert(session).inserted }) else { return nil }
        defer { _ = busy.withLock { $0.remove(session) } }
        return try await body()
    }
}

/// OpenAI's error body: `{"error": {"message", "type", "code"}}`.
enum APIError {
    static func body(_ message: String, type: String, code: String? = nil) -> GeneratedContent {
        ["error": ["message": .string(message), "type": .string(type), "code": code.map { .string($0) } ?? .null]]
    }

    static func response(_ status: Int, _ message: String, type: String, code: String? = nil) -> HTTPServer.Response {
        .json(status, body(message, type: type, code: code).jsonString)
    }

    /// A request that cannot be used: 400, with the field at fault in `param`.
    static func response(for invalid: InvalidRequest) -> HTTPServer.Response {
        let body: GeneratedContent = [
            "error": ["message": .string(invalid.description), "type": "invalid_request_error", "param": invalid.param.map { .string($0) } ?? .null, "code": .null],
        ]
        return .json(400, body.jsonString)
    }

    /// The status and body for a failed response.
    static func response(for failure: AgentRunner.Failure) -> HTTPServer.Response {
        switch failure {
        case .unknownAgent: response(404, failure.description, type: "invalid_request_error", code: "model_not_found")
        case .badRequest: response(400, failure.description, type: "invalid_request_error")
        case .invalid(let invalid): response(for: invalid)
        case .store(let error) where error.kind == .conflict: response(409, failure.description, type: "conflict")
        case .store(let error) where error.kind == .unavailable: response(503, failure.description, type: "unavailable")
        case .store: response(500, failure.description, type: "server_error")
        case .model(let error): response(for: error)
        case .agent: response(500, failure.description, type: "server_error")
        }
    }

    /// A model's failure as OpenAI answers it: a rate limit is a 429 with `Retry-After` (whole
    /// seconds until the model's reset date, when it gave one), a conversation too long a 400
    /// `context_length_exceeded`, a model that did not answer in time a 504.
    static func response(for error: LanguageModelError, now: Date = Date()) -> HTTPServer.Response {
        switch error {
        case .rateLimited(let limit):
            var answer = response(429, "\(error)", type: "rate_limit_error", code: "rate_limit_exceeded")
            if let reset = limit.resetDate { answer.headers["Retry-After"] = String(max(0, Int(reset.timeIntervalSince(now).rounded(.up)))) }
            return answer
        case .contextSizeExceeded: return response(400, "\(error)", type: "invalid_request_error", code: "context_length_exceeded")
        case .timeout: return response(504, "\(error)", type: "timeout")
        case .refusal, .unsupportedCapability: return response(500, "\(error)", type: "server_error")
        }
    }
}
