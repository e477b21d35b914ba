/// The kinds of place the points-of-interest plugin knows: one list shared by the geodata index and
/// its importers, the `findPointsOfInterest` tool's `category` enum (generated from `allCases`) and
/// whoever reads its results. The index numbers them in this order (`PoiCategory.code`): a new
/// category goes last, and bumps `GeoIndexSchema.version`.
public enum PoiCategory: String, CaseIterable, Sendable, Codable {
    case hike
    case viewpoint
    case campground
    case lodging
    case restaurant
    case cafe
    case museum
    case marina
    case beach
    case stargazing
    case landmark
    case town
    case airport
}
