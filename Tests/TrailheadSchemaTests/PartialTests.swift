import Testing

@testable import TrailheadSchema

/// Snapshots of a value still being generated, read through the type's own members.
@Suite struct PartialTests {
    // The seed's types, as the code-along declares them.
    struct Itinerary: Generable {
        let title: String
        let destinationName: String
        let days: [DayPlan]
    }

    struct DayPlan: Generable {
        let title: String
        let activities: [Activity]
    }

    struct Activity: Generable {
        let type: Kind
        let title: String
        let hours: Double?
    }

    enum Kind: String, Codable, CaseIterable { case sightseeing, foodAndDining, hotelAndLodging }

    /// The snapshot after each of `chunks` arrives.
    func snapshots<T: Generable>(_ type: T.Type, _ chunks: [String]) throws -> [T.PartiallyGenerated] {
        var parser = PartialJSONParser()
        return try chunks.compactMap { chunk in
            try parser.append(chunk)
            return parser.snapshot().flatMap { T.partiallyGenerated(from: $0) }
        }
    }

    @Test func membersReadThroughKeyPathsAreTyped() throws {
        let all = try snapshots(Itinerary.self, [
            #"{"title":"Desert Days","destinationName":"Joshua"#, #" Tree","days":[{"title":"Rocks","activities":[{"type":"sightseeing","title":"Hidden"#,
        ])
        let partial = try #require(all.last)
        let title: String? = partial.title
        let first: Partial<DayPlan>? = partial.days?.first
        let kind: Kind? = first?.activities?.first?.type
        #expect(title == "Desert Days")
        #expect(partial.destinationName == "Joshua Tree")
        #expect(first?.title == "Rocks")
        #expect(kind == .sightseeing)
        #expect(first?.activities?.first?.title == "Hidden", "a string still being written reads as far as it has come")
        #expect(first?.activities?.first?.hours == nil)
        #expect(all.first?.complete == nil, "no days yet: not a whole itinerary")
        #expect(partial.complete?.days.first?.activities.first?.title == "Hidden", "what has come is a valid itinerary already")
    }

    @Test func anEnumCutMidWordReadsNilAndTheSnapshotStays() throws {
        let all = try snapshots(Itinerary.self, [
            #"{"title":"Food","destinationName":"Kyoto","days":[{"title":"Day one","activities":[{"type":"foodAn"#,
            #"dDining","title":"Nishiki"}]}]}"#,
        ])
        #expect(all.count == 2)
        let cut = try #require(all.first?.days?.first?.activities?.first)
        #expect(cut.content["type"] == "foodAn")
        #expect(cut.type == nil, "not a Kind yet")
        #expect(all.first?.title == "Food", "the rest of the snapshot is there")
        #expect(all.last?.days?.first?.activities?.first?.type == .foodAndDining)
        #expect(all.last?.complete?.days.first?.activities.first?.title == "Nishiki")
    }

    @Test func itemsKeepTheirIdentityWhileTheArrayGrows() throws {
        let all = try snapshots(Itinerary.self, [
            #"{"title":"T","destinationName":"D","days":[{"title":"One","activities":[]}"#,
            #",{"title":"Tw"#, #"o","activities":[{"type":"sightseeing","title":"A"}]}]}"#,
        ])
        let ids = all.map { $0.days?.map(\.id) ?? [] }
        #expect(ids == [["/days/0"], ["/days/0", "/days/1"], ["/days/0", "/days/1"]])
        #expect(all.last?.days?.last?.activities?.first?.id == "/days/1/activities/0")
        #expect(all[1].days?.last?.title == "Tw")
    }

    struct Renamed: Generable {
        let name: String
        let count: Int
        let note: String?
        enum CodingKeys: String, CodingKey { case name = "title", count, note = "remark" }
    }

    @Test func aMemberWithAnotherCodingKeyReadsItsKey() throws {
        let partial = Partial<Renamed>(["title": "Trip", "count": 2, "remark": "soon"])
        #expect(partial.name == "Trip")
        #expect(partial.count == 2)
        #expect(partial.note == "soon")
    }

    struct Handwritten: Generable {
        let type: Kind
        let title: String
        struct PartiallyGenerated: Decodable { var type: Kind?; var title: String? }
    }

    @Test func aViewWrittenByHandDecodesLeniently() throws {
        let view = try #require(Handwritten.partiallyGenerated(from: ["type": "hotelAn", "title": "Ryokan"]))
        #expect(view.type == nil)
        #expect(view.title == "Ryokan")
        #expect(Handwritten.partiallyGenerated(from: "not an object") == nil)
    }

    @Test func aPartialIsFilledInMemberByMember() throws {
        var activity = Partial<Activity>()
        activity.type = .sightseeing
        activity.title = "Hidden Valley"
        var day = Partial<DayPlan>()
        day.title = "Rocks"
        day.activities = [activity]
        var itinerary = Partial<Itinerary>()
        itinerary.title = "Desert Days"
        itinerary.destinationName = "Joshua Tree"
        #expect(itinerary.complete == nil)
        itinerary.days = [day]
        #expect(itinerary.content.jsonString == #"{"title":"Desert Days","destinationName":"Joshua Tree","days":[{"title":"Rocks","activities":[{"type":"sightseeing","title":"Hidden Valley"}]}]}"#)
        #expect(itinerary.complete?.days.first?.activities.first?.type == .sightseeing)
        itinerary.title = nil
        #expect(itinerary.content["title"] == nil, "nil removes the member")
        var renamed = Partial<Renamed>()
        renamed.name = "Trip"
        #expect(renamed.content == ["title": "Trip"], "written under its coding key")
    }
}
