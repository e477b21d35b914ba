import Foundation

/// The smoke test of the managed server: start a private llama-server on the model, decode a few
/// tokens, stop it. `Scripts/build-llama-server.sh` runs it (through `agent model check`) on
/// every build before installing it, and `agent doctor` runs it on what is installed, so a binary
/// this machine cannot run is caught before a plan needs it.
public struct LocalServerCheck: Sendable {
    public var server: String
    public var model: String
    /// The ggml CPU variant the server chose (`libggml-cpu-icelake.so`), when its log says.
    public var cpuBackend: String?
    /// Rates measured by the server itself on this test's short prompt.
    public var promptTokensPerSecond: Double?
    public var decodeTokensPerSecond: Double?
    public var loadSeconds: Double?
    /// Why it failed (with the fix), or nil when it passed.
    public var failure: String?
    /// How the server ended when it died.
    public var termination: ProcessTermination?

    public var passed: Bool { failure == nil }

    /// Runs the test. The server runs in a private folder on a free port: a managed server that
    /// is already running is not disturbed. The verdict on the installed binary is also recorded
    /// where the managed model looks for it (a crash makes `availability` say why; a pass clears it).
    public static func run(model file: ModelAssets.ModelFile, assets: ModelAssets = ModelAssets(), timeout: Double = 120) async -> LocalServerCheck {
        let runDirectory = NSTemporaryDirectory() + "trailhead-check-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: runDirectory) }
        var configuration = LocalModelConfiguration(
            model: file, assets: assets, runDirectory: runDirectory, idleShutdownSeconds: nil, startupTimeout: timeout,
            defaultOptions: .init(temperature: 0, seed: 1))
        configuration.extraServerArguments = verboseLog
        let model = LocalModel(configuration: configuration)
        var check = LocalServerCheck(server: assets.llamaServerPath, model: assets.modelPath(file))
        let userCrashPath = LocalModelConfiguration(model: file, assets: assets).crashPath
        let started = monotonicSeconds()
        do {
            try await model.start()
            check.loadSeconds = monotonicSeconds() - started
            let request = ModelRequest(
                messages: [.user("Count from one to ten in words.")], options: .init(temperature: 0, seed: 1, maxTokens: 12))
            let response = try await model.respond(to: request)
            if let usage = response.usage {
                if let seconds = response.timings.serverPromptSeconds, seconds > 0 {
                    check.promptTokensPerSecond = Double(usage.promptTokens - (usage.cachedPromptTokens ?? 0)) / seconds
                }
                if let seconds = response.timings.serverGenerationSeconds, seconds > 0 {
                    check.decodeTokensPerSecond = Double(usage.completionTokens) / seconds
                }
                if usage.completionTokens == 0 { check.failure = "llama-server answered without decoding a token" }
            }
        } catch {
            check.failure = "\(error)"
        }
        check.cpuBackend = cpuBackend(inLog: configuration.logPath)
        await model.stop()
        let crash = LocalServerCrash.read(configuration.crashPath)
        check.termination = crash?.termination
        if let crash, crash.server == check.server {
            try? FileManager.default.createDirectory(atPath: assets.runDirectory, withIntermediateDirectories: true)
            crash.write(userCrashPath)
        } else if check.passed, LocalServerCrash.read(userCrashPath)?.server == check.server {
            LocalServerCrash.forget(userCrashPath)
        }
        return check
    }

    /// llama-server's log verbosity that names the CPU variant it loaded (a debug line).
    public static let verboseLog = ["-lv", "4"]

    /// The last "loaded CPU backend from PATH" line of a llama-server log (ggml's backend loader).
    public static func cpuBackend(inLog path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let marker = "loaded CPU backend from "
        guard let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last(where: { $0.contains(marker) }),
            let range = line.range(of: marker)
        else { return nil }
        return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
    }
}
