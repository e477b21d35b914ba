import PointsOfInterestTypes

extension PoiCategory {
    /// The category's number in the R*Tree's third dimension: its place in declaration order
    /// (a new category goes last, and bumps `GeoIndexSchema.version`).
    public var code: Int { PoiCategory.allCases.firstIndex(of: self)! }

    /// The raw values in declaration order, for schemas and error messages.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// Parses a category name, naming the valid ones when it is not one of them.
    public init(validating name: String) throws(GeoIndexError) {
        guard let category = PoiCategory(rawValue: name.lowercased()) else {
            throw GeoIndexError("unknown category '\(name)'; expected one of: \(PoiCategory.names.joined(separator: ", "))")
        }
        self = category
    }
}
