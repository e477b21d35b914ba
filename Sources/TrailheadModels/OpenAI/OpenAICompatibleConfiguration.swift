/// How to talk to an OpenAI-compatible server.
public struct OpenAICompatibleConfiguration: Sendable {
    /// How output is constrained to a schema.
    public enum ConstraintMode: Sendable, Hashable {
        /// Probe the server once (`StructuredOutputDialect`): llama.cpp gets a grammar, vLLM
        /// `structured_outputs`, others `response_format`.
        case automatic
        /// A GBNF grammar from our compiler in the request's `grammar` field (llama.cpp only).
        case grammar
        /// `response_format: {"type": "json_schema", …, "strict": true}`.
        case responseFormat
        /// vLLM's `structured_outputs: {"json": schema}` (0.12 and later).
        case structuredOutputs
    }

    public var endpoint: ModelEndpoint
    /// The environment variable that holds the API key; the key itself is never stored,
    /// printed or logged.
    public var apiKeyEnvironmentVariable: String?
    public var constraint: ConstraintMode
    /// Options applied under each request's own (a request's non-nil values win).
    public var defaultOptions: GenerationOptions
    public var retry: RetryPolicy
    /// Longest silence allowed while waiting for the head or the next chunk.
    public var idleTimeout: Double
    /// Longest a whole generation may take.
    public var requestTimeout: Double
    /// Check the output against the request's schema and fail with `.schemaMismatch` if it
    /// does not match (a server that ignored the constraint).
    public var validatesOutput: Bool
    /// The id reported in final records; defaults to the endpoint's text.
    public var id: String?
    /// Tokens of context per conversation, when known beforehand (the managed server's per
    /// slot); `nil` asks a llama.cpp server (`/props`) and leaves other servers unknown.
    public var contextSize: Int?
    /// What the server can do. Every dialect takes a schema, so the default is tool calling and
    /// guided generation; a server known to ignore schemas is declared without them (a session
    /// then refuses what needs them instead of sending it), one that reasons with `.reasoning`.
    public var capabilities: LanguageModelCapabilities

    public init(
        endpoint: ModelEndpoint, apiKeyEnvironmentVariable: String? = nil, constraint: ConstraintMode = .automatic,
        defaultOptions: GenerationOptions = .init(), retry: RetryPolicy = .init(), idleTimeout: Double = 60,
        requestTimeout: Double = 600, validatesOutput: Bool = true, id: String? = nil, contextSize: Int? = nil,
        capabilities: LanguageModelCapabilities = .toolCallingAndGuidedGeneration
    ) {
        self.capabilities = capabilities
        self.endpoint = endpoint
        self.apiKeyEnvironmentVariable = apiKeyEnvironmentVariable
        self.constraint = constraint
        self.defaultOptions = defaultOptions
        self.retry = retry
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.validatesOutput = validatesOutput
        self.id = id
        self.contextSize = contextSize
    }
}

extension GenerationOptions {
    /// These options with `defaults` filling the gaps.
    func over(_ defaults: GenerationOptions) -> GenerationOptions {
        GenerationOptions(
            temperature: temperature ?? defaults.temperature, topP: topP ?? defaults.topP, topK: topK ?? defaults.topK,
            seed: seed ?? defaults.seed, maxTokens: maxTokens ?? defaults.maxTokens,
            toolCallingMode: toolCallingMode ?? defaults.toolCallingMode)
    }
}
