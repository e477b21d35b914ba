import TrailheadSchema

/// Turns snapshots of an answer into text deltas a client can simply concatenate (OpenAI's
/// `delta.content`). A text answer's snapshots grow at the end, so each delta is what is new. A
/// JSON answer's serialization is not stable while it is written (a string still growing, a
/// member the agent fills in beside it), so only what two snapshots in a row agree on, up to its
/// last completed member, is sent; the rest follows with the final answer.
struct AnswerText {
    private(set) var sent = ""
    private var previous: String?
    /// A snapshot disagreed with text already sent (an agent rewrote its answer): no more deltas.
    private(set) var diverged = false

    /// The new text after `partial`, or nil.
    mutating func delta(after partial: GeneratedContent) -> String? {
        guard !diverged else { return nil }
        let stable: String
        if let text = partial.stringValue {
            stable = text
        } else {
            let json = partial.jsonString
            defer { previous = json }
            guard let previous else { return nil }
            stable = Self.completedMembers(of: Self.commonPrefix(previous, json))
        }
        return advance(to: stable)
    }

    /// What is left of the final answer `text` after the deltas sent (nil when they diverged from it).
    mutating func rest(of text: String) -> String? {
        guard !diverged, text.hasPrefix(sent) else {
            diverged = true
            return nil
        }
        let rest = String(text.dropFirst(sent.count))
        sent = text
        return rest
    }

    private mutating func advance(to stable: String) -> String? {
        guard stable.count > sent.count else { return nil }
        guard stable.hasPrefix(sent) else {
            diverged = true
            return nil
        }
        let delta = String(stable.dropFirst(sent.count))
        sent = stable
        return delta
    }

    static func commonPrefix(_ a: String, _ b: String) -> String {
        var end = a.startIndex
        var other = b.startIndex
        while end < a.endIndex, other < b.endIndex, a[end] == b[other] {
            end = a.index(after: end)
            other = b.index(after: other)
        }
        return String(a[..<end])
    }

    /// `json` cut after its last `,`, `{` or `[` outside a string: only members already closed.
    static func completedMembers(of json: String) -> String {
        var inString = false
        var escaped = false
        var cut = json.startIndex
        var index = json.startIndex
        while index < json.endIndex {
            let character = json[index]
            let next = json.index(after: index)
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "," || character == "{" || character == "[" {
                cut = next
            }
            index = next
        }
        return String(json[..<cut])
    }
}
