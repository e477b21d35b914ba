import Foundation
import TrailheadSchema

/// `POST /v1/responses`'s body, decoded once (OpenAI's names; what Trailhead does not use is ignored).
struct ResponsesRequest: Decodable, Sendable {
    var model: String
    var input: Input
    var instructions: String?
    var tools: [Tool]?
    var toolChoice: ToolChoice?
    var parallelToolCalls: Bool?
    var previousResponseID: String?
    var stream: Bool?
    /// Run it in the background: answered at once (`queued`), fetched later by id.
    var background: Bool?
    var maxOutputTokens: Int?
    var temperature: Double?
    var topP: Double?
    var seed: Int?
    var text: TextOptions?

    enum CodingKeys: String, CodingKey {
        case model, input, instructions, tools, stream, temperature, seed, text, background
        case toolChoice = "tool_choice", parallelToolCalls = "parallel_tool_calls", previousResponseID = "previous_response_id"
        case maxOutputTokens = "max_output_tokens", topP = "top_p"
    }

    /// `input`: text, or items (messages, `function_call`, `function_call_output`).
    enum Input: Decodable, Sendable {
        case text(String)
        case items([Item])

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if let text = try? single.decode(String.self) {
                self = .text(text)
                return
            }
            guard (try? single.decode([GeneratedContent].self)) != nil else { throw decoder.invalid("expected text or an array of input items") }
            self = .items(try single.decode([Item].self))
        }
    }

    struct Item: Decodable, Sendable {
        enum Kind: Sendable {
            case message(role: String, text: String)
            case functionCall(callID: String, name: String, arguments: String)
            case functionCallOutput(callID: String, output: String)
        }
        var kind: Kind

        enum CodingKeys: String, CodingKey {
            case type, role, content, name, arguments, output
            case callID = "call_id"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let type = try container.decodeIfPresent(String.self, forKey: .type) ?? "message"
            switch type {
            case "message":
                let role = try container.decode(String.self, forKey: .role)
                guard ["user", "system", "developer", "assistant"].contains(role) else {
                    throw DecodingError.dataCorruptedError(forKey: .role, in: container, debugDescription: "'\(role)' is not user, system, developer or assistant")
                }
                kind = .message(role: role, text: try container.decode(MessageText.self, forKey: .content).text)
            case "function_call":
                kind = .functionCall(
                    callID: try container.decode(String.self, forKey: .callID), name: try container.decode(String.self, forKey: .name),
                    arguments: try container.decode(String.self, forKey: .arguments))
            case "function_call_output":
                let output: String
                if let text = try? container.decode(String.self, forKey: .output) { output = text } else {
                    output = try container.decode(MessageText.self, forKey: .output).text
                }
                kind = .functionCallOutput(callID: try container.decode(String.self, forKey: .callID), output: output)
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container, debugDescription: "'\(type)' items are not served: message, function_call or function_call_output")
            }
        }
    }

    /// `{"type": "function", "name", "description", "parameters"}`.
    struct Tool: Decodable, Sendable {
        var type: String
        var name: String?
        var description: String?
        var parameters: GeneratedContent?
    }

    /// `text.format`: `{"type": "text"}`, or `{"type": "json_schema", "name", "schema"}`.
    struct TextOptions: Decodable, Sendable {
        struct Format: Decodable, Sendable {
            var type: String
            var schema: GeneratedContent?
        }
        var format: Format?
    }

    /// The answer's schema `text.format` asks for (nil for text).
    func answerSchema() throws(InvalidRequest) -> GenerationSchema? {
        guard let format = text?.format else { return nil }
        switch format.type {
        case "text": return nil
        case "json_object": return try? GenerationSchema(json: ["type": "object"])
        case "json_schema":
            guard let schema = format.schema else { throw InvalidRequest("json_schema needs a schema", param: "text.format.schema") }
            do { return try GenerationSchema(json: schema) } catch { throw InvalidRequest("\(error)", param: "text.format.schema") }
        default:
            throw InvalidRequest("'\(format.type)' is not text, json_object or json_schema", param: "text.format.type")
        }
    }

    func functions() throws(InvalidRequest) -> [FunctionSpec] {
        var specs: [FunctionSpec] = []
        for (index, tool) in (tools ?? []).enumerated() {
            guard tool.type == "function" else { throw InvalidRequest("'\(tool.type)' tools are not served: only \"function\"", param: "tools[\(index)].type") }
            guard let name = tool.name else { throw InvalidRequest("is required", param: "tools[\(index)].name") }
            specs.append(FunctionSpec(name: name, description: tool.description, parameters: tool.parameters))
        }
        return specs
    }
}
