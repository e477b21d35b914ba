import TrailheadSchema

/// The tool a session shows instead of its many tools (see `ToolSearch`): finds tools by what
/// the request asks and returns each with the line the instructions would have shown for it.
struct SearchToolsTool: Tool {
    let name = ToolSearch.toolName
    let description = "Finds the tools that can do what the request asks. Call it first, with the request's key words."

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

    func call(arguments: Arguments) async throws -> GeneratedContent {
        let found = index.search(arguments.query, limit: limit)
        return ["tools": .array(found.map { ["name": .string($0), "usage": .string(listings[$0] ?? $0)] })]
    }

    /// The names a search's result holds (what joins the step schema).
    static func names(in result: GeneratedContent?) -> [String] {
        (result?["tools"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }
}
