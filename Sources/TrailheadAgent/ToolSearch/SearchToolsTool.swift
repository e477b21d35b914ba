import TrailheadSchema

/// The tool a session shows instead of its many tools (see `ToolSearch`): finds tools by what
/// the request asks and returns each with the line the instructions would have shown for it.
struct SearchToolsTool: Tool {
    let name = ToolSearch.toolName
    let description = "Finds the tools that can do what the request asks. Call it first, with the request's key words."
    /// It reads an index: a search changes nothing.
    let isReadOnly = true

    struct Arguments: Generable {
        var query: String
        static let generationSchema = SchemaBuilder.object(properties: [
            "query": .string(description: "What the tool must do, in a few words.", maxLength: 200)
        ]).declaredSchema
    }

    let index: ToolSearchIndex
    /// Each tool's line, as `ToolInstructions` writes it.
    let listings: [String: String]
    let limit: Int

    /// The request the session is answering: searched when the model's query finds nothing.
    var request = ""

    /// The tools the query finds. When it finds none (the model's words can miss every tool:
    /// "extract anomaly from experiment_log.txt" for `grep`), the request's own words are searched,
    /// and the result says so (`byRequest`): the model reads that its query found nothing.
    func call(arguments: Arguments) async throws -> GeneratedContent {
        let found = index.search(arguments.query, limit: limit)
        guard found.isEmpty, !request.isEmpty else { return result(found) }
        let byRequest = index.search(request, limit: limit)
        return byRequest.isEmpty ? result([]) : result(byRequest, note: "Nothing matched the query; these match the request's words.")
    }

    private func result(_ names: [String], note: String? = nil) -> GeneratedContent {
        var result: JSONObject = ["tools": .array(names.map { ["name": .string($0), "usage": .string(listings[$0] ?? $0)] })]
        if let note { result["byRequest"] = .string(note) }
        return .object(result)
    }

    /// Whether a search's result holds tools its query found (not the request's words).
    static func queryFound(_ result: GeneratedContent?) -> Bool { !names(in: result).isEmpty && result?["byRequest"] == nil }

    /// The names a search's result holds (what joins the step schema).
    static func names(in result: GeneratedContent?) -> [String] {
        (result?["tools"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }
}
