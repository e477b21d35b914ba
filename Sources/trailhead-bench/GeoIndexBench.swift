import Foundation
import GeoIndex

/// `trailhead-bench geo-index`: the geodata index at scale, with synthetic places.
///
/// For each size in `GEO_BENCH_SIZES` (comma-separated, default `1000000,10000000`; 10 M takes
/// minutes): import rate (generation, spatial sort, one transaction with reused statements,
/// R*Tree + FTS5 rows), the
/// FTS merge and ANALYZE after it, size on disk, and latency of radius queries at random
/// centres — plain, by category, and with a text query. Files go to `GEO_BENCH_DIR` (default
/// the temporary directory) and are removed afterwards.
struct GeoIndexBench: Benchmark {
    let name = "geo-index"

    func run() throws {
        let sizes = (ProcessInfo.processInfo.environment["GEO_BENCH_SIZES"] ?? "1000000,10000000")
            .split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let directory = ProcessInfo.processInfo.environment["GEO_BENCH_DIR"] ?? NSTemporaryDirectory()
        print("| places | import (CPU) | rows/s | optimize | size on disk | query | results (mean) | p50 | p99 |")
        print("|---:|---:|---:|---:|---:|---|---:|---:|---:|")
        for size in sizes {
            let path = directory + "/trailhead-geo-bench-\(size)-\(getpid()).sqlite"
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let cpuBefore = cpuTime()
            let (importSeconds, optimizeSeconds) = try build(path, size: size)
            let cpuSeconds = cpuTime() - cpuBefore
            let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            let index = try GeoIndex(path: path)
            let first = "| \(size) | \(format(importSeconds)) s (\(format(cpuSeconds)) s) | \(Int(Double(size) / importSeconds)) | \(format(optimizeSeconds)) s | \(bytes / 1_000_000) MB "
            print(first + "| (import done) | | | |")
            fflush(nil)
            for (label, makeQuery) in queries {
                var generator = SplitMix64(seed: 99)
                var latencies: [Double] = [], total = 0
                for _ in 0..<repetitions {
                    let query = makeQuery(&generator)
                    let start = now()
                    total += try index.search(query).results.count
                    latencies.append(now() - start)
                }
                let lead = "| | | | | "
                print(lead + "| \(label) | \(format(Double(total) / Double(repetitions))) | \(micro(percentile(latencies, 0.5))) | \(micro(percentile(latencies, 0.99))) |")
                fflush(nil)  // rows appear as they are measured, also when stdout is a file
            }
        }
    }

    /// Queries per kind, at random centres (`GEO_BENCH_QUERIES`, default 1000).
    private var repetitions: Int { Int(ProcessInfo.processInfo.environment["GEO_BENCH_QUERIES"] ?? "") ?? 1000 }

    /// Plain radius, by category, and with a free-text query (all with limit 10).
    private var queries: [(String, (inout SplitMix64) -> NearbyQuery)] {
        [
            ("20 km", { NearbyQuery(centre: randomCoordinate(&$0), radiusKm: 20) }),
            ("50 km, category", { NearbyQuery(centre: randomCoordinate(&$0), radiusKm: 50, category: .restaurant) }),
            ("100 km, text", { NearbyQuery(centre: randomCoordinate(&$0), radiusKm: 100, text: "quiet lake view") }),
            ("200 km, text", { NearbyQuery(centre: randomCoordinate(&$0), radiusKm: 200, text: "quiet lake view") }),
        ]
    }

    private func build(_ path: String, size: Int) throws -> (Double, Double) {
        var generator = SplitMix64(seed: 42)
        let writer = try GeoIndexWriter(path: path)
        let start = now()
        try writer.add(contentsOf: (0..<size).map { syntheticPlace($0, &generator) })
        let imported = now()
        try writer.optimize()
        try writer.checkpoint()
        return (imported - start, now() - imported)
    }

    private func syntheticPlace(_ number: Int, _ generator: inout SplitMix64) -> Place {
        let category = PoiCategory.allCases[Int(generator.next() % UInt64(PoiCategory.allCases.count))]
        let words = (0..<4).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }
        return Place(
            name: "\(words[0].capitalized) \(words[1].capitalized) \(number)", category: category,
            coordinate: randomCoordinate(&generator),
            description: "A \(words[2]) \(category.rawValue) by the \(words[3]).", source: "bench")
    }

    private let vocabulary = [
        "quiet", "lake", "view", "pine", "river", "old", "mill", "stone", "bridge", "harbour", "sunset", "ridge",
        "meadow", "canyon", "forest", "golden", "hidden", "valley", "summit", "falls", "creek", "rock", "cedar",
        "desert", "coast", "island", "garden", "tower", "castle", "market", "square", "spring", "north", "south",
        "east", "west", "little", "grand", "silver", "red", "blue", "green", "high", "low", "bay", "point",
        "hill", "cliff", "dune", "oasis",
    ]

    private func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
    private func micro(_ seconds: Double) -> String { String(format: "%.0f µs", seconds * 1e6) }
}

/// CPU seconds of this process: on a shared machine, wall time alone says little.
private func cpuTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Points spread over the inhabited latitudes, uniformly by area.
private func randomCoordinate(_ generator: inout SplitMix64) -> Coordinate {
    let south = sin(-56.0 * .pi / 180), north = sin(70.0 * .pi / 180)
    let latitude = asin(south + (north - south) * generator.unit()) * 180 / .pi
    return Coordinate(latitude: latitude, longitude: -180 + 360 * generator.unit())
}

/// A small, fast, reproducible generator (the same places in every run).
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
