import Foundation
import GeoIndex
import PointsOfInterestTypes
import TrailheadSchema

/// Compact numbers and text for tool results: the model reads every character.
enum ResultFormatting {
    /// Five decimals: about a metre.
    static func coordinate(_ value: Double) -> Double { (value * 1e5).rounded() / 1e5 }

    static func kilometres(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    /// A number as JSON writes it ("20", not "20.0").
    static func number(_ value: Double) -> String { GeneratedContent.number(value).jsonString }

    /// At most `limit` characters, cut at a word, with an ellipsis.
    static func shortened(_ text: String, limit: Int = 160) -> String {
        guard text.count > limit else { return text }
        let cut = text.prefix(limit)
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return String(cut[..<end]).trimmingCharacters(in: .punctuationCharacters.union(.whitespaces)) + "…"
    }

    static func location(_ name: String, _ coordinate: Coordinate) -> PointsOfInterest.Location {
        .init(name: name, latitude: Self.coordinate(coordinate.latitude), longitude: Self.coordinate(coordinate.longitude))
    }

    /// Says which of several places named `asked` was chosen, and names the others.
    static func choice(_ chosen: ResolvedPlace, asked: String) -> String {
        let others = chosen.alternatives.prefix(3).joined(separator: "; ")
        let more = chosen.alternatives.count > 3 ? " and \(chosen.alternatives.count - 3) more" : ""
        return "'\(asked)' names several places; chose \(chosen.label), the best known (others: \(others)\(more))"
    }
}
