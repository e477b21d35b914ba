/// The sentences that neighbouring descriptions open with alike: an API's tools, each described
/// as a member of the API first ("This tool belongs to the Gorilla file system. It is a simple
/// file system that … Tool description: Move a file …"). `ToolInstructions` says such an opening
/// once, before its tools.
enum SharedOpening {
    /// An opening this long or longer is said once; a shorter one costs less than its line.
    static let minimumLength = 60

    /// The runs of two or more neighbours whose descriptions open with the same whole sentences
    /// (at least `minimumLength` characters of them), each with the longest such opening that
    /// leaves every description of the run something of its own; in order, not overlapping.
    static func runs(_ descriptions: [String]) -> [(range: Range<Int>, opening: String)] {
        var runs: [(range: Range<Int>, opening: String)] = []
        var start = 0
        while start < descriptions.count {
            // The openings the run's first description allows, shortest first, narrowed by each
            // neighbour that shares at least one of them.
            var openings = sentenceOpenings(descriptions[start])
            var end = start + 1
            while end < descriptions.count {
                let theirs = Set(sentenceOpenings(descriptions[end]))
                let shared = openings.filter(theirs.contains)
                guard !shared.isEmpty else { break }
                openings = shared
                end += 1
            }
            if end - start >= 2, let opening = openings.last, opening.count >= minimumLength {
                runs.append((start..<end, opening))
                start = end
            } else {
                start += 1
            }
        }
        return runs
    }

    /// The text's leading whole sentences, one, two, … (each ending in `.`, `!` or `?` before
    /// white space), short of the whole text.
    static func sentenceOpenings(_ text: String) -> [String] {
        var openings: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if ".!?".contains(text[index]), next < text.endIndex, text[next].isWhitespace, text[next...].contains(where: { !$0.isWhitespace }) {
                openings.append(String(text[..<next]))
            }
            index = next
        }
        return openings
    }
}
