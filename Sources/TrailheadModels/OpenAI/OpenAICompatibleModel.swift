import Foundation
import TrailheadSchema
import TrailheadSupport

/// A model behind an OpenAI-compatible chat-completions endpoint: llama.cpp's llama-server,
/// vLLM, Ollama's `/v1`, OpenAI, Gemini's OpenAI endpoint.
///
/// Output is streamed over server-sent events. A schema becomes a GBNF grammar from our own
/// compiler on llama.cpp (compact: no whitespace for the model to spend) and
/// `response_format: json_schema` elsewhere.
public final class OpenAICompatibleModel: LanguageModel, @unchecked Sendable {
    public let configuration: OpenAICompatibleConfiguration
    public var id: String { configuration.id ?? configuration.endpoint.description }

    /// As configured (`OpenAICompatibleConfiguration.capabilities`): tool calling and guided
    /// generation unless the configuration says the server cannot follow a schema, or reasons.
    public var capabilities: LanguageModelCapabilities { configuration.capabilities }

    /// How the server takes a schema, once probed (or configured).
    private let knownDialect = Locked<StructuredOutputDialect?>(nil)
    /// The server's context per slot, when the dialect's `/props` probe said it.
    private let knownContextSize = Locked<Int?>(nil)

    public init(configuration: OpenAICompatibleConfiguration) {
        self.configuration = configuration
        switch configuration.constraint {
        case .grammar: knownDialect.withLock { $0 = .llamaCppGrammar }
        case .responseFormat: knownDialect.withLock { $0 = .responseFormat }
        case .structuredOutputs: knownDialect.withLock { $0 = .vllmStructuredOutputs }
        case .automatic: break
        }
    }

    /// `OpenAICompatibleModel(endpoint: "http://127.0.0.1:8080/v1#qwen", apiKeyEnvironmentVariable: "OPENAI_API_KEY")`
    public convenience init(endpoint: String, apiKeyEnvironmentVariable: String? = nil) throws(ModelError) {
        self.init(
            configuration: .init(
                endpoint: try ModelEndpoint(parsing: endpoint), apiKeyEnvironmentVariable: apiKeyEnvironmentVariable))
    }

    // MARK: - Availability

    public var availability: ModelAvailability {
        get async {
            let key: String?
            do { key = try apiKey() } catch {
                if case .unavailable(_, let reason) = error { return .unavailable(reason) }
                return .unavailable(.unsupported(detail: error.description))
            }
            do {
                let (status, _, _) = try await HTTPStreamingCall.fetch(
                    makeRequest(configuration.endpoint.url("/models"), method: "GET", body: nil, apiKey: key),
                    timeouts: .init(idle: 3, total: 5))
                if status == 401 || status == 403, let variable = configuration.apiKeyEnvironmentVariable {
                    return .unavailable(
                        .notConfigured(
                            detail: "the server refused the API key in $\(variable) (HTTP \(status))",
                            fix: "set $\(variable) to a valid key"))
                }
                return .available
            } catch {
                return .unavailable(
                    .unreachable(
                        endpoint: configuration.endpoint.baseURL.absoluteString, detail: describe(transport: error)))
            }
        }
    }

    // MARK: - Prewarm and token counting

    public func prewarm(prefix: [ChatMessage]) async throws {
        guard !prefix.isEmpty, await serverIsLlamaCpp() else { return }
        // One token of output is enough to make llama.cpp evaluate and cache the prefix; the
        // next request that starts with the same messages reuses it (`cache_prompt`).
        let body = ChatCompletionRequestBody.make(
            messages: prefix, modelName: configuration.endpoint.modelName, options: .init(temperature: 0, maxTokens: 1),
            constraint: .none, llamaCpp: true, stream: false)
        _ = try await fetchJSON(configuration.endpoint.url("/chat/completions"), body: body)
    }

    public func countTokens(_ text: String) async throws -> Int? {
        guard await serverIsLlamaCpp() else { return nil }
        let answer = try await fetchJSON(
            configuration.endpoint.serverRoot.appendingPathComponent("tokenize"), body: ["content": .string(text)])
        guard let tokens = answer["tokens"]?.arrayValue else {
            throw ModelError.protocolViolation(model: id, message: "/tokenize answered without 'tokens'")
        }
        return tokens.count
    }

