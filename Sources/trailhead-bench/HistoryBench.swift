import Foundation
import TrailheadAgent
import TrailheadModels

/// What a history transform does to the prompt and the server's cache: forty short responses of
/// one session, with the whole history, a rolling window that moves in steps of half its size,
/// and one that slides every entry. The tokens the server actually read (prompt minus cached) are
/// what a turn waits for. `TRAILHEAD_BENCH_MODEL=test` runs it on SmolLM2-135M (the token counts
/// are the point; its answers are not).
struct HistoryBench: Benchmark {
    let name = "history"
    let file = ProcessInfo.processInfo.environment["TRAILHEAD_BENCH_MODEL"] == "test" ? ModelAssets.testModel : ModelAssets.defaultModel
    let responses = Int(ProcessInfo.processInfo.environment["TRAILHEAD_BENCH_RESPONSES"] ?? "") ?? 40

    func run() throws {
        let assets = ModelAssets()
        if case .failure(let reason) = assets.locate(file) { throw reason }
        let runDirectory = NSTemporaryDirectory() + "trailhead-bench-history-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: runDirectory) }
        let model = LocalModel(
            configuration: LocalModelConfiguration(
                model: file, assets: assets, runDirectory: runDirectory, idleShutdownSeconds: 120, defaultOptions: .init(temperature: 0, seed: 1),
                parallelSlots: 1))
        let variants: [(String, HistoryTransform?)] = [
            ("whole history", nil), ("rollingWindow(entries: 16)", .rollingWindow(entries: 16)),
            ("rollingWindow(entries: 16, step: 1)", .rollingWindow(entries: 16, step: 1)),
        ]
        let responses = responses
        print("\(responses) responses of one session, \(model.id), context \(model.configuration.contextSize) per slot, answers of at most 6 tokens")
        print("| history | prompt tokens | from the cache | read by the server | last prompt | seconds | server prompt + decode s | decode tokens/s |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for (label, transform) in variants {
            let row = try blocking {
                let session = LanguageModelSession(model: model, instructions: Instructions("Answer in one word. Run \(label) \(UUID().uuidString)."))
                session.configuration.historyTransform = transform
                let started = now()
                for turn in 1...responses {
                    _ = try await session.respond(to: Prompt("Name colour number \(turn)."), options: .init(maximumResponseTokens: 6))
                }
                let seconds = now() - started
                let turns = session.transcript.compactMap { if case .modelTurn(let turn) = $0 { turn } else { nil } }
                let read = turns.compactMap(\.tokensIn).reduce(0, +), cached = turns.compactMap(\.cachedTokensIn).reduce(0, +)
                let decodeTokens = turns.compactMap(\.tokensOut).reduce(0, +), decodeMs = turns.compactMap(\.serverDecodeMs).reduce(0, +)
                let promptMs = turns.compactMap(\.serverPromptMs).reduce(0, +)
                return String(
                    format: "| %@ | %d | %d | %d | %d | %.1f | %.1f | %.1f |", label, read, cached, read - cached, turns.last?.tokensIn ?? 0, seconds,
                    (promptMs + decodeMs) / 1000, decodeMs > 0 ? Double(decodeTokens) / decodeMs * 1000 : 0)
            }
            print(row)
        }
        blocking { _ = await model.stop() }
    }
}
