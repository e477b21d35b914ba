/// A small, fast, reproducible random number generator (SplitMix64) for benchmarks, property tests
/// and fuzzers: the same seed makes the same documents on every machine, so a failing case is
/// replayed from its seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    public mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A number in `0..<1`.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
