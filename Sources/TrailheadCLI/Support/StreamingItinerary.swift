import TrailheadSchema
import TripPlanner

/// Shows an itinerary on a terminal while the model writes it.
///
/// Each snapshot of the session's stream is rendered as text, and only what extends what is
/// already on screen is printed. A snapshot that would rewrite shown text (rare: a field
/// completing differently) waits for the next one, and `finish` prints whatever remains of the
/// complete itinerary.
struct StreamingItinerary {
    private var shown = ""
    private let write: (String) -> Void

    init(write: @escaping (String) -> Void) { self.write = write }

    /// Takes the next snapshot of the itinerary being written, made of finished values only
    /// (see `droppingLastLeaf`: the last value of a snapshot of the model's text may still grow).
    mutating func update(_ snapshot: Partial<Itinerary>) {
        show(ItineraryFormat.text.render(snapshot))
    }

    /// Prints the rest of the finished itinerary.
    mutating func finish(_ itinerary: Partial<Itinerary>) {
        let full = ItineraryFormat.text.render(itinerary)
        if full.hasPrefix(shown) {
            write(String(full.dropFirst(shown.count)))
        } else {
            write("\n---\n" + full)  // the streamed text went astray: print the whole itinerary once more
        }
        shown = full
    }

    /// `content` without its last scalar in document order (the one that may be unfinished).
    static func droppingLastLeaf(_ content: GeneratedContent) -> GeneratedContent {
        switch content {
        case .object(var members):
            guard let key = members.keys.last, let last = members[key] else { return content }
            switch last {
            case .object, .array: members[key] = droppingLastLeaf(last)
            default: members[key] = nil
            }
            return .object(members)
        case .array(var elements):
            guard let last = elements.last else { return content }
            switch last {
            case .object, .array: elements[elements.count - 1] = droppingLastLeaf(last)
            default: elements.removeLast()
            }
            return .array(elements)
        default:
            return content
        }
    }

    private mutating func show(_ rendered: String) {
        // Hold back the last line: it may still grow (an activity whose category or note is
        // still being written). Rendered text ends with a newline, so cut at the one before it.
        guard let cut = rendered.dropLast().lastIndex(of: "\n") else { return }
        let stable = String(rendered[...cut])
        guard stable.count > shown.count, stable.hasPrefix(shown) else { return }
        write(String(stable.dropFirst(shown.count)))
        shown = stable
    }
}
