import PointsOfInterestTypes

/// What an import wrote and what it left out, and why.
public struct ImportSummary: Sendable, Hashable, CustomStringConvertible {
    /// Places written, by category.
    public var imported: [PoiCategory: Int] = [:]
    /// Features left out, by reason ("no name": 12).
    public var skipped: [String: Int] = [:]
    public var landmarks = 0

    public init() {}

    public var importedCount: Int { imported.values.reduce(0, +) }
    public var skippedCount: Int { skipped.values.reduce(0, +) }

    public mutating func merge(_ other: ImportSummary) {
        imported.merge(other.imported, uniquingKeysWith: +)
        skipped.merge(other.skipped, uniquingKeysWith: +)
        landmarks += other.landmarks
    }

    public var description: String {
        let categories = imported.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        var text = "imported \(importedCount) places (\(categories.joined(separator: ", ")))"
        if landmarks > 0 { text += ", \(landmarks) landmarks" }
        if !skipped.isEmpty {
            text += "; skipped \(skippedCount): " + skipped.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        return text
    }
}
