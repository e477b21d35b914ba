import TrailheadSchema

extension TripPlanner {
    /// The model's part of an itinerary: a title, a sentence on the trip, why it suits, and for
    /// each day its places with a note. Free texts are bounded in words in the grammar; the prompt
    /// asks for fewer, so a model that overshoots still closes its sentence. `draftSchema` fixes
    /// the counts for a request.
    public struct Draft: Generable, Sendable, Equatable {
        public var title: String
        public var description: String
        public var rationale: String
        public var days: [Day]

        public static let guides = GuideTable(CodingKeys.self, [
            .title: [.words(TripPlanner.titleWords)], .description: [.sentence(TripPlanner.textWords)],
            .rationale: [.sentence(TripPlanner.textWords)],
        ])

        public struct Day: Generable, Sendable, Equatable {
            public var activities: [Activity]
        }

        public struct Activity: Generable, Sendable, Equatable {
            public var place: String
            /// Why the place suits this trip, briefly: the model's part.
            public var note: String
            /// What the points-of-interest tool says of the place, quoted by the session (never
            /// written by the model: see `TripPlanner.grounding`).
            public var about: String?
            public static let guides = GuideTable(CodingKeys.self, [.note: [.sentence(TripPlanner.noteWords)]])
        }
    }
}

extension Partial<TripPlanner.Draft> {
    /// Every activity's place, day by day.
    public var places: [String] { (self.days ?? []).flatMap { $0.activities ?? [] }.compactMap(\.place) }
}
