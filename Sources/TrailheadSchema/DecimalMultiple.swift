/// `multipleOf` on the decimal values people write, not on their binary approximations:
/// 0.0075 is a multiple of 0.0001 although `0.0075 / 0.0001` is 74.99999999999999 in doubles.
///
/// Each double is read as the shortest decimal that round-trips (`a × 10^p`, `a` ≤ 17 digits),
/// and divisibility is decided exactly with modular arithmetic, so 1e308 against 0.123456789
/// neither overflows nor loses precision.
enum DecimalMultiple {
    static func isMultiple(_ value: Double, of divisor: Double) -> Bool {
        guard value.isFinite, divisor.isFinite, divisor != 0 else { return false }
        if value == 0 { return true }
        guard let (a, p) = decimal(abs(value)), let (b, q) = decimal(abs(divisor)) else { return false }
        if p >= q {
            // a·10^(p−q) ≡ 0 (mod b)
            return mulmod(a % b, powmod(10, p - q, b), b) == 0
        }
        // a·10^p / (b·10^q) is whole only if b·10^(q−p) divides a.
        var d = b
        for _ in 0..<(q - p) {
            let (next, overflow) = d.multipliedReportingOverflow(by: 10)
            if overflow { return false }  // d > a ≥ 1
            d = next
        }
        return a % d == 0
    }

    /// The shortest decimal form of a positive finite double: significand and power of ten.
    static func decimal(_ x: Double) -> (UInt64, Int)? {
        let text = x.description  // "0.0075", "1e-05", "1.5e+308", "12391239123.0"
        let parts = text.split(separator: "e", maxSplits: 1)
        var exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        var digits = ""
        var seenPoint = false
        for c in parts[0] {
            if c == "." { seenPoint = true; continue }
            guard c.isASCII, c.isNumber else { return nil }
            digits.append(c)
            if seenPoint { exponent -= 1 }
        }
        while digits.count > 1, digits.hasSuffix("0") {
            digits.removeLast()
            exponent += 1
        }
        guard let significand = UInt64(digits) else { return nil }
        return (significand, exponent)
    }

    private static func mulmod(_ x: UInt64, _ y: UInt64, _ m: UInt64) -> UInt64 {
        let product = x.multipliedFullWidth(by: y)
        return m.dividingFullWidth(product).remainder
    }

    private static func powmod(_ base: UInt64, _ exponent: Int, _ m: UInt64) -> UInt64 {
        if m == 1 { return 0 }
        var result: UInt64 = 1
        var b = base % m
        var e = exponent
        while e > 0 {
            if e & 1 == 1 { result = mulmod(result, b, m) }
            b = mulmod(b, b, m)
            e >>= 1
        }
        return result
    }
}
