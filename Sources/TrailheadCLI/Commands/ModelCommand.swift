import Dispatch
import Foundation
import TrailheadModels
import TrailheadSchema
import TrailheadSupport

/// `agent model`: the managed local model (llama-server on 127.0.0.1).
struct ModelCommand: Command {
    static let configuration = CommandConfiguration(
        name: "model",
        summary: "Start, stop, prewarm and inspect the managed local model.",
        discussion: """
            The local model is llama-server serving a pinned GGUF on 127.0.0.1. It starts on \
            demand, is reused by later commands (state in $TRAILHEAD_CACHE/run/local-model.MODEL.json) \
            and stops by itself after --idle-minutes without requests (default 10).
            """,
        subcommands: [ModelStatusCommand.self, ModelStartCommand.self, ModelStopCommand.self, ModelPrewarmCommand.self, ModelCheckCommand.self])

    /// Prints why the model cannot be used and returns exit code 3, or nil when it can.
    static func unavailableExit(_ model: LocalModel, context: CommandContext) async -> ExitCode? {
        if case .unavailable(let reason) = await model.availability {
            context.stderr.line("agent: \(model.id): \(reason)")
            return .noModel
        }
        return nil
    }
}

/// The options every `agent model` subcommand takes: which local model, and how to run it.
struct LocalModelOptions: ParsableArguments {
    /// The installed local models by the names the options use.
    enum Name: String, CaseIterable, ArgumentValue {
        case `default`, test

        var file: ModelAssets.ModelFile { self == .default ? ModelAssets.defaultModel : ModelAssets.testModel }
    }

    @Option(valueName: "NAME", help: "'default' (Qwen2.5-Coder-1.5B) or 'test' (SmolLM2-135M).")
    var model = Name.default
    @Option(valueName: "PORT", in: PortNumber.fixed, help: "A fixed port on 127.0.0.1 (default: a free one).")
    var port: PortNumber?
    @Option(valueName: "N", in: 0..., help: "Stop after N minutes without requests (0: never).")
    var idleMinutes = 10

    func localModel(context: CommandContext) -> LocalModel {
        LocalModel(
            configuration: LocalModelConfiguration(
                model: model.file, assets: ModelAssets(environment: context.environment), port: port?.number,
                idleShutdownSeconds: idleMinutes == 0 ? nil : idleMinutes * 60))
    }
}

struct ModelStatusCommand: Command {
    static let configuration = CommandConfiguration(
        name: "status", summary: "Say whether the local model is installed and running.", cancelsOnInterrupt: true)

    @OptionGroup var options: LocalModelOptions
    @Flag(help: "Print a JSON object.") var json: Bool

    func run(context: CommandContext) async throws -> ExitCode {
        let model = options.localModel(context: context)
        let availability = await model.availability
        let running = await model.status()
        if json {
            var object: JSONObject = ["model": .string(model.id), "available": .bool(availability.isAvailable)]
            if case .unavailable(let reason) = availability {
                object["reason"] = .string(reason.description)
                object["fix"] = reason.fix.map { .string($0) } ?? .null
            }
            object["running"] = .bool(running != nil)
            if let running { object["pid"] = .number(Double(running.pid)); object["endpoint"] = .string(running.endpoint) }
            context.stdout.line(GeneratedContent.object(object).jsonString)
        } else {
            context.stdout.line("\(model.id): \(availability)")
            if let running {
                context.stdout.line("running: pid \(running.pid) at \(running.endpoint) (\(running.modelPath))")
            } else {
                context.stdout.line("not running (it starts on demand, or with `agent model start`)")
            }
        }
        return availability.isAvailable ? .success : .noModel
    }
}

struct ModelStartCommand: Command {
    static let configuration = CommandConfiguration(
        name: "start", summary: "Start the local model (or find it running) and print its endpoint.", cancelsOnInterrupt: true)

    @OptionGroup var options: LocalModelOptions

    func run(context: CommandContext) async throws -> ExitCode {
        let model = options.localModel(context: context)
        if let exit = await ModelCommand.unavailableExit(model, context: context) { return exit }
        let started = monotonicSeconds()
        let record = try await model.start()
        context.stdout.line("\(model.id): running, pid \(record.pid) at \(record.endpoint)")
        context.stderr.line(String(format: "ready in %.2f s", monotonicSeconds() - started))
        return .success
    }
}

struct ModelStopCommand: Command {
    static let configuration = CommandConfiguration(
        name: "stop", summary: "Stop the local model if it runs.", cancelsOnInterrupt: true)

    @OptionGroup var options: LocalModelOptions

    func run(context: CommandContext) async throws -> ExitCode {
        let model = options.localModel(context: context)
        if let record = await model.stop() {
            context.stdout.line("stopped pid \(record.pid) (\(record.endpoint))")
        } else {
            context.stdout.line("not running")
        }
        return .success
    }
}

struct ModelPrewarmCommand: Command {
    static let configuration = CommandConfiguration(
        name: "prewarm",
        summary: "Start the local model and evaluate an instructions prefix into its cache.",
        cancelsOnInterrupt: true)

    @OptionGroup var options: LocalModelOptions
    @Option(valueName: "TEXT|@FILE", help: "The system message a session will start with.")
    var instructions = "You are a helpful assistant."

    func run(context: CommandContext) async throws -> ExitCode {
        let model = options.localModel(context: context)
        if let exit = await ModelCommand.unavailableExit(model, context: context) { return exit }
        var instructions = self.instructions
        if instructions.hasPrefix("@") {
            let path = context.absolutePath(String(instructions.dropFirst()))
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandError("cannot read \(path)", exitCode: .usage) }
            instructions = String(decoding: data, as: UTF8.self)
        }
        let started = monotonicSeconds()
        let prefix: [ChatMessage] = [.system(instructions)]
        try await model.prewarm(prefix: prefix)
        context.stdout.line(String(format: "\(model.id): prewarmed in %.2f s", monotonicSeconds() - started))
        return .success
    }
}

