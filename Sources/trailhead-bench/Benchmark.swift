import Foundation

/// One benchmark of `make bench`.
protocol Benchmark {
    /// The name it is run by (`partial-json`).
    var name: String { get }
    /// Measures and prints its results (a small Markdown table is the house style).
    func run() throws
}

/// Monotonic clock in seconds.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The value at quantile `q` (0…1) of `samples`.
func percentile(_ samples: [Double], _ q: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
}

/// "0.52 0.61 0.70": the load averages, printed beside timings (the machine is shared).
func loadAverage() -> String {
    var load = [0.0, 0.0, 0.0]
    getloadavg(&load, 3)
    return load.map { String(format: "%.2f", $0) }.joined(separator: " ")
}
