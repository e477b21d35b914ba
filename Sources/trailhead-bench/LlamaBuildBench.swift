import Foundation
import TrailheadModels

/// `trailhead-bench llama-builds`: the portable llama-server (every CPU variant, the best this
/// CPU runs chosen at start) against `-march=native` builds of the same source on this machine:
/// prompt and decode tokens/s of the default model, from the server's own timings, alternating
/// builds so drift in the machine's speed hits all of them alike. A native build that does not
/// run here (SIGILL on a VM that advertises AMX) is reported as such.
struct LlamaBuildBench: Benchmark {
    let name = "llama-builds"
    let repetitions = Int(ProcessInfo.processInfo.environment["TRAILHEAD_BENCH_REPS"] ?? "") ?? 3

    struct Build {
        var label: String
        var server: String
    }

    /// A prompt of a few hundred tokens, different per run so no cache serves it.
    static func prompt(_ tag: String) -> [ChatMessage] {
        let text = String(repeating: "The trail climbs through boulders and Joshua trees to a wide viewpoint over the valley. ", count: 12)
        return [.system("[\(tag)] You describe hikes."), .user(text + "Describe this hike in detail, step by step, at length.")]
    }

    func run() throws {
        let assets = ModelAssets()
        let version = ModelAssets.llamaCppPythonVersion
        let folder = assets.cacheDirectory + "/llama-server"
        var builds = [Build(label: "portable (\(ModelAssets.llamaServerFlavour))", server: assets.llamaServerPath)]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for flavour in ["native", "native-noamx"] {
            let prefix = "\(version)-\(flavour)-r1-"
            if let found = names.first(where: { $0.hasPrefix(prefix) && !$0.hasSuffix(".smoke-failed") && !$0.hasSuffix(".staging") && !$0.dropFirst(prefix.count).contains("-") }),
               FileManager.default.isExecutableFile(atPath: "\(folder)/\(found)/llama-server") {
                builds.append(Build(label: "-march=\(flavour == "native" ? "native" : "native, no AMX")", server: "\(folder)/\(found)/llama-server"))
            } else if let failed = names.first(where: { $0.hasPrefix(prefix) && $0.hasSuffix(".smoke-failed") }),
                      let reason = try? String(contentsOfFile: "\(folder)/\(failed)", encoding: .utf8) {
                print("-march=\(flavour): does not run on this machine: \(reason.split(separator: "\n").first ?? "")")
            } else {
                print("-march=\(flavour): not built (make bench builds it with Scripts/build-llama-server.sh \(flavour))")
            }
        }
        var prompt: [String: [Double]] = [:], decode: [String: [Double]] = [:], backend: [String: String] = [:]
        for rep in 0..<repetitions {
            for build in builds {
                var environment = ProcessInfo.processInfo.environment
                environment["TRAILHEAD_LLAMA_SERVER"] = build.server
                let runDirectory = NSTemporaryDirectory() + "trailhead-bench-builds-\(getpid())-\(rep)-\(abs(build.label.hashValue))"
                var configuration = LocalModelConfiguration(
                    model: ModelAssets.defaultModel, assets: ModelAssets(environment: environment), runDirectory: runDirectory,
                    idleShutdownSeconds: nil, defaultOptions: .init(temperature: 0))
                configuration.extraServerArguments = LocalServerCheck.verboseLog
                let model = LocalModel(configuration: configuration)
                defer {
                    _ = blocking { await model.stop() }
                    try? FileManager.default.removeItem(atPath: runDirectory)
                }
                let response = try blocking {
                    try await model.respond(to: ModelRequest(messages: Self.prompt("\(build.label) \(rep)"), options: .init(temperature: 0, maxTokens: 96)))
                }
                backend[build.label] = LocalServerCheck.cpuBackend(inLog: configuration.logPath).map { ($0 as NSString).lastPathComponent } ?? "static"
                guard let usage = response.usage, let p = response.timings.serverPromptSeconds, let d = response.timings.serverGenerationSeconds else { continue }
                prompt[build.label, default: []].append(Double(usage.promptTokens - (usage.cachedPromptTokens ?? 0)) / p)
                decode[build.label, default: []].append(Double(usage.completionTokens) / d)
            }
        }
        print("| llama-server build (\(ModelAssets.defaultModel.name), 2 threads) | CPU code | prompt tokens/s | decode tokens/s | decode vs portable |")
        print("|---|---|---|---|---|")
        let reference = percentile(decode[builds[0].label] ?? [], 0.5)
        for build in builds {
            let d = percentile(decode[build.label] ?? [], 0.5)
            print(String(format: "| %@ | %@ | %.1f | %.2f | %.3f |", build.label, backend[build.label] ?? "?",
                         percentile(prompt[build.label] ?? [], 0.5), d, d / reference))
        }
        print("medians of \(repetitions), builds alternating; load average at the end: \(loadAverage())")
    }
}
