#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock: the one clock for deadlines, timeouts and latencies (it never
/// jumps when the wall clock is set). Only differences between two readings mean anything.
public func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
