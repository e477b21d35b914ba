import Foundation

/// A latitude/longitude rectangle that contains every point within a radius of a centre.
/// Near the antimeridian it is split in two, near a pole it spans all longitudes.
struct BoundingBox: Sendable, Hashable {
    var minLatitude: Double
    var maxLatitude: Double
    var minLongitude: Double
    var maxLongitude: Double

    /// The boxes covering the circle of `radiusKm` around `centre` (one, or two across ±180°).
    /// They are slightly larger than needed: the R*Tree stores 32-bit floats, and the exact
    /// haversine filter runs afterwards anyway.
    static func covering(_ centre: Coordinate, radiusKm: Double) -> [BoundingBox] {
        let kmPerDegree = Coordinate.earthRadiusKm * .pi / 180
        let Δlat = radiusKm / kmPerDegree + 1e-4
        let minLat = max(-90, centre.latitude - Δlat), maxLat = min(90, centre.latitude + Δlat)
        let widestLatitude = max(abs(minLat), abs(maxLat))
        guard widestLatitude < 89.9 else {
            return [BoundingBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: -180, maxLongitude: 180)]
        }
        let Δlon = min(180, Δlat / cos(widestLatitude * .pi / 180))
        let west = centre.longitude - Δlon, east = centre.longitude + Δlon
        if Δlon >= 180 {
            return [BoundingBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: -180, maxLongitude: 180)]
        }
        if west < -180 {
            return [BoundingBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: -180, maxLongitude: east),
                    BoundingBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: west + 360, maxLongitude: 180)]
        }
        if east > 180 {
            return [BoundingBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: west, maxLongitude: 180),
                    BoundingBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: -180, maxLongitude: east - 360)]
        }
        return [BoundingBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: west, maxLongitude: east)]
    }
}
