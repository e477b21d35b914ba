import TrailheadAgent
import TrailheadSchema

/// One case of the Berkeley Function Calling Leaderboard as the BFCL worker hands it over: a
/// question, the functions it may call (as OpenAI-style tools, converted the way BFCL converts
/// them for function-calling models) and the system prompt BFCL gives every model.
public struct BFCLCase: Sendable {
    public var id: String
    public var category: String
    var instructions: String
    /// The user's requests, one a turn (each turn's user messages, joined); single-turn
    /// categories have one.
    var turns: [String]
    var tools: [BFCLTool]

    /// The user's (first) request.
    var prompt: String { turns.first ?? "" }
    /// A conversation whose calls run on BFCL's executable backends (`multi_turn_…`).
    var isConversation: Bool { category.hasPrefix("multi_turn") }

    /// `instructions` is the system prompt for the case's kind (nil: none at all).
    init(_ json: GeneratedContent, instructions: String?) throws(BFCLError) {
        guard let id = json["id"]?.stringValue, let category = json["category"]?.stringValue else {
            throw BFCLError("a BFCL case without an id or category: \(json.jsonString.prefix(200))")
        }
        self.id = id
        self.category = category
        let questions = (json["question"]?.arrayValue ?? []).map { $0.arrayValue ?? [] }
        let messages = questions.first ?? []
        let system = messages.filter { $0["role"]?.stringValue == "system" }.compactMap { $0["content"]?.stringValue }
        self.instructions = ((instructions.map { [$0] } ?? []) + system).joined(separator: "\n")
        turns = questions.map { messages in
            messages.filter { $0["role"]?.stringValue == "user" }.compactMap { $0["content"]?.stringValue }.joined(separator: "\n")
        }
        tools = try (json["tools"]?.arrayValue ?? []).map { tool throws(BFCLError) in try BFCLTool(tool, caseID: id) }
    }
}

/// A function of a BFCL case as a session tool. BFCL's single-turn categories score the calls,
/// not what a function would return, so it answers every call with the same small result; in a
/// conversation, `execute` runs the call on the case's live backend (through the BFCL worker).
struct BFCLTool: Tool {
    typealias Arguments = GeneratedContent
    typealias Output = GeneratedContent

    let name: String
    let description: String
    let parameters: GenerationSchema
    var execute: (@Sendable (_ name: String, _ arguments: GeneratedContent) throws -> GeneratedContent)?

    init(_ json: GeneratedContent, caseID: String) throws(BFCLError) {
        let function = json["function"] ?? json
        guard let name = function["name"]?.stringValue else { throw BFCLError("\(caseID): a function without a name") }
        self.name = name
        description = function["description"]?.stringValue ?? ""
        let schema = Self.subset(function["parameters"] ?? ["type": "object"])
        do { parameters = try GenerationSchema(json: schema) } catch {
            throw BFCLError("\(caseID): the parameters of \(name) are not a schema Trailhead can load: \(error)")
        }
    }

    func call(arguments: GeneratedContent) async throws -> GeneratedContent {
        guard let execute else { return ["status": "done"] }
        return try execute(name, arguments)
    }

    /// The schema with only the keywords of Trailhead's subset: BFCL's function documents carry
    /// a few of their own (`optional` on a member, say) that mean nothing to a validator.
    static func subset(_ schema: GeneratedContent) -> GeneratedContent {
        GenerationSchema.rewritingEachSchema(schema) { object in
            var kept = JSONObject(object.filter { GenerationSchema.supportedKeywords.contains($0.key) }.map { ($0.key, $0.value) })
            if let required = kept["required"] {
                // Only members the schema has: BFCL lists a few it never declares.
                let declared = object["properties"]?.objectValue
                kept["required"] = .array((required.arrayValue ?? []).filter { declared?[$0.stringValue ?? ""] != nil })
            }
            return kept
        }
    }
}
