import Foundation

/// What a pattern of `SchemaBuilder.text(words:)` or `sentence(words:)` asks for, recognized
/// from the pattern itself: prompts and error messages say "text of 1 to 5 words", not the
/// pattern (some 600 characters, which the 1.5B model read in every tool signature and copied
/// nothing from). Any other pattern is not a text shape and is shown as written.
public struct TextShape: Sendable, Hashable {
    public var words: ClosedRange<Int>
    public var wordLength: Int
    /// One sentence (`sentence(words:)`), or text that may end without its full stop.
    public var endsSentence: Bool

    /// The shape `pattern` was written for, or nil when `SchemaBuilder` did not write it.
    public init?(pattern: String) {
        // The repetition of all words but the last: "… ){0,4}(…"; the word length: the first "{1,L}".
        guard pattern.hasPrefix("^(("),
              let repetition = pattern.range(of: #" \)\{(\d+),(\d+)\}"#, options: .regularExpression),
              let length = pattern.range(of: #"\{1,(\d+)\}"#, options: .regularExpression)
        else { return nil }
        let bounds = pattern[repetition].dropFirst(3).dropLast().split(separator: ",").compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1], let wordLength = Int(pattern[length].dropFirst(3).dropLast()) else { return nil }
        let words = (bounds[0] + 1)...(bounds[1] + 1)
        for endsSentence in [false, true]
        where SchemaBuilder.textPattern(words: words, wordLength: wordLength, endsSentence: endsSentence) == pattern {
            (self.words, self.wordLength, self.endsSentence) = (words, wordLength, endsSentence)
            return
        }
        return nil
    }

    /// "text of 1 to 5 words", "one sentence of 4 to 12 words".
    public var description: String {
        let count = words.count == 1 ? Describe.count(words.lowerBound, "word", "words") : "\(words.lowerBound) to \(words.upperBound) words"
        return endsSentence ? "one sentence of \(count)" : "text of \(count)"
    }
}
