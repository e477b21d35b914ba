/// Exact GBNF for whole numbers in a range, in JSON's canonical spelling (no leading zeros,
/// `-` only before non-zero numbers), built digit by digit as range-to-regex tools do.
enum GBNFIntegerRange {
    /// Bounds beyond this are left to validation.
    static let largestExactBound: Int64 = 999_999_999_999_999

    /// Integers in `lower...upper` (either side open when `nil`); `nil` when the range is empty.
    static func expression(lower: Int64?, upper: Int64?) -> String? {
        if let lower, let upper, lower > upper { return nil }
        var options: [String] = []
        // Negative part: -(1…), mirrored.
        if lower.map({ $0 < 0 }) ?? true {
            let smallestMagnitude = max(1, upper.map { -$0 } ?? 1)
            if let lower {
                options += nonNegative(from: smallestMagnitude, through: -lower).map { "\"-\" " + $0 }
            } else {
                options += atLeast(smallestMagnitude).map { "\"-\" " + $0 }
            }
        }
        if upper.map({ $0 >= 0 }) ?? true {
            let from = max(0, lower ?? 0)
            if let upper { options += nonNegative(from: from, through: upper) } else { options += atLeast(from) }
        }
        return GBNFText.alternatives(options)
    }

    /// `n >= lower` (lower ≥ 0).
    static func atLeast(_ lower: Int64) -> [String] {
        if lower == 0 { return ["(\"0\" | [1-9] [0-9]*)"] }
        let digits = String(lower).count
        let largestSameLength = Int64(String(repeating: "9", count: digits))!
        return nonNegative(from: lower, through: largestSameLength) + ["[1-9] [0-9]{\(digits),}"]
    }

    /// `lower...upper`, both ≥ 0.
    static func nonNegative(from lower: Int64, through upper: Int64) -> [String] {
        guard lower <= upper else { return [] }
        var options: [String] = []
        var start = lower
        while start <= upper {
            let digits = String(start).count
            let endOfLength = digits >= 19 ? Int64.max : Int64(String(repeating: "9", count: digits))!
            let end = min(upper, endOfLength)
            options += sameLength(Array(String(start).utf8).map { Int($0) - 48 }, Array(String(end).utf8).map { Int($0) - 48 })
            if end == Int64.max { break }
            start = end + 1
        }
        return options
    }

    /// Numbers with as many digits as `a` and `b`, between them.
    private static func sameLength(_ a: [Int], _ b: [Int]) -> [String] {
        if a.count == 1 { return [digitClass(a[0], b[0])] }
        let restA = Array(a.dropFirst())
        let restB = Array(b.dropFirst())
        if a[0] == b[0] { return sameLength(restA, restB).map { "\"\(a[0])\" " + $0 } }
        let lowFull = restA.allSatisfy { $0 == 0 }
        let highFull = restB.allSatisfy { $0 == 9 }
        var options: [String] = []
        let middleLow = lowFull ? a[0] : a[0] + 1
        let middleHigh = highFull ? b[0] : b[0] - 1
        if !lowFull {
            options += sameLength(restA, Array(repeating: 9, count: restA.count)).map { "\"\(a[0])\" " + $0 }
        }
        if middleLow <= middleHigh {
            options.append(digitClass(middleLow, middleHigh) + " [0-9]" + (restA.count > 1 ? "{\(restA.count)}" : ""))
        }
        if !highFull {
            options += sameLength(Array(repeating: 0, count: restB.count), restB).map { "\"\(b[0])\" " + $0 }
        }
        return options
    }

    private static func digitClass(_ low: Int, _ high: Int) -> String {
        low == high ? "\"\(low)\"" : "[\(low)-\(high)]"
    }
}
