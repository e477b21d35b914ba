import Foundation
import TrailheadTestSupport

/// The test fixtures folder, beside the tests.
enum Fixtures {
    static let folder = Checkout.path("Tests/TrailheadCLITests/Fixtures")
    static let schema = folder + "/itinerary.schema.json"
    static let itineraries = folder + "/itineraries.jsonl"

    /// The lines of itineraries.jsonl.
    static func itineraryLines() throws -> [String] {
        try String(contentsOfFile: itineraries, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}
