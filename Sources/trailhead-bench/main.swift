import Foundation

/// `trailhead-bench NAME…` runs benchmarks by name (`all` runs every one) and prints a report
/// on stdout. Timings are medians over repetitions; ratios compare peers measured in the same run.
let benchmarks: [any Benchmark] = [
    // Each part adds its benchmark here.
    PartialJSONBench(),
    JSONParserBench(),
    ToolCallBench(),
    ModelBench(),
    SessionBench(),
    SchemaDerivationBench(),
    ServeLoadBench(),
    ConcurrencyBench(),
    LlamaBuildBench(),
    GrammarBench(),
    GeoIndexBench(),
    VCardUnfoldingBench(),
    RecurrenceLimitBench(),
    SHA256Bench(),
    HistoryBench(),
]

let requested = Array(CommandLine.arguments.dropFirst())
if requested.isEmpty || requested.contains("--help") {
    print("usage: trailhead-bench all | \(benchmarks.map(\.name).joined(separator: " | "))…")
    exit(requested.isEmpty ? 2 : 0)
}
var failed = false
for benchmark in benchmarks where requested.contains("all") || requested.contains(benchmark.name) {
    print("## \(benchmark.name)")
    do { try benchmark.run() } catch {
        print("error: \(error)")
        failed = true
    }
    print()
}
exit(failed ? 1 : 0)
