/// One candidate for the next token and how likely the model finds it.
public struct TokenProbability: Sendable, Hashable {
    /// The token's text.
    public var token: String
    /// Between 0 and 1.
    public var probability: Double

    public init(token: String, probability: Double) {
        self.token = token
        self.probability = probability
    }
}
