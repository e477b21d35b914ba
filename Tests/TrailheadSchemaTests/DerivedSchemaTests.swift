import Foundation
import Testing

@testable import TrailheadSchema

/// A type's schema recorded from its own `Decodable` conformance, compared with the schema
/// written by hand that it replaces.
@Suite struct DerivedSchemaTests {
    // MARK: - Order and optionals

    struct Contact: Generable {
        var name: String
        var nickname: String?
        var age: Int
        var vip: Bool
        var rating: Double?
    }

    @Test func membersComeInDeclarationOrderAndOptionalsAreNotRequired() throws {
        let handWritten = SchemaBuilder.object(properties: [
            "name": .string(), "nickname": .string().optional, "age": .integer(), "vip": .boolean(),
            "rating": .number().optional,
        ]).declaredSchema
        #expect(Contact.generationSchema.json == handWritten.json)
        #expect(Contact.generationSchema.json["properties"]?.objectValue?.keys == ["name", "nickname", "age", "vip", "rating"])
        #expect(Contact.generationSchema.json["required"] == ["name", "age", "vip"])
    }

    // MARK: - Nesting, arrays, enums, guides (the trip planner's answer, as it was written by hand)

    enum TimeOfDay: String, Codable, CaseIterable { case morning, afternoon, evening }

    struct Activity: Generable {
        var time: TimeOfDay
        var place: String
        var category: String?
        var note: String
        static let guides = GuideTable(CodingKeys.self, [
            .place: [.description("A place the tool returned")],
            .category: [.description("Its category")],
            .note: [.words(3...12), .description("One sentence of advice")],
        ])
    }

    struct DayPlan: Generable {
        var date: String
        var activities: [Activity]
        static let guides = GuideTable(CodingKeys.self, [
            .date: [.description("A free day, YYYY-MM-DD"), .pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")],
            .activities: [.count(2...3)],
        ])
    }

    struct Itinerary: Generable {
        var title: String
        var destination: String
        var days: [DayPlan]
        var companions: [String]?
        static let guides = GuideTable(CodingKeys.self, [
            .title: [.words(2...8), .description("A short title of your own")],
            .destination: [.description("The landmark")],
            .days: [.minimumCount(1), .maximumCount(14)],
            .companions: [.maximumCount(8), .description("People from the request")],
        ])
    }

