import Foundation
import TrailheadSchema

/// `POST /v1/chat/completions`'s body, decoded once (OpenAI's names; what Trailhead does not use,
/// such as `n` or `logprobs`, is ignored as other compatible servers do).
struct ChatCompletionRequest: Decodable, Sendable {
    var model: String
    var messages: [Message]
    var tools: [Tool]?
    var toolChoice: ToolChoice?
    var parallelToolCalls: Bool?
    var responseFormat: ResponseFormat?
    var stream: Bool?
    var streamOptions: StreamOptions?
    var maxTokens: Int?
    var maxCompletionTokens: Int?
    var temperature: Double?
    var topP: Double?
    var seed: Int?
    /// Trailhead's own: the server's plugins (or single tools) a plain-model request may call,
    /// run here like an agent's (the web app's playground sends them).
    var plugins: [String]?

    enum CodingKeys: String, CodingKey {
        case model, messages, tools, stream, temperature, seed, plugins
        case toolChoice = "tool_choice", parallelToolCalls = "parallel_tool_calls", responseFormat = "response_format"
        case streamOptions = "stream_options", maxTokens = "max_tokens", maxCompletionTokens = "max_completion_tokens", topP = "top_p"
    }

    struct Message: Decodable, Sendable {
        enum Role: String, Decodable, Sendable { case system, developer, user, assistant, tool }
        var role: Role
        var content: MessageText?
        var toolCalls: [ToolCall]?
        var toolCallID: String?

        enum CodingKeys: String, CodingKey {
            case role, content
            case toolCalls = "tool_calls", toolCallID = "tool_call_id"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let word = try container.decode(String.self, forKey: .role)
            guard let role = Role(rawValue: word) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .role, in: container, debugDescription: "'\(word)' is not system, developer, user, assistant or tool")
            }
            self.role = role
            content = try container.decodeIfPresent(MessageText.self, forKey: .content)
            toolCalls = try container.decodeIfPresent([ToolCall].self, forKey: .toolCalls)
            toolCallID = try container.decodeIfPresent(String.self, forKey: .toolCallID)
        }
    }

    /// A call an assistant message made (`{"id", "type": "function", "function": {"name", "arguments"}}`).
    struct ToolCall: Decodable, Sendable {
        struct Function: Decodable, Sendable {
            var name: String
            /// JSON text, as OpenAI sends it.
            var arguments: String
        }
        var id: String
        var function: Function
    }

    struct Tool: Decodable, Sendable {
        struct Function: Decodable, Sendable {
            var name: String
            var description: String?
            var parameters: GeneratedContent?
        }
        var type: String
        var function: Function
    }

    struct ResponseFormat: Decodable, Sendable {
        struct JSONSchema: Decodable, Sendable {
            var name: String?
            var schema: GeneratedContent?
        }
        var type: String
        var jsonSchema: JSONSchema?
        enum CodingKeys: String, CodingKey { case type, jsonSchema = "json_schema" }
    }

    struct StreamOptions: Decodable, Sendable {
        var includeUsage: Bool?
        /// Trailhead's own: each snapshot of a JSON answer whole, as it is written (the web app
        /// draws the itinerary from them), beside the text deltas.
        var includeSnapshots: Bool?
        enum CodingKeys: String, CodingKey { case includeUsage = "include_usage", includeSnapshots = "include_snapshots" }
    }

    /// The functions offered, with their place in the request for errors.
    func functions() throws(InvalidRequest) -> [FunctionSpec] {
        var specs: [FunctionSpec] = []
        for (index, tool) in (tools ?? []).enumerated() {
            guard tool.type == "function" else {
                throw InvalidRequest("'\(tool.type)' tools are not served: only \"function\"", param: "tools[\(index)].type")
            }
            specs.append(FunctionSpec(name: tool.function.name, description: tool.function.description, parameters: tool.function.parameters))
        }
        return specs
    }

    /// The answer's schema `response_format` asks for (nil for text).
    func answerSchema() throws(InvalidRequest) -> GenerationSchema? {
        guard let format = responseFormat else { return nil }
        switch format.type {
        case "text": return nil
        case "json_object": return try? GenerationSchema(json: ["type": "object"])
        case "json_schema":
            guard let schema = format.jsonSchema?.schema else {
                throw InvalidRequest("json_schema needs a schema", param: "response_format.json_schema.schema")
            }
            do { return try GenerationSchema(json: schema) } catch {
                throw InvalidRequest("\(error)", param: "response_format.json_schema.schema")
            }
        default:
            throw InvalidRequest("'\(format.type)' is not text, json_object or json_schema", param: "response_format.type")
        }
    }
}
