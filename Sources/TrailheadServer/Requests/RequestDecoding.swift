import Foundation
import TrailheadSchema

/// A request body that cannot be used, with the field at fault in OpenAI's terms
/// (`messages[2].tool_call_id`): a 400 `invalid_request_error` whose `param` names it.
struct InvalidRequest: Error, Sendable, CustomStringConvertible {
    var message: String
    var param: String?

    init(_ message: String, param: String? = nil) {
        self.message = message
        self.param = param
    }

    var description: String { param.map { "\($0): \(message)" } ?? message }

    /// Decodes a request body into its Codable type from Trailhead's own parse, which keeps each
    /// object's keys in the order sent (Foundation's `JSONDecoder` sorts them): a function's
    /// parameters and an answer's schema are generated in the order the client wrote them, as
    /// OpenAI does. Every failure names the field.
    static func decode<Request: Decodable>(_ type: Request.Type, from body: Data) throws(InvalidRequest) -> Request {
        try decode(type, from: parse(body))
    }

    /// A request body as Trailhead parses it (each object's keys in the order sent).
    static func parse(_ body: Data) throws(InvalidRequest) -> GeneratedContent {
        do { return try GeneratedContent(json: body) } catch {
            throw InvalidRequest("the body is not JSON: \(error)")
        }
    }

    /// A parsed request body as its Codable type; every failure names the field.
    static func decode<Request: Decodable>(_ type: Request.Type, from content: GeneratedContent) throws(InvalidRequest) -> Request {
        do { return try GeneratedContentDecoder().decode(type, from: content) } catch let error as DecodingError {
            throw InvalidRequest(error)
        } catch let error as InvalidRequest {
            throw error
        } catch {
            throw InvalidRequest("\(error)")
        }
    }

    init(_ error: DecodingError) {
        func path(_ keys: [any CodingKey]) -> String? {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
            return text.isEmpty ? nil : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context.codingPath)
            self.init("is required", param: parent.map { "\($0).\(key.stringValue)" } ?? key.stringValue)
        case .typeMismatch(let type, let context):
            self.init("expected \(Self.name(of: type))", param: path(context.codingPath))
        case .valueNotFound(let type, let context):
            self.init("expected \(Self.name(of: type)), not null", param: path(context.codingPath))
        case .dataCorrupted(let context):
            self.init(context.debugDescription, param: path(context.codingPath))
        @unknown default:
            self.init("\(error)")
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "\(type)".hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// A field that holds one of several JSON shapes fails with a message that says which.
extension Decoder {
    func invalid(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
    }
}

/// A message's content: a string, or parts (`{"type": "text", "text": …}`; other parts are refused).
struct MessageText: Decodable, Sendable {
    var text: String

    private struct Part: Decodable {
        var type: String
        var text: String?
    }

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let text = try? single.decode(String.self) {
            self.text = text
            return
        }
        guard let parts = try? single.decode([Part].self) else { throw decoder.invalid("expected a string or an array of text parts") }
        var texts: [String] = []
        for (index, part) in parts.enumerated() {
            guard ["text", "input_text", "output_text"].contains(part.type), let text = part.text else {
                throw decoder.invalid("part \(index) is of type '\(part.type)': only text parts are served")
            }
            texts.append(text)
        }
        text = texts.joined(separator: "\n")
    }
}

/// A function the client offers (`{"type": "function", "function": {name, description, parameters}}`
/// in chat completions, the same members flat in the Responses API).
struct FunctionSpec: Sendable {
    var name: String
    var description: String?
    var parameters: GeneratedContent?
}

/// `tool_choice`: `auto`, `required`, `none`, or one function by name.
enum ToolChoice: Decodable, Sendable, Equatable {
    case auto, required, none
    case function(String)

    private struct Named: Decodable {
        struct Function: Decodable { var name: String }
        var type: String
        var function: Function?
        var name: String?
    }

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let word = try? single.decode(String.self) {
            switch word {
            case "auto": self = .auto
            case "required": self = .required
            case "none": self = .none
            default: throw decoder.invalid("'\(word)' is not auto, required, none or {\"type\": \"function\", \"function\": {\"name\": …}}")
            }
            return
        }
        guard let named = try? single.decode(Named.self), named.type == "function", let name = named.function?.name ?? named.name else {
            throw decoder.invalid("expected auto, required, none or {\"type\": \"function\", \"function\": {\"name\": …}}")
        }
        self = .function(name)
    }
}
