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

    /// Options shared by the subcommands.
    static let options: [OptionSpec] = [
        .option("model", valueName: "NAME", help: "'default' (Qwen2.5-Coder-1.5B) or 'test' (SmolLM2-135M)."),
        .option("port", valueName: "PORT", help: "A fixed port on 127.0.0.1 (default: a free one)."),
        .option("idle-minutes", valueName: "N", help: "Stop after N minutes without requests (0: never)."),
    ]

    static func localModel(_ arguments: ParsedArguments, context: CommandContext) throws -> LocalModel {
        let file: ModelAssets.ModelFile
        switch arguments.value(of: "model") ?? "default" {
        case "default": file = ModelAssets.defaultModel
        case "test": file = ModelAssets.testModel
        case let other: throw UsageError("unknown local model '\(other)': use 'default' or 'test'")
        }
        var port: Int?
        if let text = arguments.value(of: "port") {
            guard let value = Int(text), (1...65535).contains(value) else { throw UsageError("--port must be 1…65535, not '\(text)'") }
            port = value
        }
        var idle: Int? = 600
        if let text = arguments.value(of: "idle-minutes") {
            guard let minutes = Int(text), minutes >= 0 else { throw UsageError("--idle-minutes must be a whole number ≥ 0") }
            idle = minutes == 0 ? nil : minutes * 60
        }
        return LocalModel(
            configuration: LocalModelConfiguration(
                model: file, assets: ModelAssets(environment: context.environment), port: port, idleShutdownSeconds: idle))
    }

    /// Prints why the model cannot be used and returns exit code 3, or nil when it can.
    static func unavailableExit(_ model: LocalModel, context: CommandContext) -> ExitCode? {
        if case .unavailable(let reason) = runAsync({ await model.availability }) {
            context.stderr.line("agent: \(model.id): \(reason)")
            return .noModel
        }
        return nil
    }
}

struct ModelStatusCommand: Command {
    static let configuration = CommandConfiguration(
        name: "status", summary: "Say whether the local model is installed and running.",
        options: ModelCommand.options + [.flag("json", help: "Print a JSON object.")])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let model = try ModelCommand.localModel(arguments, context: context)
        let availability = runAsync { await model.availability }
        let running = runAsync { await model.status() }
        if arguments.flag("json") {
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
        name: "start", summary: "Start the local model (or find it running) and print its endpoint.",
        options: ModelCommand.options)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let model = try ModelCommand.localModel(arguments, context: context)
        if let exit = ModelCommand.unavailableExit(model, context: context) { return exit }
        let started = monotonicSeconds()
        let record = try runAsync { try await model.start() }
        context.stdout.line("\(model.id): running, pid \(record.pid) at \(record.endpoint)")
        context.stderr.line(String(format: "ready in %.2f s", monotonicSeconds() - started))
        return .success
    }
}

struct ModelStopCommand: Command {
    static let configuration = CommandConfiguration(
        name: "stop", summary: "Stop the local model if it runs.", options: ModelCommand.options)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let model = try ModelCommand.localModel(arguments, context: context)
        if let record = runAsync({ await model.stop() }) {
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
        options: ModelCommand.options + [
            .option("instructions", valueName: "TEXT|@FILE", help: "The system message a session will start with."),
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let model = try ModelCommand.localModel(arguments, context: context)
        if let exit = ModelCommand.unavailableExit(model, context: context) { return exit }
        var instructions = arguments.value(of: "instructions") ?? "You are a helpful assistant."
        if instructions.hasPrefix("@") {
            let path = context.absolutePath(String(instructions.dropFirst()))
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandError("cannot read \(path)", exitCode: .usage) }
            instructions = String(decoding: data, as: UTF8.self)
        }
        let started = monotonicSeconds()
        let prefix: [ChatMessage] = [.system(instructions)]
        try runAsync { try await model.prewarm(prefix: prefix) }
        context.stdout.line(String(format: "\(model.id): prewarmed in %.2f s", monotonicSeconds() - started))
        return .success
    }
}

// MARK: - Bridging to async


