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

/// "0.52 0.61 0.70": the load averages, printed beside timings (the machine is shared).
func loadAverage() -> String {
    var load = [0.0, 0.0, 0.0]
    getloadavg(&load, 3)
    return load.map { String(format: "%.2f", $0) }.joined(separator: " ")
}

/// CPU seconds of this process / of the calling thread: on a shared machine, wall time alone says little.
func processCPUTime() -> Double { cpuClock(CLOCK_PROCESS_CPUTIME_ID) }
func threadCPUTime() -> Double { cpuClock(CLOCK_THREAD_CPUTIME_ID) }

private func cpuClock(_ clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU time of `body`, median of `runs` runs (after one untimed warm-up run when asked).
func cpuMedian(_ runs: Int, warmUp: Bool = false, _ body: () throws -> Void) throws -> Double {
    if warmUp { try body() }
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = processCPUTime()
        try body()
        samples.append(processCPUTime() - start)
    }
    return percentile(samples, 0.5)
}
