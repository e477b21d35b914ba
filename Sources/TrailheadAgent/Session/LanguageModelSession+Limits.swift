extension LanguageModelSession {
    /// Turn, repair, repeat and call bounds of a session's tool loop.
    public struct Limits: Sendable {
        public var maximumTurns: Int
        public var maximumRepairs: Int
        public var maximumRepeats: Int
        /// Most calls in one turn: a request that asks for several things gets them at once (run
        /// concurrently), instead of a turn — a prompt and a decode — per call.
        public var maximumCallsPerTurn: Int
        /// Fewest calls in a turn that calls tools (2 or more: several searches at once).
        public var minimumCallsPerTurn: Int
        /// Turns in which the model may call tools; after them only the answer is offered
        /// (nil: no bound besides `maximumTurns`). Every turn costs a prompt and a decode.
        public var maximumToolTurns: Int?

        public init(
            maximumTurns: Int = 10, maximumRepairs: Int = 3, maximumRepeats: Int = 1, maximumCallsPerTurn: Int = 8,
            minimumCallsPerTurn: Int = 1, maximumToolTurns: Int? = nil
        ) {
            self.maximumTurns = maximumTurns
            self.maximumRepairs = maximumRepairs
            self.maximumRepeats = maximumRepeats
            self.maximumCallsPerTurn = maximumCallsPerTurn
            self.minimumCallsPerTurn = minimumCallsPerTurn
            self.maximumToolTurns = maximumToolTurns
        }
    }
}
