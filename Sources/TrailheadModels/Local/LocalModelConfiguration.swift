import Foundation

/// How the managed local model is run.
public struct LocalModelConfiguration: Sendable {
    public var model: ModelAssets.ModelFile
    public var assets: ModelAssets
    /// Where the state file, log and last-use stamp live (default `$TRAILHEAD_CACHE/run`).
    public var runDirectory: String
    /// A fixed port; `nil` picks a free one. A fixed port that is taken is an error.
    public var port: Int?
    public var threads: Int
    /// Tokens of context each slot holds (llama-server gets `contextSize × parallelSlots`).
    public var contextSize: Int
    /// Conversations the server decodes at once (`-np`, batched continuously on the same cores);
    /// more concurrent requests queue. Default `TRAILHEAD_SLOTS`, else `defaultParallelSlots`.
    public var parallelSlots: Int
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
        defaultOptions: GenerationOptions = .init(temperature: 0.2), verifiesModelFile: Bool = true, parallelSlots: Int? = nil
    ) {
        self.parallelSlots = max(1, parallelSlots ?? Self.configuredParallelSlots())
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

    /// Slots when nothing says otherwise, measured with `trailhead-bench concurrency` on a 2-core
    /// machine (docs/SCALING.md): 4 plans at once all progress and finish in about the time of one
    /// on a busy machine; on a quiet one a step of 4 slots cost ~3× a step of one (compute-bound on 2
    /// cores), so the gain is in fairness and no queueing more than in tokens/s; 8 did not pay.
    public static let defaultParallelSlots = 4

    /// `TRAILHEAD_SLOTS` when it holds a number from 1 to 64, else `defaultParallelSlots`.
    public static func configuredParallelSlots(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        guard let text = environment["TRAILHEAD_SLOTS"], let slots = Int(text), (1...64).contains(slots) else { return defaultParallelSlots }
        return slots
    }

    // One server per model in a run directory: starting another model never replaces a server
    // that another process may be streaming from. A crash concerns the llama-server binary, so
    // its record is shared.
    public var statePath: String { runDirectory + "/local-model.\(model.name).json" }
    public var logPath: String { runDirectory + "/local-model.\(model.name).log" }
    var stampPath: String { runDirectory + "/local-model.\(model.name).last-use" }
    var crashPath: String { runDirectory + "/local-model.crash.json" }
}
