import TrailheadSupport
import Foundation

/// Where the local model's files live, shared with the setup scripts: the llama-server binary
/// built by `Scripts/build-llama-server.sh` and the weights fetched by `Scripts/fetch-models.sh`,
/// all under `$TRAILHEAD_CACHE` (default `~/.cache/trailhead`), outside any checkout.
public struct ModelAssets: Sendable, Hashable {
    /// The llama-cpp-python sdist whose vendored llama.cpp builds llama-server.
    public static let llamaCppPythonVersion = "0.3.36"

    /// A pinned model file.
    public struct ModelFile: Sendable, Hashable {
        /// Short name used in ids and messages.
        public var name: String
        public var fileName: String
        public var sha256: String
        /// The argument of `Scripts/fetch-models.sh` that installs it.
        public var fetchArgument: String

        public init(name: String, fileName: String, sha256: String, fetchArgument: String) {
            self.name = name
            self.fileName = fileName
            self.sha256 = sha256
            self.fetchArgument = fetchArgument
        }
    }

    /// Qwen2.5-Coder-1.5B-Instruct Q4_K_M (Apache-2.0): the runtime's default.
    public static let defaultModel = ModelFile(
        name: "qwen2.5-coder-1.5b-instruct", fileName: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046", fetchArgument: "default")

    /// SmolLM2-135M-Instruct Q4_1 (Apache-2.0): fast, for tests of the plumbing only.
    public static let testModel = ModelFile(
        name: "smollm2-135m-instruct", fileName: "SmolLM2-135M-Instruct.Q4_1.gguf",
        sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53", fetchArgument: "test")

    /// `$TRAILHEAD_CACHE`, else `$XDG_CACHE_HOME/trailhead`, else `~/.cache/trailhead` (as `Scripts/common.sh`).
    public var cacheDirectory: String
    /// `$TRAILHEAD_LLAMA_SERVER` overrides the built binary (e.g. a llama-server from elsewhere).
    public var llamaServerOverride: String?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let cache = environment["TRAILHEAD_CACHE"], !cache.isEmpty {
            cacheDirectory = cache
        } else if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            cacheDirectory = xdg + "/trailhead"
        } else {
            cacheDirectory = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/trailhead"
        }
        llamaServerOverride = environment["TRAILHEAD_LLAMA_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public func modelPath(_ model: ModelFile) -> String { cacheDirectory + "/models/" + model.fileName }

    /// Where the managed server's state file, log and last-use stamp live.
    public var runDirectory: String { cacheDirectory + "/run" }

    /// How `Scripts/build-llama-server.sh` builds llama-server by default: every ggml CPU variant
    /// as a library beside the binary, the best one this CPU can run chosen when it starts (as
    /// llama.cpp's releases do), and only variants that pass the smoke test kept. The name is the
    /// cache key, with a revision: a binary of an older recipe (e.g. `-march=native`, which died
    /// with SIGILL on a VM that advertises AMX) is never reused.
    public static let llamaServerFlavour = "portable-r1"

    /// The installed llama-server (`$TRAILHEAD_LLAMA_SERVER` when set).
    public var llamaServerPath: String {
        if let llamaServerOverride { return llamaServerOverride }
        return cacheDirectory + "/llama-server/\(Self.llamaCppPythonVersion)-\(Self.llamaServerFlavour)-\(Self.machine())/llama-server"
    }

    /// `uname -m` (x86_64, aarch64), as the build script names it.
    static func machine() -> String {
        var name = utsname()
        uname(&name)
        return withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The server binary and the model file, or why they cannot be used and how to fix it.
    public func locate(_ model: ModelFile) -> Result<(server: String, model: String), UnavailableReason> {
        let server = llamaServerPath
        guard FileManager.default.isExecutableFile(atPath: server) else {
            return .failure(
                .notInstalled(
                    what: "llama-server (\(server))",
                    fix: "`make model` (or Scripts/build-llama-server.sh)"))
        }
        let path = modelPath(model)
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(
                .notInstalled(
                    what: "the model \(model.name) (\(path))",
                    fix: "`make model` (or Scripts/fetch-models.sh \(model.fetchArgument))"))
        }
        return .success((server, path))
    }

    /// Checks the model file's sha256 against its pin, once per size and modification time
    /// (remembered in a stamp file beside it), so it is not rehashed on every start.
    public func verify(_ model: ModelFile) throws(ModelError) {
        let path = modelPath(model)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value,
            let modified = attributes[.modificationDate] as? Date
        else {
            throw .localServer(message: "cannot read \(path)")
        }
        let stamp = path + ".verified"
        let expected = "\(model.sha256) \(size) \(Int64(modified.timeIntervalSince1970 * 1000))"
        if let recorded = try? String(contentsOfFile: stamp, encoding: .utf8), recorded == expected { return }
        let actual: String
        do { actual = try SHA256.hex(ofFileAt: path) } catch {
            throw .localServer(message: "cannot read \(path): \(error)")
        }
        guard actual == model.sha256 else {
            throw .localServer(
                message: "\(path) has sha256 \(actual), expected \(model.sha256); delete it and run Scripts/fetch-models.sh \(model.fetchArgument)")
        }
        try? expected.write(toFile: stamp, atomically: true, encoding: .utf8)
    }
}
