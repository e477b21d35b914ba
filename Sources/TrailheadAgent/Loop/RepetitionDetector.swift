/// Notices a generation caught in a loop: the text it has written so far ends with one piece
/// repeated back to back ("Sushi Sake, Sushi Sake, Sushi Sake, …"). A small model that starts
/// such a loop does not leave it, and at ~10 tokens a second it can fill minutes and the whole
/// context (a BFCL case wrote past 2,800 tokens); stopping it is the only useful move.
///
/// A short piece must repeat more often than a long one before it counts, and the repeated
/// stretch must be long, so a list of numbers, a run of digits or two similar sentences in a
/// legitimate answer do not trip it.
struct RepetitionDetector: Sendable {
    /// Shortest and longest repeated piece looked for, in characters.
    static let pieceLengths = 2...200
    /// Fewest characters the repeated stretch must cover.
    static let minimumStretch = 48
    /// Only the end of the text is examined (a loop is always at the end).
    private static let window = 1_200

    private var tail: [Character] = []
    private var sinceCheck = 0

    /// What was found: the piece and how many times it repeated at the end.
    struct Loop: Sendable, Equatable {
        var piece: String
        var repeats: Int
    }

    /// Repeats a piece of `length` characters needs before it counts.
    static func repeatsNeeded(length: Int) -> Int {
        switch length {
        case ..<10: 8
        case ..<40: 4
        default: 3
        }
    }

    /// Takes in `delta` and says whether the text now ends in a loop.
    mutating func append(_ delta: String) -> Loop? {
        tail.append(contentsOf: delta)
        if tail.count > Self.window { tail.removeFirst(tail.count - Self.window) }
        sinceCheck += delta.count
        // A loop grows by whole pieces; looking every few characters is enough and keeps the cost
        // per token small.
        guard sinceCheck >= 8 else { return nil }
        sinceCheck = 0
        return Self.loop(at: tail)
    }

    /// The piece turned to start where an item of a list would (`"ake, Sushi S"` is
    /// `"Sushi Sake, "`): after a comma or full stop and a space, else after a space; as a person
    /// would quote the loop.
    static func readable(_ piece: [Character]) -> String {
        let n = piece.count
        func startsWord(_ i: Int) -> Bool { piece[(i + n - 1) % n].isWhitespace && !piece[i].isWhitespace }
        let afterPunctuation = piece.indices.first { startsWord($0) && ",.;:".contains(piece[(($0 + n - 2) % n)]) }
        guard let start = afterPunctuation ?? piece.indices.first(where: startsWord) else { return String(piece) }
        return String(piece[start...] + piece[..<start])
    }

    static func loop(at text: [Character]) -> Loop? {
        let count = text.count
        for length in pieceLengths where length * 2 <= count {
            let needed = max(repeatsNeeded(length: length), (minimumStretch + length - 1) / length)
            guard length * needed <= count else { continue }
            // How many characters at the end repeat with this period.
            var matched = 0
            var index = count - 1
            while index - length >= 0, text[index] == text[index - length] {
                matched += 1
                index -= 1
            }
            let repeats = (matched + length) / length
            if repeats >= needed {
                let piece = readable(Array(text[(count - length)..<count]))
                // Only pieces with a letter or digit: runs of punctuation or spaces are a grammar's business.
                guard piece.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
                return Loop(piece: piece, repeats: repeats)
            }
        }
        return nil
    }
}