    @Test func nestedTypesArraysEnumsAndGuidesMatchTheSchemaWrittenByHand() throws {
        let activity = SchemaBuilder.object(properties: [
            "time": .enumeration(TimeOfDay.self),
            "place": .string(description: "A place the tool returned"),
            "category": .string(description: "Its category").optional,
            "note": .text(words: 3...12, description: "One sentence of advice"),
        ])
        let day = SchemaBuilder.object(properties: [
            "date": .string(description: "A free day, YYYY-MM-DD", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"),
            "activities": .array(of: activity, minItems: 2, maxItems: 3),
        ])
        let handWritten = SchemaBuilder.object(properties: [
            "title": .text(words: 2...8, description: "A short title of your own"),
            "destination": .string(description: "The landmark"),
            "days": .array(of: day, minItems: 1, maxItems: 14),
            "companions": .array(of: .string(), maxItems: 8).described("People from the request").optional,
        ]).declaredSchema
        #expect(Itinerary.generationSchema.json == handWritten.json)
        #expect(Itinerary.generationSchema.promptDescription == handWritten.promptDescription, "the same schema, key for key, for the model too")
        #expect(DayPlan.generationSchema.json == day.declaredSchema.json, "a nested type's own schema is the one inlined")
    }

    enum Priority: Int, Codable, CaseIterable { case low = 1, high = 5 }

    struct Ticket: Generable {
        var priority: Priority
        var tags: Set<String>
        var severity: UInt8
        var score: Int
        static let guides = GuideTable(CodingKeys.self, [
            .score: [.range(0...10)], .tags: [.element(.anyOf(["bug", "idea"])), .count(0...2)],
        ])
    }

    @Test func integerEnumsSetsAndNarrowIntegersSayWhatTheirTypesAllow() throws {
        let handWritten: GeneratedContent = [
            "type": "object",
            "properties": [
                "priority": ["type": "integer", "enum": [1, 5]],
                "tags": ["type": "array", "items": ["type": "string", "enum": ["bug", "idea"]], "uniqueItems": true, "minItems": 0, "maxItems": 2],
                "severity": ["type": "integer", "minimum": 0, "maximum": 255],
                "score": ["type": "integer", "minimum": 0, "maximum": 10],
            ],
            "required": ["priority", "tags", "severity", "score"], "additionalProperties": false,
        ]
        #expect(Ticket.generationSchema.json == handWritten)
    }

    // MARK: - Recursion

    struct Outline: Generable {
        var heading: String
        var sections: [Outline]
        var parent: Note?
    }

    final class Note: Generable {
        let text: String
        let reply: Note?
    }

    @Test func recursiveTypesEndInReferences() throws {
        let handWritten: GeneratedContent = [
            "type": "object",
            "properties": [
                "heading": ["type": "string"],
                "sections": ["type": "array", "items": ["$ref": "#"]],
                "parent": ["$ref": "#/$defs/Note"],
            ],
            "required": ["heading", "sections"], "additionalProperties": false,
            "$defs": [
                "Note": [
                    "type": "object", "properties": ["text": ["type": "string"], "reply": ["$ref": "#/$defs/Note"]],
                    "required": ["text"], "additionalProperties": false,
                ],
            ],
        ]
        let schema = Outline.generationSchema
        #expect(schema.json == handWritten)
        let deep: GeneratedContent = [
            "heading": "Trip", "sections": [["heading": "Day 1", "sections": [["heading": "Morning", "sections": []]]]],
            "parent": ["text": "a", "reply": ["text": "b", "reply": ["text": 3]]],
        ]
        #expect(schema.validate(deep).map(\.description) == ["/parent/reply/reply/text: expected string, got integer"])
        // A recursive type that is not the root still gets its definition.
        #expect(Note.generationSchema.json["properties"]?["reply"] == ["$ref": "#"])
    }

    // MARK: - Hand-written schemas still win

    struct Place: Generable {
        var name: String
        static let generationSchema = SchemaBuilder.object(properties: ["name": .string(enum: ["Keys View", "Hidden Valley"])]).declaredSchema
    }

    struct Visit: Generable {
        var place: Place
        var at: Date
        static let guides = GuideTable(CodingKeys.self, [.at: [.schema(.string(pattern: "^[0-9]{2}:[0-9]{2}$")), .description("HH:MM")]])
    }

    @Test func aNestedHandWrittenSchemaIsInlinedAndASchemaGuideDescribesWhatCannotBeDerived() throws {
        let handWritten = SchemaBuilder.object(properties: [
            "place": .generable(Place.self),
            "at": .string(description: "HH:MM", pattern: "^[0-9]{2}:[0-9]{2}$"),
        ]).declaredSchema
        #expect(Visit.generationSchema.json == handWritten.json)
        #expect(Place.generationSchema.json["properties"]?["name"]?["enum"] == ["Keys View", "Hidden Valley"])
    }

    // MARK: - Refusals: what cannot be described is named, never guessed

    struct Meeting: Decodable { var title: String; var start: Date }
    struct Bookmark: Decodable { var link: URL }
    struct Scores: Decodable { var byPlayer: [String: Int] }
    enum Shape: Codable { case circle(radius: Double), square(side: Double) }
    struct Drawing: Decodable { var name: String; var shape: Shape }
    enum Mood: String, Codable { case calm, busy }
    struct Day: Decodable { var mood: Mood }
    struct Strict: Decodable {
        var code: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            code = try container.decode(String.self, forKey: .code)
            guard code.count == 3 else {
                throw DecodingError.dataCorruptedError(forKey: .code, in: container, debugDescription: "a code has 3 letters")
            }
        }
        enum CodingKeys: String, CodingKey { case code }
    }
    struct Airport: Decodable { var name: String; var iata: Strict }
    struct Miscounted: Generable {
        var title: String
        static let guides = GuideTable(CodingKeys.self, [.title: [.count(3)]])
    }
    struct Unread: Generable {
        var title: String
        var draft: String = ""
        enum CodingKeys: String, CodingKey { case title, draft }
        init(from decoder: any Decoder) throws { title = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .title) }
        static let guides = GuideTable(CodingKeys.self, [.draft: [.description("never decoded")]])
    }
    struct Nested: Decodable { var outer: Drawing }

