/// Positions on a Hilbert curve over a 65 536 × 65 536 grid of longitude and latitude (cells of
/// about 600 × 300 m at the equator). Points close on the curve are close on the map, and a
/// small circle is covered by a few stretches of the curve: that is what keeps the row ids of
/// a circle's places in a few short ranges.
public enum HilbertCurve {
    static let order = 16

    /// The point's position along the curve, 0 ..< 2^32.
    public static func key(_ coordinate: Coordinate) -> UInt64 {
        let side = Double(1 << order)
        let x = UInt64(min(side - 1, max(0, ((coordinate.longitude + 180) / 360 * side).rounded(.down))))
        let y = UInt64(min(side - 1, max(0, ((coordinate.latitude + 90) / 180 * side).rounded(.down))))
        return key(x: x, y: y)
    }

    /// The classic rotate-and-accumulate conversion from (x, y) to the distance along the curve.
    static func key(x: UInt64, y: UInt64) -> UInt64 {
        var x = x, y = y, distance: UInt64 = 0
        var size: UInt64 = 1 << (order - 1)
        while size > 0 {
            let rx: UInt64 = (x & size) > 0 ? 1 : 0
            let ry: UInt64 = (y & size) > 0 ? 1 : 0
            distance += size * size * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = size &* 2 &- 1 &- x
                    y = size &* 2 &- 1 &- y
                }
                swap(&x, &y)
            }
            size >>= 1
        }
        return distance
    }
}
