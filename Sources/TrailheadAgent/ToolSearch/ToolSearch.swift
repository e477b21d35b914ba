import TrailheadModels

/// When a session shows the model a `searchTools` tool instead of its whole list of tools.
///
/// An agent with many tools (an MCP server brings dozens) spends its context on their
/// descriptions before the conversation starts: 100 BFCL functions made prompts of 7,300–7,600 tokens, more than the
/// embedded model's 4,096. Above the threshold the system message lists only `searchTools`; the
/// model searches (BM25 over names, descriptions and parameter names, `ToolSearchIndex`), reads the
/// tools it found in the search's result, and those tools join the next turn's step schema.
public struct ToolSearch: Sendable, Equatable {
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// All tools are listed, however many.
        case never
        /// Only `searchTools` is listed, however few tools there are.
        case always
        /// `searchTools` once the tools' listing takes more than `maximumListedShare` of the
        /// model's context, counted by the model's own tokenizer, when the model says its context
        /// (the embedded model does); otherwise once there are more than `maximumListedTools`
        /// tools, or their descriptions take more than `maximumListedTokens` (by `TokenEstimate`).
        case automatic
    }

    public var mode: Mode
    /// The share of the model's context the listing may take (`automatic`, when the context is known).
    public var maximumListedShare: Double
    public var maximumListedTools: Int
    public var maximumListedTokens: Int
    /// Tools a search returns at most.
    public var resultsPerSearch: Int
    /// Search with the prompt itself before the first turn (a prefetched call), so the model
    /// starts with the tools that match the request and may search again with its own words.
    public var searchesPrompt: Bool

    public init(
        mode: Mode = .automatic, maximumListedShare: Double = 0.5, maximumListedTools: Int = 16, maximumListedTokens: Int = 2_000,
        resultsPerSearch: Int = 5, searchesPrompt: Bool = false
    ) {
        self.searchesPrompt = searchesPrompt
        self.mode = mode
        self.maximumListedShare = maximumListedShare
        self.maximumListedTools = maximumListedTools
        self.maximumListedTokens = maximumListedTokens
        self.resultsPerSearch = max(1, resultsPerSearch)
    }

    public static let automatic = ToolSearch()
    public static let always = ToolSearch(mode: .always)
    public static let never = ToolSearch(mode: .never)

    /// The name of the search tool the model sees.
    public static let toolName = "searchTools"

    /// Whether `count` tools whose listing is `listing` are searched rather than listed;
    /// `listingShare`: the share of the model's context the listing takes, when the model counted it.
    func applies(toolCount count: Int, listing: [String], listingShare: Double? = nil) -> Bool {
        switch mode {
        case .never: false
        case .always: count > 0
        case .automatic:
            if let listingShare { listingShare > maximumListedShare } else {
                count > maximumListedTools || TokenEstimate(listing.map { ChatMessage.system($0) }).tokens > maximumListedTokens
            }
        }
    }
}
