import Foundation

/// How well known a place is, on one scale from 0 to 1 for every source, so that a guide-book
/// ranking can weigh a Wikipedia article against a town's size or a curated pick.
///
/// - Wikipedia places: the article's length, logarithmically: 1 KB → 0, 300 KB → 1 (the median
///   geotagged article, 4.5 KB, is 0.26; the Louvre Palace, 163 KB, is 0.89).
/// - Towns: inhabitants, logarithmically: 1 000 → 0, 10 million → 1 (Banff, Alberta, 8 305 people,
///   is 0.23).
/// - Curated landmarks: 1. Their points of interest: 0.9 for the first of a category in the
///   landmark's file, 0.05 less for each one after it, never under 0.6 (a curated file lists
///   what a guide book would list first, first); or their Wikipedia twin's, if higher.
/// - Anything else (airports, your own files without `popularity`): 0.3.
public enum Popularity {
    public static let unknown = 0.3
    public static let curatedLandmark = 1.0

    /// From a Wikipedia article's length in bytes.
    public static func article(length bytes: Double) -> Double {
        clamp(log10(max(bytes, 1) / 1_000) / log10(300))
    }

    /// From a town's number of inhabitants.
    public static func town(population: Int) -> Double {
        clamp(log10(max(Double(population), 1) / 1_000) / 4)
    }

    /// A curated point of interest, by its position among its landmark's points of the same category.
    public static func curated(positionInCategory position: Int) -> Double {
        max(0.6, 0.9 - 0.05 * Double(position))
    }

    static func clamp(_ value: Double) -> Double { value.isFinite ? min(1, max(0, value)) : 0 }
}
