import TrailheadSchema

extension TripPlanner {
    /// The model's part of an itinerary: a title, a sentence on the trip, why it suits, and for
    /// each day its places. What is said of each place is the tool's (`about`, quoted by the
    /// session): asked for a note on each place, the 1.5B model made facts up, wrote the same note
    /// three times and glued words at the note's bound (and each note cost ~10 tokens).
    /// Free texts are well-formed sentences bounded in words in the grammar. `draftSchema` fixes the
    /// counts for a request.
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
            /// What the points-of-interest tool says of the place, quoted by the session (never
            /// written by the model: see `TripPlanner.grounding`).
            public var about: String?

            public init(place: String, about: String? = nil) {
                self.place = place
                self.about = about
            }
        }
    }
}

extension Partial<TripPlanner.Draft> {
    /// Every activity's place, day by day.
    public var places: [String] { (self.days ?? []).flatMap { $0.activities ?? [] }.compactMap(\.place) }
}
