import TrailheadSchema

/// A trip plan declared in code, as the flagship agent's output type would be.
struct Itinerary: Generable, Equatable {
    var title: String
    var days: [Day]

    static let generationSchema = SchemaBuilder.object(
        description: "A trip plan",
        properties: [
            "title": .string(description: "A short name for the trip", minLength: 1, maxLength: 60),
            "days": .array(of: .generable(Day.self), minItems: 3, maxItems: 3),
        ]
    ).declaredSchema

    struct Day: Generable, Equatable {
        var date: String
        var activities: [Activity]

        static let generationSchema = SchemaBuilder.object(properties: [
            "date": .string(description: "YYYY-MM-DD", pattern: #"^\d{4}-\d{2}-\d{2}$"#),
            "activities": .array(of: .generable(Activity.self), minItems: 1, maxItems: 3),
        ]).declaredSchema
    }

    struct Activity: Generable, Equatable {
        enum Category: String, Codable { case hike, viewpoint, museum }

        var name: String
        var category: Category
        var hours: Double?

        static let generationSchema = SchemaBuilder.object(properties: [
            "name": .string(description: "The place, as the tool named it"),
            "category": .choice(["hike": "a trail walk", "viewpoint": "a place to look out", "museum": "indoors"]),
            "hours": .number(minimum: 0.5, maximum: 12, multipleOf: 0.5).optional,
        ]).declaredSchema
    }

    static let sample = Itinerary(title: "Joshua Tree", days: [
        Day(date: "2025-05-01", activities: [Activity(name: "Ryan Mountain", category: .hike, hours: 2.5)]),
        Day(date: "2025-05-02", activities: [
            Activity(name: "Keys View", category: .viewpoint, hours: nil),
            Activity(name: "Cholla Cactus Garden", category: .hike, hours: 0.5),
        ]),
        Day(date: "2025-05-03", activities: [Activity(name: "Joshua Tree Museum", category: .museum, hours: 1)]),
    ])
}
