import Foundation
import Synchronization
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadTools
import TripPlanner

/// `trailhead-bench concurrency`: 1, 2, 4 and 8 trip plans at once on the managed local model,
/// with as many llama-server slots (`-np N`, continuous batching), and 4 plans on one slot (they
/// queue) as the peer. Per row: the aggregate decode rate (every plan's completion tokens over
/// the wall time of all), each plan's time p50/p95, and the model's own rates (prompt and decode
/// tokens/s per slot, from the server's timings) beside them.
///
/// `TRAILHEAD_BENCH_CONCURRENCY` (default `1,2,4,8`) picks the rows, `TRAILHEAD_BENCH_MODEL=test`
/// runs SmolLM2 (plumbing only). On a shared machine, hold the model lock around it.
struct ConcurrencyBench: Benchmark {
    let name = "concurrency"
    let levels = (ProcessInfo.processInfo.environment["TRAILHEAD_BENCH_CONCURRENCY"] ?? "1,2,4,8").split(separator: ",").compactMap { Int($0) }
    let file = ProcessInfo.processInfo.environment["TRAILHEAD_BENCH_MODEL"] == "test" ? ModelAssets.testModel : ModelAssets.defaultModel

    struct Row {
        var plans: Int
        var slots: Int
        var wall: Double
        var perPlan: [Double]
        var completionTokens: Int
        var decodeSeconds: Double
        var promptTokens: Int
        var promptSeconds: Double
        var failures: [String]
    }

    func run() throws {
        let assets = ModelAssets()
        if case .failure(let reason) = assets.locate(file) { throw reason }
        let home = ProcessInfo.processInfo.environment["TRAILHEAD_HOME"] ?? FileManager.default.currentDirectoryPath
        let registry = ToolRegistry(.checkout(home))
        defer { registry.shutdown() }
        let tools = try registry.sessionTools(plugins: ["poi", "calendar", "contacts"])
        let runDirectory = NSTemporaryDirectory() + "trailhead-bench-concurrency-\(getpid())"
        var rows: [Row] = []
        let configurations = levels.map { ($0, $0) } + (levels.contains(4) ? [(4, 1)] : [])
        say("| plans at once | slots (-np) | aggregate decode tok/s | × one plan | plan p50 | plan p95 | model: prompt tok/s, decode tok/s per slot | failures | load |")
        say("|---|---|---|---|---|---|---|---|---|")
        for (plans, slots) in configurations {
            let model = LocalModel(configuration: .init(
                model: file, runDirectory: runDirectory, idleShutdownSeconds: 600, verifiesModelFile: false, parallelSlots: slots))
            _ = try blocking { try await model.start() }
            let row = measure(plans: plans, slots: slots, model: model, tools: tools)
            rows.append(row)
            let single = rows.first { $0.plans == 1 }.map { Double($0.completionTokens) / $0.wall }
            let aggregate = Double(row.completionTokens) / row.wall
            say(String(format: "| %d | %d | %.1f | %@ | %.1f s | %.1f s | %.0f, %.1f | %d | %@ |", plans, slots, aggregate,
                       single.map { String(format: "%.2f×", aggregate / $0) } ?? "–", percentile(row.perPlan, 0.5), percentile(row.perPlan, 0.95),
                       Double(row.promptTokens) / max(row.promptSeconds, 1e-9), Double(row.completionTokens) / max(row.decodeSeconds, 1e-9),
                       row.failures.count, loadAverage()))
            for failure in row.failures.prefix(3) { say("  failed: \(failure.prefix(200))") }
            _ = blocking { await model.stop() }
        }
        say("model \(file.name), 2 threads; every plan: Joshua Tree National Park, 3 days, the poi, calendar and contacts plugins")
    }

    private func measure(plans: Int, slots: Int, model: LocalModel, tools: [PluginTool]) -> Row {
        let request = TripRequest(landmark: "Joshua Tree National Park", days: 3, from: "2026-12-01", to: "2027-01-29")
        let planner = TripPlanner(request: request)
        return blocking {
            let start = now()
            let results = await withTaskGroup(of: (Double, [Transcript.Entry], String?).self) { group in
                for _ in 0..<plans {
                    group.addTask {
                        let session = planner.makeSession(model: model, tools: tools)
                        let began = now()
                        let stream = planner.plan(with: session, options: .init(temperature: 0.2))
                        do {
                            _ = try await stream.collect()
                            return (now() - began, session.transcript.entries, nil)
                        } catch {
                            return (now() - began, session.transcript.entries, "\(error)")
                        }
                    }
                }
                var all: [(Double, [Transcript.Entry], String?)] = []
                for await result in group { all.append(result) }
                return all
            }
            var row = Row(plans: plans, slots: slots, wall: now() - start, perPlan: [], completionTokens: 0, decodeSeconds: 0, promptTokens: 0,
                          promptSeconds: 0, failures: [])
            for (seconds, entries, failure) in results {
                row.perPlan.append(seconds)
                if let failure { row.failures.append(failure) }
                for case .modelTurn(let turn) in entries {
                    row.completionTokens += turn.tokensOut ?? 0
                    row.decodeSeconds += (turn.serverDecodeMs ?? 0) / 1000
                    row.promptTokens += turn.uncachedTokensIn ?? 0
                    row.promptSeconds += (turn.serverPromptMs ?? 0) / 1000
                }
            }
            return row
        }
    }

    private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}
