import Foundation
import GeoIndex
import PointsOfInterestTypes
import TrailheadSupport

/// `trailhead-bench geo-index`: the geodata index at scale, with synthetic places.
///
/// For each size in `GEO_BENCH_SIZES` (comma-separated, default `1000000,10000000`): the import
/// (generation, Hilbert sort, one transaction with reused statements, R*Tree + FTS5 rows), the
/// FTS merge and statistics after it, the size on disk, then the latency of queries at random
/// centres — by radius, by category, and with text, the text ones with the R*Tree and FTS5 read
/// in each order (`JoinOrder`) and as the index chooses. Wall time and the thread's CPU time are
/// both reported, with the machine's load: on 2 shared cores, wall time also measures the others.
///
/// Building 10 M places takes minutes, so each index is kept in `GEO_BENCH_DIR` (default
/// `$TRAILHEAD_CACHE/bench`), named by size, schema and generator, with its import figures in
/// its `meta` table; `GEO_BENCH_REBUILD=1` builds it again.
struct GeoIndexBench: Benchmark {
    let name = "geo-index"

    /// Bumped when the synthetic places change, so a kept index is not reused.
    private static let generatorVersion = 2

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let sizes = (environment["GEO_BENCH_SIZES"] ?? "1000000,10000000")
            .split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let cache = environment["TRAILHEAD_CACHE"] ?? NSHomeDirectory() + "/.cache/trailhead"
        let directory = environment["GEO_BENCH_DIR"] ?? cache + "/bench"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        print("Load average (1, 5, 15 min) at the start: \(loadAverage()) on \(ProcessInfo.processInfo.activeProcessorCount) cores")
        for size in sizes {
            let path = directory + "/geo-\(size)-schema\(GeoIndex.schemaVersion)-gen\(Self.generatorVersion).sqlite"
            if environment["GEO_BENCH_REBUILD"] == "1" || !FileManager.default.fileExists(atPath: path) {
                try build(path, size: size)
            }
            try measure(path, size: size)
            print("Load average after \(size) places: \(loadAverage())")
            print()
        }
    }

    private func measure(_ path: String, size: Int) throws {
        let index = try GeoIndex(path: path)
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let built = try index.metadata("bench:import") ?? "?"
        print("### \(size) places: import \(built), \(bytes / 1_000_000) MB on disk")
        print()
        print("| query | order | queries | results (mean) | chosen order | wall p50 | wall p99 | CPU p50 | CPU p99 |")
        print("|---|---|---:|---:|---|---:|---:|---:|---:|")
        fflush(nil)
        for kind in queries {
            for order in kind.orders {
                let repetitions = order == .textFirst && kind.commonWords ? slowRepetitions : repetitions
                var generator = SeededRandom(seed: 99)
                var wall: [Double] = [], cpu: [Double] = [], total = 0
                var chosen: [JoinOrder: Int] = [:]
                for _ in 0..<repetitions {
                    var query = kind.make(&generator, size)
                    query.joinOrder = order
                    let (startWall, startCPU) = (now(), threadCPUTime())
                    let found = try index.search(query)
                    cpu.append(threadCPUTime() - startCPU)
                    wall.append(now() - startWall)
                    total += found.results.count
                    chosen[found.joinOrder, default: 0] += 1
                }
                let choices = chosen.sorted { $0.value > $1.value }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
                print("| \(kind.label) | \(order.rawValue) | \(repetitions) | \(format(Double(total) / Double(repetitions))) | \(choices) "
                    + "| \(micro(percentile(wall, 0.5))) | \(micro(percentile(wall, 0.99))) | \(micro(percentile(cpu, 0.5))) | \(micro(percentile(cpu, 0.99))) |")
                fflush(nil)  // rows appear as they are measured, also when stdout is a file
            }
        }
    }

    /// Queries per kind and order, at random centres (`GEO_BENCH_QUERIES`, default 1000);
    /// text first with common words reads millions of matches, so it runs `GEO_BENCH_SLOW_QUERIES` (5).
    private var repetitions: Int { Int(ProcessInfo.processInfo.environment["GEO_BENCH_QUERIES"] ?? "") ?? 1000 }
    private var slowRepetitions: Int { Int(ProcessInfo.processInfo.environment["GEO_BENCH_SLOW_QUERIES"] ?? "") ?? 5 }

    private struct QueryKind {
        var label: String
        var orders: [JoinOrder] = [.automatic]
        var commonWords = false
        /// A query from the generator, for an index of this many places.
        var make: (inout SeededRandom, Int) -> NearbyQuery
    }

    /// Every query has limit 10. Common words: 3 of the 50 that every place draws 4 of (each
    /// word is in ~8 % of places: the worst case for text). A rare word: one of 100 000 that
    /// each place draws one of (~100 places each at 10 M), around a place that has it.
    private var queries: [QueryKind] {
        let both: [JoinOrder] = [.automatic, .spaceFirst, .textFirst]
        return [
            QueryKind(label: "20 km") { generator, _ in NearbyQuery(centre: randomCoordinate(&generator), radiusKm: 20) },
            QueryKind(label: "20 km, category") { generator, _ in
                NearbyQuery(centre: randomCoordinate(&generator), radiusKm: 20, category: .museum)
            },
            QueryKind(label: "50 km, category") { generator, _ in
                NearbyQuery(centre: randomCoordinate(&generator), radiusKm: 50, category: .restaurant)
            },
            QueryKind(label: "100 km, common words", orders: both, commonWords: true) { generator, _ in
                NearbyQuery(centre: randomCoordinate(&generator), radiusKm: 100, text: "quiet lake view")
            },
            QueryKind(label: "100 km, rare word", orders: both) { generator, size in
                let place = syntheticPlace(Int(generator.next() % UInt64(size)))
                let word = place.description?.split(separator: " ").last.map { String($0.dropLast()) } ?? ""
                return NearbyQuery(centre: place.coordinate, radiusKm: 100, text: word)
            },
            QueryKind(label: "200 km, common words", commonWords: true) { generator, _ in
                NearbyQuery(centre: randomCoordinate(&generator), radiusKm: 200, text: "quiet lake view")
            },
        ]
    }

    /// Generates the places in Hilbert order without holding them all: each place is drawn from
    /// its own number, so only the numbers are sorted.
    private func build(_ path: String, size: Int) throws {
        for suffix in ["", ".building"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let temporary = path + ".building"
        let writer = try GeoIndexWriter(path: temporary, bulk: true)
        let (startWall, startCPU) = (now(), processCPUTime())
        let order = (0..<size).map { (HilbertCurve.key(syntheticPlace($0).coordinate), UInt32($0)) }.sorted { $0 < $1 }
        try writer.transaction { writer in
            for (_, number) in order { try writer.add(syntheticPlace(Int(number))) }
        }
        let (importWall, importCPU) = (now() - startWall, processCPUTime() - startCPU)
        try writer.optimize()
        let optimizeWall = now() - startWall - importWall
        try writer.setMetadata("bench:import", String(
            format: "%.0f s (%.0f s CPU, %.0f rows/s), optimize %.0f s, load %@ at the end",
            importWall, importCPU, Double(size) / importWall, optimizeWall, loadAverage()))
        try writer.checkpoint()
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }

    private func syntheticPlace(_ number: Int) -> Place {
        var generator = SeededRandom(seed: 0x5EED &+ UInt64(number) &* 0x9E37_79B9)
        let coordinate = randomCoordinate(&generator)
        let category = PoiCategory.allCases[Int(generator.next() % UInt64(PoiCategory.allCases.count))]
        let words = (0..<4).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }
        let rare = rareWord(Int(generator.next() % 100_000))
        return Place(
            name: "\(words[0].capitalized) \(words[1].capitalized) \(number)", category: category, coordinate: coordinate,
            description: "A \(words[2]) \(category.rawValue) by the \(words[3]), near \(rare).", source: "bench",
            popularity: generator.unit())
    }

    private let vocabulary = [
        "quiet", "lake", "view", "pine", "river", "old", "mill", "stone", "bridge", "harbour", "sunset", "ridge",
        "meadow", "canyon", "forest", "golden", "hidden", "valley", "summit", "falls", "creek", "rock", "cedar",
        "desert", "coast", "island", "garden", "tower", "castle", "market", "square", "spring", "north", "south",
        "east", "west", "little", "grand", "silver", "red", "blue", "green", "high", "low", "bay", "point",
        "hill", "cliff", "dune", "oasis",
    ]

    private func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
    private func micro(_ seconds: Double) -> String {
        seconds < 0.01 ? String(format: "%.0f µs", seconds * 1e6) : String(format: "%.0f ms", seconds * 1e3)
    }
}

/// One of 100 000 made-up words ("kolarumi"), four syllables from the number.
private func rareWord(_ number: Int) -> String {
    let syllables = ["ka", "lo", "mi", "ru", "te", "sa", "no", "vi", "ze", "po", "da", "fe", "gu", "hi", "ju", "be", "ne", "xo", "wa", "yi"]
    var value = number, word = ""
    for _ in 0..<4 {
        word += syllables[value % syllables.count]
        value /= syllables.count
    }
    return word
}

/// Points spread over the inhabited latitudes, uniformly by area.
private func randomCoordinate(_ generator: inout SeededRandom) -> Coordinate {
    let south = sin(-56.0 * .pi / 180), north = sin(70.0 * .pi / 180)
    let latitude = asin(south + (north - south) * generator.unit()) * 180 / .pi
    return Coordinate(latitude: latitude, longitude: -180 + 360 * generator.unit())
}