    /// The configured size, else what llama.cpp's `/props` said a slot holds
    /// (`default_generation_settings.n_ctx`, read by the dialect's probe); `nil` for servers that
    /// do not say, and for a constraint configured without a probe.
    public var contextSize: Int? {
        get async {
            if let configured = configuration.contextSize { return configured }
            _ = await dialect()
            return knownContextSize.current
        }
    }

    /// Exact on llama.cpp: the messages rendered by the model's own chat template
    /// (`/apply-template`), then `/tokenize`d with its special tokens; `TokenEstimate` elsewhere.
    public func tokenCount(for messages: [ChatMessage]) async throws -> Int {
        guard await serverIsLlamaCpp() else { return TokenEstimate(messages).tokens }
        let prompt = try await renderedPrompt(messages)
        let answer = try await fetchJSON(
            configuration.endpoint.serverRoot.appendingPathComponent("tokenize"),
            body: ["content": .string(prompt), "add_special": true, "parse_special": true])
        guard let tokens = answer["tokens"]?.arrayValue else {
            throw ModelError.protocolViolation(model: id, message: "/tokenize answered without 'tokens'")
        }
        return tokens.count
    }

    /// The messages as llama.cpp's `/apply-template` renders them with the model's own chat template.
    private func renderedPrompt(_ messages: [ChatMessage]) async throws -> String {
        let rendered = try await fetchJSON(
            configuration.endpoint.serverRoot.appendingPathComponent("apply-template"),
            body: ["messages": .array(messages.map { ["role": .string($0.role.rawValue), "content": .string($0.content)] })])
        guard let prompt = rendered["prompt"]?.stringValue else {
            throw ModelError.protocolViolation(model: id, message: "/apply-template answered without 'prompt'")
        }
        return prompt
    }

    /// On llama.cpp: the messages rendered by the model's template (`/apply-template`), `prefix`
    /// appended, and one token asked of `/completion` with `n_probs` — the probabilities of the
    /// model's own distribution before any sampling or grammar. `nil` on other servers.
    public func nextTokenProbabilities(for messages: [ChatMessage], continuing prefix: String, count: Int) async throws -> [TokenProbability]? {
        guard await serverIsLlamaCpp() else { return nil }
        let prompt = try await renderedPrompt(messages)
        let answer = try await fetchJSON(
            configuration.endpoint.serverRoot.appendingPathComponent("completion"),
            body: [
                "prompt": .string(prompt + prefix), "n_predict": 1, "n_probs": .number(Double(max(1, count))), "temperature": 0,
                "cache_prompt": true,
            ])
        guard let probabilities = Self.topProbabilities(in: answer) else {
            throw ModelError.protocolViolation(model: id, message: "/completion answered without 'completion_probabilities'")
        }
        return probabilities
    }

    /// The first token's candidates in a `/completion` answer, in any of llama.cpp's spellings:
    /// `top_logprobs` (`logprob`), `top_probs` (`prob`), or the older `probs` (`tok_str`, `prob`).
    static func topProbabilities(in answer: GeneratedContent) -> [TokenProbability]? {
        guard let first = answer["completion_probabilities"]?.arrayValue?.first else { return nil }
        let candidates = first["top_logprobs"]?.arrayValue ?? first["top_probs"]?.arrayValue ?? first["probs"]?.arrayValue
        guard let candidates else { return nil }
        return candidates.compactMap { candidate in
            guard let token = candidate["token"]?.stringValue ?? candidate["tok_str"]?.stringValue else { return nil }
            if let probability = candidate["prob"]?.doubleValue { return TokenProbability(token: token, probability: probability) }
            if let logprob = candidate["logprob"]?.doubleValue { return TokenProbability(token: token, probability: exp(logprob)) }
            return nil
        }
    }

    // MARK: - Generation

