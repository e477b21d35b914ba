import TrailheadAgent
import TrailheadSchema

/// A function a client offers in its request (OpenAI's `tools`): the session's step schema offers
/// it, validated against its parameters like any tool, but Trailhead does not run it — the
/// response ends at the first turn that calls it, and the client sends the result back
/// (`role: "tool"`, `function_call_output`).
struct ClientTool: Tool {
    typealias Arguments = GeneratedContent
    typealias Output = GeneratedContent

    let name: String
    let description: String
    let parameters: GenerationSchema

    /// What the transcript records as the output of a call the client runs (the response ends
    /// before anything reads it).
    static let pending: GeneratedContent = ["pending": "the client runs this call"]

    func call(arguments: GeneratedContent) async throws -> GeneratedContent { Self.pending }
}

/// The functions of one request, checked (names, schemas), and how many calls a turn may make.
struct ClientTools: Sendable {
    var tools: [ClientTool]
    /// `parallel_tool_calls` (OpenAI's default: true).
    var parallelCalls: Bool

    var names: Set<String> { Set(tools.map(\.name)) }
    var isEmpty: Bool { tools.isEmpty }

    static let none = ClientTools(tools: [], parallelCalls: true)

    /// `param` is where the list is in the request (`tools`), for errors.
    init(_ specs: [FunctionSpec], parallelCalls: Bool?, param: String, nameParam: String = "function.name", parametersParam: String = "function.parameters") throws(InvalidRequest) {
        var tools: [ClientTool] = []
        for (index, spec) in specs.enumerated() {
            guard spec.name.range(of: #"^[A-Za-z0-9_.-]{1,64}$"#, options: .regularExpression) != nil else {
                throw InvalidRequest("'\(spec.name.prefix(80))' is not a function name (letters, digits, '_', '.', '-'; 1–64)", param: "\(param)[\(index)].\(nameParam)")
            }
            guard !tools.contains(where: { $0.name == spec.name }) else {
                throw InvalidRequest("'\(spec.name)' is offered twice", param: "\(param)[\(index)].\(nameParam)")
            }
            let schema: GenerationSchema
            // The session closes every object that lists its properties (`ClosedArguments`), as
            // OpenAI's strict mode does; the arguments still validate against the client's schema.
            // Keywords that are not JSON Schema's are annotations, as OpenAI's API takes them.
            let parameters = spec.parameters ?? ["type": "object", "properties": [:]]
            do { schema = try GenerationSchema(json: parameters, unknownKeywords: .annotations) } catch {
                throw InvalidRequest("\(error)", param: "\(param)[\(index)].\(parametersParam)")
            }
            tools.append(ClientTool(name: spec.name, description: spec.description ?? "", parameters: schema))
        }
        self.init(tools: tools, parallelCalls: parallelCalls ?? true)
    }

    init(tools: [ClientTool], parallelCalls: Bool) {
        self.tools = tools
        self.parallelCalls = parallelCalls
    }
}

/// A call the model made that the client is to run: OpenAI's `call_…` id, the function, its
/// arguments (valid against the function's parameters).
struct ClientCall: Sendable, Equatable {
    var id: String
    var name: String
    var arguments: GeneratedContent

    /// The arguments as OpenAI sends them: JSON text.
    var argumentsText: String { arguments.jsonString }

    /// `call_<session>_<n>` for the session's transcript call `call-<n>`: unique per server, and
    /// the stored call is found again from it (`previous_response_id` with its output).
    static func id(session: String, transcriptID: String) -> String {
        "call_\(session)_\(transcriptID.split(separator: "-").last.map(String.init) ?? transcriptID)"
    }
}
