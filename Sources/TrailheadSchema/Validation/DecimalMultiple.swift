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

    private static let powersOfTen: [Double] = (0...17).map { pow10($0) }
    private static func pow10(_ k: Int) -> Double { var p = 1.0; for _ in 0..<k { p *= 10 }; return p }

    /// The shortest decimal form of a positive finite double: significand and power of ten.
    static func decimal(_ x: Double) -> (UInt64, Int)? {
        // Fast path, no text: the fewest decimals k such that m / 10^k gives back x exactly
        // (10^k and m < 2^53 are exact doubles, so that division is correctly rounded).
        if x < 9_007_199_254_740_992 {
            for k in 0...17 {
                let scaled = (x * powersOfTen[k]).rounded()
                guard scaled < 9_007_199_254_740_992 else { break }
                if scaled / powersOfTen[k] == x { return stripZeros(UInt64(scaled), -k) }
            }
        }
        return parse(x.description)  // "1e-05", "1.5e+308", "1.2345678901234567e-07"
    }

    private static func stripZeros(_ significand: UInt64, _ exponent: Int) -> (UInt64, Int) {
        var (m, e) = (significand, exponent)
        while m != 0, m % 10 == 0 { m /= 10; e += 1 }
        return (m, e)
    }

    private static func parse(_ text: String) -> (UInt64, Int)? {
        var significand: UInt64 = 0
        var exponent = 0
        var seenPoint = false
        var utf8 = text.utf8[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            switch byte {
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times10, o1) = significand.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                if o1 || o2 { return nil }
                significand = sum
                if seenPoint { exponent -= 1 }
            case UInt8(ascii: "e"):
                guard let e = Int(String(decoding: utf8, as: UTF8.self)) else { return nil }
                return stripZeros(significand, exponent + e)
            default: return nil
            }
        }
        return stripZeros(significand, exponent)
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
