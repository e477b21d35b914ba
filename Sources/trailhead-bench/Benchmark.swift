import Foundation
import TrailheadSupport

/// One benchmark of `make bench`.
protocol Benchmark {
    /// The name it is run by (`partial-json`).
    var name: String { get }
    /// Measures and prints its results (a small Markdown table is the house style).
    func run() throws
}

/// Seconds on the one monotonic clock (`monotonicSeconds`), under a short name for the benches.
func now() -> Double { monotonicSeconds() }

/// The value at quantile `q` (0…1) of `samples`.
func percentile(_ samples: [Double], _ q: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
}

/// The load averages over 1, 5 and 15 minutes ("0.52 0.61 0.70"), for the record beside timings.
func loadAverage() -> String {
    var load = [0.0, 0.0, 0.0]
    getloadavg(&load, 3)
    return load.map { String(format: "%.2f", $0) }.joined(separator: " ")
}

/// CPU seconds used by this process: steadier than wall time on a machine shared with builds.
func processCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