    /// A type whose schema is refused, where, and why.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var type: String
        var member: String
        var message: String
        var derive: @Sendable () throws(SchemaDerivationError) -> GenerationSchema

        init<T: Decodable & SendableMetatype>(_ type: T.Type, _ member: String, _ message: String) {
            self.type = SchemaRecorder.name(type)
            self.member = member
            self.message = message
            derive = { () throws(SchemaDerivationError) in try GenerationSchema.derived(from: T.self) }
        }

        var testDescription: String { type }
    }

    @Test(arguments: [
        Refusal(Meeting.self, "Meeting.start", "a Date has no one JSON form"),
        Refusal(Bookmark.self, "Bookmark.link", "a URL is text the schema cannot check"),
        Refusal(Scores.self, "Scores.byPlayer", "a dictionary (Dictionary<String, Int>) leaves its keys to the model"),
        Refusal(Drawing.self, "Drawing.shape", "Shape decodes itself from whichever keys are present (an enum with associated values"),
        Refusal(Day.self, "Day.mood", "Mood is not CaseIterable"),
        Refusal(Airport.self, "Airport.iata", "Strict's init(from:) refused the placeholder values its schema is recorded with after member \"code\""),
        Refusal(Miscounted.self, "Miscounted.title", "a .count guide needs an array, but the member is a string"),
        Refusal(Unread.self, "Unread.draft", "has a guide, but Unread's init(from:) never decodes it"),
        Refusal(Nested.self, "Drawing.shape", "Shape decodes itself"),
    ])
    func whatCannotBeDescribedIsRefusedNamingItsMember(_ refusal: Refusal) throws {
        let error = #expect(throws: SchemaDerivationError.self) { try refusal.derive() }
        #expect(error?.member == refusal.member)
        #expect(error?.message.contains(refusal.message) == true, "\(error?.message ?? "")")
        #expect(error?.description.hasPrefix("cannot derive the schema of \(refusal.type): \(refusal.member): ") == true)
    }

    @Test func aGuideWhosePatternDoesNotCompileNamesItsMember() throws {
        struct Code: Generable {
            var value: String
            static let guides = GuideTable(CodingKeys.self, [.value: [.pattern("(")]])
        }
        let error = #expect(throws: SchemaDerivationError.self) { try GenerationSchema.derived(from: Code.self) }
        #expect(error?.member == "Code.value")
    }

    // MARK: - Once per type

    struct Counted: Generable { var a: String; var b: [Int] }

    @Test func aSchemaIsRecordedOncePerType() throws {
        let first = Counted.generationSchema
        let recorded = DerivedSchemas.recordings.load(ordering: .relaxed)
        for _ in 0..<100 { #expect(Counted.generationSchema == first) }
        #expect(DerivedSchemas.recordings.load(ordering: .relaxed) == recorded, "no recording after the first")
    }

    @Test func derivedValuesRoundTripThroughTheirSchema() throws {
        let itinerary = Itinerary(
            title: "Desert days", destination: "Joshua Tree",
            days: [DayPlan(date: "2026-12-19", activities: [
                Activity(time: .morning, place: "Hidden Valley", category: "hike", note: "Start early, it is cool."),
                Activity(time: .evening, place: "Keys View", category: nil, note: "Watch the sunset from here."),
            ])], companions: nil)
        let content = try itinerary.generatedContent()
        #expect(Itinerary.generationSchema.validate(content) == [])
        #expect(try Itinerary(content).days[0].activities[1].place == "Keys View")
    }
}
