import TrailheadSchema

/// The complete links of a chain of calls (`{"name": …, "arguments": …, "and": {…}}`) in a turn's
/// text, however the text ends — so a turn that runs away in a later link, or starts the same
/// call again, keeps the calls it had finished.
///
/// A link is complete once the next link's `"and":` key follows it (its arguments closed
/// before): the text up to the last `"and":` holds only complete links.
enum ChainSalvage {
    static let linkKey = "\"" + StepSchema.keys.next + "\":"

    /// The calls of the complete links in `text`, in order, each once; empty when there is no
    /// complete link.
    static func completeLinks(in text: String) -> [ToolCallRequest] {
        var unique: [ToolCallRequest] = []
        for call in links(in: text) where !unique.contains(call) { unique.append(call) }
        return unique
    }

    /// The calls of the complete links, repeats included.
    static func links(in text: String) -> [ToolCallRequest] {
        guard let last = text.range(of: linkKey, options: .backwards) else { return [] }
        var prefix = text[..<last.lowerBound]
        while let end = prefix.last, end == "," || end.isWhitespace { prefix.removeLast() }
        var parser = PartialJSONParser()
        guard (try? parser.append(String(prefix))) != nil, let snapshot = parser.snapshot(), case .call(let calls)? = Step(snapshot)
        else { return [] }
        return calls
    }

    /// Watches a turn's text as it streams and says when a chain starts a link after one that
    /// repeats an earlier call: the turn can stop there, its calls kept (`completeLinks`).
    struct RepeatWatcher {
        private var text = ""
        private var linksSeen = 0

        /// Appends `delta`; true when the chain now holds the same call twice.
        mutating func append(_ delta: String) -> Bool {
            text += delta
            guard delta.contains(":") else { return false }
            let count = text.components(separatedBy: ChainSalvage.linkKey).count - 1
            guard count > linksSeen else { return false }
            linksSeen = count
            guard count >= 2 else { return false }
            let calls = ChainSalvage.links(in: text)
            return Set(calls).count < calls.count
        }
    }
}
