import Foundation

/// A point on the WGS 84 ellipsoid, in degrees; distances treat the Earth as a sphere.
public struct Coordinate: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The mean Earth radius (IUGG), in kilometres.
    public static let earthRadiusKm = 6371.0088

    /// Whether both values are finite and within ±90 / ±180.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Great-circle distance by the haversine formula (exact to ~0.5 % against the ellipsoid).
    public func distanceKm(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let Δφ = φ2 - φ1, Δλ = (other.longitude - longitude) * .pi / 180
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * Coordinate.earthRadiusKm * asin(min(1, a.squareRoot()))
    }
}
