import Foundation
import TrailheadSchema

/// What a derived schema costs: the first use of a type records it from the type's `init(from:)`;
/// every later use (each response asks for its answer type's schema) reads the kept one. Peers in
/// the same run: a schema written by hand (`static let`), and validating one answer.
struct SchemaDerivationBench: Benchmark {
    let name = "schema-derivation"

    // The seed's four types, with guides.
    struct Itinerary<Tag>: Generable {
        let title: String
        let destinationName: String
        let description: String
        let rationale: String
        let days: [DayPlan]
        static var guides: GuideTable {
            GuideTable(CodingKeys.self, [
                .title: [.description("An exciting name for the trip."), .words(2...8)],
                .description: [.words(4...20)], .rationale: [.words(4...20)], .days: [.count(1...7)],
            ])
        }
    }

    struct DayPlan: Generable {
        let title: String
        let subtitle: String
        let destination: String
        let activities: [Activity]
        static let guides = GuideTable(CodingKeys.self, [.title: [.words(2...8)], .activities: [.count(3)]])
    }

    struct Activity: Generable {
        let type: Kind
        let title: String
        let description: String
    }

    enum Kind: String, Codable, CaseIterable { case sightseeing, foodAndDining, shopping, hotelAndLodging }

    struct HandWritten: Generable {
        let title: String
        static let generationSchema = SchemaBuilder.object(properties: ["title": .text(words: 2...8)]).declaredSchema
    }

    /// A new type each level (`Level<Level<…>>`), so each first use is a real first use.
    struct Level<Inner> {}

    func run() throws {
        let types = 200, reads = 100_000
        var firstUses: [Double] = []
        func firstUse<Tag>(_ tag: Tag.Type, _ left: Int) {
            guard left > 0 else { return }
            let start = now()
            let schema = Itinerary<Tag>.generationSchema
            firstUses.append(now() - start)
            precondition(schema.json["properties"]?["days"]?["maxItems"] == 7)
            firstUse(Level<Tag>.self, left - 1)
        }
        firstUse(Never.self, types)
        func perRead(_ body: () -> GenerationSchema) -> Double {
            let start = now()
            for _ in 0..<reads { _ = body() }
            return (now() - start) / Double(reads)
        }
        _ = HandWritten.generationSchema
        let derived = perRead { Itinerary<Never>.generationSchema }
        let handWritten = perRead { HandWritten.generationSchema }
        let answer = try GeneratedContent(json: #"{"title":"Desert Days Out","destinationName":"Joshua Tree","description":"Rocks trees and stars all week","rationale":"Each day has a meal and a bed","days":[{"title":"Day One Rocks","subtitle":"Trails","destination":"Joshua Tree","activities":[{"type":"sightseeing","title":"Hidden Valley","description":"Walk the loop"},{"type":"foodAndDining","title":"Crossroads","description":"Breakfast"},{"type":"hotelAndLodging","title":"Jumbo Rocks","description":"Sleep"}]}]}"#)
        let schema = Itinerary<Never>.generationSchema
        let validation = try cpuMedian(5, warmUp: true) { for _ in 0..<1_000 { precondition(schema.isValid(answer)) } } / 1_000
        print("load average \(loadAverage())")
        print("| the seed's Itinerary (4 types, guides) | time |")
        print("|---|---|")
        print(String(format: "| first use of a type: schema recorded (median of %d types) | %.1f µs |", types, percentile(firstUses, 0.5) * 1e6))
        print(String(format: "| each later use (what a response pays), derived | %.0f ns |", derived * 1e9))
        print(String(format: "| each later use, schema written by hand (static let) | %.0f ns |", handWritten * 1e9))
        print(String(format: "| validating one answer against it (for scale) | %.1f µs |", validation * 1e6))
        print(String(format: "Recording costs %.0f× a later use: once per type, not per response.", percentile(firstUses, 0.5) / derived))
    }
}
