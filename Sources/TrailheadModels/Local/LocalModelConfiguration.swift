/// How the managed local model is run.
public struct LocalModelConfiguration: Sendable {
    public var model: ModelAssets.ModelFile
    public var assets: ModelAssets
    /// Where the state file, log and last-use stamp live (default `$TRAILHEAD_CACHE/run`).
    public var runDirectory: String
    /// A fixed port; `nil` picks a free one. A fixed port that is taken is an error.
    public var port: Int?
    public var threads: Int
    public var contextSize: Int
    /// Stop the server after this long without requests; `nil` keeps it running until `stop`.
    public var idleShutdownSeconds: Int?
    /// How long loading the model may take.
    public var startupTimeout: Double
    public var defaultOptions: GenerationOptions
    /// Check the model file's sha256 (once per size and modification time) before loading it.
    public var verifiesModelFile: Bool
    /// More arguments for llama-server (the smoke test raises its log verbosity to see which
    /// CPU variant ggml loaded).
    public var extraServerArguments: [String] = []

    public init(
        model: ModelAssets.ModelFile = ModelAssets.defaultModel, assets: ModelAssets = ModelAssets(),
        runDirectory: String? = nil, port: Int? = nil, threads: Int = 2, contextSize: Int = 4096,
        idleShutdownSeconds: Int? = 600, startupTimeout: Double = 120,
        defaultOptions: GenerationOptions = .init(temperature: 0.2), verifiesModelFile: Bool = true
    ) {
        self.model = model
        self.assets = assets
        self.runDirectory = runDirectory ?? assets.runDirectory
        self.port = port
        self.threads = threads
        self.contextSize = contextSize
        self.idleShutdownSeconds = idleShutdownSeconds
        self.startupTimeout = startupTimeout
        self.defaultOptions = defaultOptions
        self.verifiesModelFile = verifiesModelFile
    }

    var statePath: String { runDirectory + "/local-model.json" }
    var logPath: String { runDirectory + "/local-model.log" }
    var stampPath: String { runDirectory + "/local-model.last-use" }
    var crashPath: String { runDirectory + "/local-model.crash.json" }
}
