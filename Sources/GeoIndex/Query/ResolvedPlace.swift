import Foundation
import PointsOfInterestTypes

/// A name resolved to a place to search around: a curated landmark, or any place of the index
/// (a town, an airport, a park, a mountain) when no landmark has that name.
public struct ResolvedPlace: Sendable, Hashable {
    public var name: String
    public var country: String?
    /// The first-level region (state, province), when known.
    public var region: String?
    public var coordinate: Coordinate
    public var description: String?
    /// `landmark` for curated landmarks, otherwise the place's category.
    public var category: PoiCategory
    /// 0…1 (see `Popularity`); chooses among places of the same name.
    public var popularity: Double
    /// The English Wikipedia article, when the place comes from one.
    public var wikipedia: String?
    /// What it is in a word or two ("mountain"), when known.
    public var kind: String?
    /// Whether it is one of the curated landmarks.
    public var isCuratedLandmark = false
    /// Other places of the same name that were not chosen, best known first, as labels.
    public var alternatives: [String] = []

    /// The name with what tells it apart: its region and country for a town or any other place
    /// ("Banff, Alberta, Canada"; "Cusco, Peru" when the region has the town's name); a curated
    /// landmark's name alone (it is unique in the index).
    public var label: String {
        guard !isCuratedLandmark else { return name }
        let region = self.region == name ? nil : self.region
        return [name, region, country.flatMap(CountryNames.name(of:))].compactMap { $0 }.joined(separator: ", ")
    }
}

/// English country names from ISO 3166-1 alpha-2 codes, through Foundation's locale data.
public enum CountryNames {
    private static let english = Locale(identifier: "en_US")

    public static func name(of code: String) -> String? {
        english.localizedString(forRegionCode: code) ?? code
    }
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