    public func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        .producing { continuation in try await self.run(request, continuation) }
    }

    private func run(_ request: ModelRequest, _ continuation: AsyncThrowingStream<ModelEvent, any Error>.Continuation)
        async throws
    {
        let started = monotonicSeconds()
        let key = try apiKey()
        let dialect = await dialect()
        if let contextSize = await contextSize { try await checkFits(request.messages, contextSize: contextSize) }
        let body = ChatCompletionRequestBody.make(
            messages: request.messages, modelName: configuration.endpoint.modelName,
            options: request.options.over(configuration.defaultOptions),
            constraint: try request.schema.map { schema throws(ModelError) in try dialect.constraint(for: schema, model: id) } ?? .none,
            llamaCpp: dialect == .llamaCppGrammar)
        let urlRequest = makeRequest(
            configuration.endpoint.url("/chat/completions"), method: "POST", body: body, apiKey: key)

        var retry = 0
        while true {
            try Task.checkCancellation()
            do {
                let attempt = ChatCompletionAttempt(model: self, started: started, continuation: continuation)
                var response = try await attempt.run(urlRequest)
                try check(response.text, against: request.schema, finishReason: response.finishReason)
                response.timings.total = monotonicSeconds() - started
                continuation.yield(.completed(response))
                return
            } catch let failure as RetryableFailure {
                guard configuration.retry.allowsRetry(retry, retryAfter: failure.retryAfter) else { throw failure.error }
                let delay = configuration.retry.delay(forRetry: retry, retryAfter: failure.retryAfter)
                retry += 1
                try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            }
        }
    }

    private func check(_ text: String, against schema: GenerationSchema?, finishReason: String?) throws(ModelError) {
        guard let schema, configuration.validatesOutput else { return }
        let value: GeneratedContent
        do { value = try GeneratedContent(json: text) } catch {
            if finishReason == "length" { throw .outputTokenLimit(model: id, text: text) }
            throw .schemaMismatch(model: id, message: "not one JSON document (\(error)): \(text.prefix(200))")
        }
        let violations = schema.validate(value)
        guard violations.isEmpty else {
            throw .schemaMismatch(
                model: id, message: violations.prefix(3).map(\.description).joined(separator: "; "))
        }
    }

    // MARK: - Plumbing

    /// Whether the server is llama.cpp's (it takes our grammars, `/tokenize`, `cache_prompt`).
    func serverIsLlamaCpp() async -> Bool { await dialect() == .llamaCppGrammar }

    /// The server's structured-output dialect, probed once: `GET /props` (only llama.cpp answers
    /// it with its generation settings), then `GET /version` (vLLM's). An unreachable server is
    /// probed again next time instead of remembering a guess.
    public func dialect() async -> StructuredOutputDialect {
        if let known = knownDialect.current { return known }
        func get(_ path: String) async -> (reachable: Bool, body: GeneratedContent?) {
            guard let (status, _, body) = try? await HTTPStreamingCall.fetch(
                makeRequest(configuration.endpoint.serverRoot.appendingPathComponent(path), method: "GET", body: nil, apiKey: try? apiKey()),
                timeouts: .init(idle: 3, total: 5))
            else { return (false, nil) }
            return (true, status == 200 ? try? GeneratedContent(json: body) : nil)
        }
        let props = await get("props")
        guard props.reachable else { return .responseFormat }
        let found: StructuredOutputDialect
        if let props = props.body, props["default_generation_settings"] != nil || props["build_info"] != nil {
            found = .llamaCppGrammar
            let size = props["default_generation_settings"]?["n_ctx"]?.intValue ?? props["n_ctx"]?.intValue
            knownContextSize.withLock { $0 = size.flatMap { $0 > 0 ? $0 : nil } }
        } else if let version = await get("version").body?["version"]?.stringValue {
            found = StructuredOutputDialect.vllm(version: version)
        } else {
            found = .responseFormat
        }
        knownDialect.withLock { $0 = found }
        return found
    }

    /// The API key from the configured environment variable; never logged.
    func apiKey() throws(ModelError) -> String? {
        guard let variable = configuration.apiKeyEnvironmentVariable else { return nil }
        guard let key = ProcessInfo.processInfo.environment[variable], !key.isEmpty else {
            throw .unavailable(
                model: id,
                reason: .notConfigured(
                    detail: "the API key variable $\(variable) is not set",
                    fix: "export \(variable)=… (the key is read from the environment, never stored)"))
        }
        return key
    }

    /// Removes the API key from text that may have echoed it (error bodies).
    func redact(_ text: String) -> String {
        guard let key = try? apiKey(), !key.isEmpty else { return text }
        return text.replacingOccurrences(of: key, with: "[redacted]")
    }

    func makeRequest(_ url: URL, method: String, body: GeneratedContent?, apiKey: String?) -> HTTPClient.Request {
        var request = HTTPClient.Request(url: url.absoluteString, method: method)
        if let body {
            request.body = Array(body.jsonString.utf8)
            request.headers["Content-Type"] = "application/json"
        }
        request.headers["Accept"] = "text/event-stream, application/json"
        if let apiKey { request.headers["Authorization"] = "Bearer \(apiKey)" }
        return request
    }

    var timeouts: HTTPStreamingCall.Timeouts {
        .init(idle: configuration.idleTimeout, total: configuration.requestTimeout)
    }

    /// POSTs a JSON body and returns the JSON answer, retrying like a generation.
    func fetchJSON(_ url: URL, body: GeneratedContent) async throws -> GeneratedContent {
        let request = makeRequest(url, method: "POST", body: body, apiKey: try apiKey())
        var retry = 0
        while true {
            do {
                let (status, headers, data) = try await HTTPStreamingCall.fetch(request, timeouts: timeouts)
                guard (200..<300).contains(status) else {
                    throw failure(status: status, body: String(decoding: data, as: UTF8.self), retryAfter: headers["retry-after"])
                }
                do { return try GeneratedContent(json: data) } catch {
                    throw ModelError.protocolViolation(model: id, message: "\(url.path) answered with invalid JSON: \(error)")
                }
            } catch let failure as RetryableFailure {
                guard configuration.retry.allowsRetry(retry, retryAfter: failure.retryAfter) else { throw failure.error }
                try await Task.sleep(
                    nanoseconds: UInt64(configuration.retry.delay(forRetry: retry, retryAfter: failure.retryAfter) * 1e9))
                retry += 1
            } catch let error as HTTPTransportError {
                let mapped = map(transport: error)
                if case .refused = error, retry < configuration.retry.maximumRetries {
                    try await Task.sleep(nanoseconds: UInt64(configuration.retry.delay(forRetry: retry, retryAfter: nil) * 1e9))
                    retry += 1
                    continue
                }
                throw mapped
            }
        }
    }

    /// The error of an answer with HTTP `status` (not 2xx): a 429 is `rateLimited` until the date
    /// its `Retry-After` names (none when the header is missing or malformed); a 429 or 5xx comes
    /// wrapped as a `RetryableFailure`, with the wait the server asked for.
    func failure(status: Int, body: String, retryAfter header: String?) -> any Error {
        let body = redact(body)
        let error: any Error =
            status == 429
            ? LanguageModelError.rateLimited(model: id, resetDate: header.flatMap { RetryAfter.date($0) }, body: body)
            : ModelError.httpStatus(model: id, status: status, body: body)
        guard RetryPolicy.isRetryable(status: status) else { return error }
        return RetryableFailure(error: error, retryAfter: header.flatMap { RetryAfter.seconds($0) })
    }

    func map(transport error: HTTPTransportError) -> any Error {
        switch error {
        case .cancelled: CancellationError()
        case .idleTimeout(let s): LanguageModelError.timeout(model: id, seconds: s)
        case .totalTimeout(let s): LanguageModelError.timeout(model: id, seconds: s)
        case .refused(let m): ModelError.connection(model: id, message: "model endpoint \(m)")
        case .failed(let m): ModelError.connection(model: id, message: redact(m))
        }
    }

    private func describe(transport error: any Error) -> String {
        switch error as? HTTPTransportError {
        case .refused(let m)?: m
        case .idleTimeout(let s)?, .totalTimeout(let s)?: "no answer within \(s) s"
        case .failed(let m)?: m
        default: String(describing: error)
        }
    }
}

/// A failure before any output that another attempt may fix.
struct RetryableFailure: Error {
    var error: any Error
    /// The seconds the server asked to wait (`Retry-After`), when it did.
    var retryAfter: Double?
}
