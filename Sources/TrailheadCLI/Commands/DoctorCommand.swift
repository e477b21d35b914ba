import Foundation
import TrailheadModels
import TrailheadSchema
import TrailheadSupport
import TrailheadTools

/// `agent doctor`: what is installed, what runs, and what to do about what is missing.
struct DoctorCommand: Command {
    static let configuration = CommandConfiguration(
        name: "doctor",
        summary: "Check models, plugins and caches, and say how to fix what is missing.",
        discussion: """
            Runs the smoke test of llama-server (as `agent model check`) on every installed local             model. Exits 0 when the default local model is available and passes it, 3 otherwise.
            """,
        cancelsOnInterrupt: true)

    @Option(valueName: "MODEL", help: "Also check this model (http://HOST:PORT/v1#NAME, scripted:FILE, A,B).")
    var model: [String] = []
    @Option(valueName: "VAR", help: "The environment variable holding that model's API key.") var apiKeyEnv: String?
    @Flag(help: "Print one JSON object.") var json: Bool
    @OptionGroup var pluginFolders: PluginFolderOptions

    func run(context: CommandContext) async throws -> ExitCode {
        let assets = ModelAssets(environment: context.environment)
        var models: [any LanguageModel] = [
            LocalModel(configuration: .init(model: ModelAssets.defaultModel, assets: assets)),
            LocalModel(configuration: .init(model: ModelAssets.testModel, assets: assets)),
        ]
        for endpoint in model {
            do {
                models.append(try ModelSpecifier.model(endpoint, apiKeyEnvironmentVariable: apiKeyEnv, assets: assets))
            } catch {
                throw UsageError("--model \(endpoint): \(error)")
            }
        }
        var modelReports: [GeneratedContent] = []
        var defaultAvailable = false
        var checkSummaries: [Int: String] = [:]
        for (index, model) in models.enumerated() {
            let availability = await model.availability
            var report: JSONObject = ["id": .string(model.id), "available": .bool(availability.isAvailable)]
            if case .unavailable(let reason) = availability {
                report["reason"] = .string(reason.description)
                report["fix"] = reason.fix.map { .string($0) } ?? .null
            }
            // The build's smoke test, run again here: a binary this CPU cannot run is found now,
            // with its fix, rather than in the middle of a plan.
            var smokeTestPassed = availability.isAvailable
            if let local = model as? LocalModel, case .success = local.configuration.assets.locate(local.configuration.model) {
                let check = await LocalServerCheck.run(model: local.configuration.model, assets: local.configuration.assets)
                report["check"] = check.content(modelName: local.configuration.model.name)
                checkSummaries[index] = check.summary(modelName: local.configuration.model.name, context: context)
                smokeTestPassed = check.passed
                if !check.passed { report["available"] = false }
            }
            if index == 0 { defaultAvailable = smokeTestPassed }
            // One managed server at a time: it belongs to the model whose file it serves.
            if let local = model as? LocalModel, let running = await local.status(),
                running.modelPath == local.configuration.assets.modelPath(local.configuration.model)
            {
                report["running"] = ["pid": .number(Double(running.pid)), "endpoint": .string(running.endpoint)]
            }
            modelReports.append(.object(report))
        }
        let folders = pluginFolders.resolved(context)
        let registry = ToolRegistry(.init(pluginsFolder: folders.plugins, manifestsFolder: folders.manifests, home: CommonOptions.home(context: context)))
        let pluginReports: [GeneratedContent] = registry.plugins.map { record in
            ["plugin": .string(record.name), "manifest": .string(record.manifestFile), "status": .string(record.status.description)]
        }
        registry.shutdown()
        let sandbox = SandboxSupport.probe()
        var cacheReports: [GeneratedContent] = []
        for folder in ["llama-server", "models", "venv", "testdata", "sdists", "run"] {
            let path = assets.cacheDirectory + "/" + folder
            let size = Self.directorySize(path)
            cacheReports.append(["name": .string(folder), "path": .string(path), "present": .bool(size != nil), "bytes": size.map { .number(Double($0)) } ?? .null])
        }

        if json {
            context.stdout.line(GeneratedContent.object(["cache": .string(assets.cacheDirectory), "models": .array(modelReports), "plugins": .array(pluginReports),
                "sandbox": ["summary": .string(sandbox.summary), "landlockABI": sandbox.landlockABI.map { .number(Double($0)) } ?? .null,
                            "seccomp": .bool(sandbox.seccomp)],
                "caches": .array(cacheReports)]).jsonString)
        } else {
            context.stdout.line(context.styled("Models", .bold))
            for (index, report) in modelReports.enumerated() {
                let ok = report["available"] == true
                let mark = ok ? context.styled("ok", .green) : context.styled("missing", .red)
                var line = "  \(mark)  \(report["id"]?.stringValue ?? "")"
                if let running = report["running"] { line += "  running at \(running["endpoint"]?.stringValue ?? "") (pid \(running["pid"]?.intValue ?? 0))" }
                context.stdout.line(line)
                if let reason = report["reason"]?.stringValue { context.stdout.line("        \(reason)") }
                if let summary = checkSummaries[index] { context.stdout.line("        smoke test: \(summary)") }
            }
            context.stdout.line(context.styled("Plugins", .bold) + " (\(folders.manifests))")
            if pluginReports.isEmpty { context.stdout.line("  none: run `make` to install the bundled plugins") }
            for report in pluginReports {
                let status = report["status"]?.stringValue ?? ""
                let mark = status == "ok" ? context.styled("ok", .green) : context.styled("refused", .red)
                context.stdout.line("  \(mark)  \(report["plugin"]?.stringValue ?? "")" + (status == "ok" ? "" : ": \(status)"))
            }
            let enforced = sandbox.landlockABI != nil && sandbox.seccomp
            context.stdout.line(
                "  " + (enforced ? context.styled("ok", .green) : context.styled("unconfined", .red)) + "  permissions: \(sandbox.summary)")
            context.stdout.line(context.styled("Caches", .bold) + " (\(assets.cacheDirectory))")
            for report in cacheReports {
                let size = report["bytes"]?.doubleValue.map { Self.format(bytes: $0) } ?? "absent"
                context.stdout.line("  \(report["name"]?.stringValue ?? "")".padding(toLength: 16, withPad: " ", startingAt: 0) + size)
            }
        }
        return defaultAvailable ? .success : .noModel
    }

    /// Total bytes of regular files under `path` (not following links); nil when absent.
    static func directorySize(_ path: String) -> Int64? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else {
            return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        }
        var total: Int64 = 0
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            if let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + relative),
                attributes[.type] as? FileAttributeType == .typeRegular
            {
                total += (attributes[.size] as? NSNumber)?.int64Value ?? 0
            }
        }
        return total
    }

    static func format(bytes: Double) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var value = bytes
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(Int(value)) B" : String(format: "%.1f %@", value, units[unit])
    }
}
