import Foundation
import TrailheadModels
import TrailheadSchema

/// `agent model check`: the smoke test of the installed llama-server (start it on a model in a
/// private folder, decode a few tokens, stop it). The build script runs it before installing a
/// build; `agent doctor` runs the same test.
struct ModelCheckCommand: Command {
    static let configuration = CommandConfiguration(
        name: "check",
        summary: "Smoke-test llama-server: load a model, decode a few tokens, report the speed or why it failed.",
        discussion: """
            Checks every installed local model unless --model names one. Exits 0 when every check \
            passes, 1 when one fails (a crash, e.g. SIGILL on a CPU the binary does not suit, is \
            named with its fix), 3 when nothing is installed to check.
            """,
        cancelsOnInterrupt: true)

    /// Which installed models to check.
    enum Models: String, CaseIterable, ArgumentValue {
        case `default`, test, all
    }

    @Option(valueName: "NAME", help: "'default' (Qwen2.5-Coder-1.5B), 'test' (SmolLM2-135M) or 'all' (default: all installed).")
    var model = Models.all
    @Option(valueName: "PATH", help: "The llama-server binary to check (default: the installed one).") var server: String?
    @Flag(help: "Print one JSON object per model, one per line.") var json: Bool

    func run(context: CommandContext) async throws -> ExitCode {
        var environment = context.environment
        if let server { environment["TRAILHEAD_LLAMA_SERVER"] = context.absolutePath(server) }
        let assets = ModelAssets(environment: environment)
        let candidates: [ModelAssets.ModelFile] = switch model {
        case .default: [ModelAssets.defaultModel]
        case .test: [ModelAssets.testModel]
        case .all: [ModelAssets.testModel, ModelAssets.defaultModel]
        }
        let installed = candidates.filter { FileManager.default.fileExists(atPath: assets.modelPath($0)) }
        guard !installed.isEmpty else {
            context.stderr.line("agent: no model to check: none of \(candidates.map(\.name).joined(separator: ", ")) is installed — run `make model`")
            return .noModel
        }
        guard FileManager.default.isExecutableFile(atPath: assets.llamaServerPath) else {
            context.stderr.line("agent: \(assets.llamaServerPath) is not installed — run `make model` (Scripts/build-llama-server.sh)")
            return .noModel
        }
        var allPassed = true
        for file in installed {
            let check = await LocalServerCheck.run(model: file, assets: assets)
            allPassed = allPassed && check.passed
            if json {
                context.stdout.line(check.content(modelName: file.name).jsonString)
            } else {
                context.stdout.line(check.summary(modelName: file.name, context: context))
            }
        }
        return allPassed ? .success : .failure
    }
}

extension LocalServerCheck {
    /// One line when it passed; the failure with its fix when it did not.
    func summary(modelName: String, context: CommandContext) -> String {
        let backend = cpuBackend.map { ($0 as NSString).lastPathComponent } ?? "built-in CPU code"
        guard passed else {
            return context.styled("failed", .red) + "  \(server) on \(modelName) (CPU backend: \(backend)):\n  \(failure ?? "")"
        }
        var line = context.styled("ok", .green) + "  \(server) on \(modelName): CPU backend \(backend)"
        if let loadSeconds { line += String(format: ", loaded in %.1f s", loadSeconds) }
        if let prompt = promptTokensPerSecond { line += String(format: ", prompt %.0f tokens/s", prompt) }
        if let decode = decodeTokensPerSecond { line += String(format: ", decode %.1f tokens/s", decode) }
        return line
    }

    func content(modelName: String) -> GeneratedContent {
        var object: JSONObject = [
            "model": .string(modelName), "server": .string(server), "passed": .bool(passed),
            "cpuBackend": cpuBackend.map { .string($0) } ?? .null,
            "loadSeconds": loadSeconds.map { .number($0) } ?? .null,
            "promptTokensPerSecond": promptTokensPerSecond.map { .number($0) } ?? .null,
            "decodeTokensPerSecond": decodeTokensPerSecond.map { .number($0) } ?? .null,
            "failure": failure.map { .string($0) } ?? .null,
        ]
        switch termination {
        case .killed(let signal)?: object["signal"] = .number(Double(signal))
        case .exited(let status)?: object["exitStatus"] = .number(Double(status))
        case nil: break
        }
        return .object(object)
    }
}
