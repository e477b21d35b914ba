import TrailheadModels
import TrailheadSchema

/// What the model reads of the conversation each turn, as Foundation Models 27's
/// `historyTransform`: a function from the history so far to what is sent. The transcript keeps
/// everything; only the request changes.
///
///     session.configuration.historyTransform = .droppingCompletedToolCalls.then(.rollingWindow(entries: 12))
///
/// Every transform here keeps the instructions first and the current prompt, and changes what
/// it sends only in steps, so the start of the request stays the same from one turn to the next
/// and llama-server's prompt cache keeps serving it (measured in docs/FoundationModels.md).
public struct HistoryTransform: Sendable {
    private let body: @Sendable ([HistoryEntry]) -> [HistoryEntry]

    public init(_ body: @escaping @Sendable ([HistoryEntry]) -> [HistoryEntry]) { self.body = body }

    public func callAsFunction(_ history: [HistoryEntry]) -> [HistoryEntry] { body(history) }

    /// This transform, then `next` on what it left.
    public func then(_ next: HistoryTransform) -> HistoryTransform {
        HistoryTransform { next(self($0)) }
    }

    /// Everything, unchanged.
    public static let identity = HistoryTransform { $0 }
}

// MARK: - The transforms

extension HistoryTransform {
    /// The instructions and at most `entries` messages after them, starting at a prompt.
    ///
    /// The window moves `step` messages at a time (half the window by default), not one: a
    /// window that slid every turn would change the request's second message every turn, and
    /// the server would read everything after the instructions again each time. When the
    /// current response alone is longer than the window, its prompt stays, followed by its
    /// latest messages.
    public static func rollingWindow(entries: Int, step: Int? = nil) -> HistoryTransform {
        let size = max(1, entries)
        let step = min(size, max(1, step ?? size / 2))
        return HistoryTransform { history in
            let head = history.prefix { $0.source == .instructions }
            let rest = Array(history.dropFirst(head.count))
            guard rest.count > size else { return history }
            let overflow = rest.count - size
            var start = (overflow + step - 1) / step * step
            guard let currentPrompt = rest.lastIndex(where: { $0.source == .prompt }) else { return Array(head) + rest[start...] }
            if start > currentPrompt { return Array(head) + [rest[currentPrompt]] + rest[start...] }
            while rest[start].source != .prompt { start += 1 }
            return Array(head) + rest[start...]
        }
    }

    /// Earlier responses as their prompt and answer only: their tool calls, tool outputs and
    /// repairs are left out (the current response keeps all of its own).
    public static let droppingCompletedToolCalls = HistoryTransform { history in
        let current = history.last?.response ?? 0
        return history.filter { entry in
            guard entry.response < current else { return true }
            switch entry.source {
            case .instructions, .prompt, .modelTurn(final: true): return true
            case .modelTurn(final: false), .toolOutputs, .repair: return false
            }
        }
    }

    /// Earlier responses keep what they did, compactly: their calls as the model wrote them and
    /// their tool outputs shortened (`ToolOutputSummary`); a turn the loop could not use and its
    /// repair are left out. The current response keeps all of its own. For conversations whose
    /// later requests build on what earlier calls did (the folder moved into, the booking made),
    /// which `droppingCompletedToolCalls` forgets. An earlier response reads the same every time,
    /// so the prompt cache keeps it.
    public static func summarizingCompletedToolCalls(maximumItems: Int = 5, maximumCharacters: Int = 80) -> HistoryTransform {
        let summary = ToolOutputSummary(maximumItems: maximumItems, maximumCharacters: maximumCharacters)
        return HistoryTransform { history in
            let current = history.last?.response ?? 0
            var kept: [HistoryEntry] = []
            for entry in history {
                guard entry.response < current else {
                    kept.append(entry)
                    continue
                }
                switch entry.source {
                case .repair:
                    // The repair answers the turn before it: neither says what the response did.
                    if case .modelTurn(final: false)? = kept.last?.source { kept.removeLast() }
                case .toolOutputs:
                    kept.append(entry.outcomes.map { HistoryEntry($0, response: entry.response) { _, result in summary.shorten(result) } } ?? entry)
                case .instructions, .prompt, .modelTurn:
                    kept.append(entry)
                }
            }
            return kept
        }
    }

    /// Tool outputs as `summarize` shortens them (the tool's name and its whole result in,
    /// what the model reads out): the session's `summarizeToolOutput`, applied to the history.
    public static func summarizingToolOutputs(
        _ summarize: @escaping @Sendable (_ tool: String, _ result: GeneratedContent) -> GeneratedContent
    ) -> HistoryTransform {
        HistoryTransform { history in
            history.map { entry in
                guard let outcomes = entry.outcomes else { return entry }
                return HistoryEntry(outcomes, response: entry.response, summarize: summarize)
            }
        }
    }

    /// Tool outputs with arrays cut to `maximumItems` and strings to `maximumCharacters`
    /// (`ToolOutputSummary`), the trip planner's summaries for any tool.
    public static func summarizingToolOutputs(maximumItems: Int = 10, maximumCharacters: Int = 48) -> HistoryTransform {
        let summary = ToolOutputSummary(maximumItems: maximumItems, maximumCharacters: maximumCharacters)
        return summarizingToolOutputs { _, result in summary.shorten(result) }
    }
}
