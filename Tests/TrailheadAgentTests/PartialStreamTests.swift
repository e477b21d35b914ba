import Testing
import Trailhead
import TrailheadModels

@testable import TrailheadAgent

/// Streaming reads the answer through its type's own members, and a member that cannot decode
/// yet never costs a snapshot.
@Suite struct PartialStreamTests {
    enum Kind: String, Codable, CaseIterable, Sendable { case sightseeing, foodAndDining }

    struct Pick: Generable, Sendable {
        var kind: Kind
        var place: String
    }

    @Test func aCutEnumKeepsItsSnapshot() async throws {
        let model = ScriptedModel(outputs: [#"{"kind":"foodAndDining","place":"Nishiki Market"}"#], path: "partial", chunkSize: 4)
        let session = LanguageModelSession(model: model)
        var cut = 0, kinds: [Kind?] = [], places: [String] = []
        for try await snapshot in session.streamResponse(to: "Pick one.", generating: Pick.self) {
            if let raw = snapshot.rawContent["kind"]?.stringValue, Kind(rawValue: raw) == nil {
                cut += 1
                #expect(snapshot.content.kind == nil)
            }
            kinds.append(snapshot.content.kind)
            if let place = snapshot.content.place { places.append(place) }
        }
        #expect(cut >= 3, "\"f\", \"food\", \"foodAnd\"… are snapshots too")
        #expect(kinds.last == .foodAndDining)
        #expect(places.last == "Nishiki Market")
        #expect(zip(places, places.dropFirst()).allSatisfy { $1.hasPrefix($0) }, "the place grows snapshot by snapshot")
    }
}
