/// A name resolved to a place to search around: a curated landmark, or a town or airport
/// of the open data when no landmark has that name.
public struct ResolvedPlace: Sendable, Hashable {
    public var name: String
    public var country: String?
    public var coordinate: Coordinate
    public var description: String?
    /// `landmark` for curated landmarks, otherwise the place's category.
    public var category: PoiCategory
}

/// A name that resolves to nothing, with the closest names the index knows.
public struct UnknownPlaceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    /// Up to five names that do resolve, closest first.
    public var suggestions: [String]

    public var description: String {
        suggestions.isEmpty
            ? "unknown landmark '\(name)'; give latitude and longitude instead"
            : "unknown landmark '\(name)'; did you mean: \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?"
    }
}
