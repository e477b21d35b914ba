import Foundation
import TrailheadSchema

/// How an OpenAI-compatible server is told to constrain its output to a schema. Servers differ,
/// and sending one's field to another is ignored or refused, so each endpoint is probed once:
///
/// - llama.cpp's llama-server answers `GET /props` (its generation settings): a GBNF `grammar`
///   from our compiler (compact: no whitespace for the model to spend);
/// - vLLM answers `GET /version`; from 0.12 its constraint is `structured_outputs: {"json": …}`
///   (before, `guided_json`, gone in 0.12);
/// - anything else (OpenAI, Gemini's endpoint, Ollama): `response_format` with a `json_schema`.
public enum StructuredOutputDialect: Sendable, Equatable, CustomStringConvertible {
    case llamaCppGrammar
    case vllmStructuredOutputs
    case vllmGuidedJSON
    case responseFormat

    public var description: String {
        switch self {
        case .llamaCppGrammar: "llama.cpp grammar"
        case .vllmStructuredOutputs: "vLLM structured_outputs"
        case .vllmGuidedJSON: "vLLM guided_json"
        case .responseFormat: "response_format json_schema"
        }
    }

    /// The dialect of a vLLM server of `version` ("0.12.1", "0.11.0rc2").
    static func vllm(version: String) -> StructuredOutputDialect {
        let numbers = version.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard numbers.count == 2 else { return .vllmStructuredOutputs }
        return (numbers[0], numbers[1]) >= (0, 12) ? .vllmStructuredOutputs : .vllmGuidedJSON
    }

    /// What a request carries for `schema` in this dialect.
    func constraint(for schema: GenerationSchema, model: String) throws(ModelError) -> ChatCompletionRequestBody.Constraint {
        switch self {
        case .llamaCppGrammar:
            do { return .grammar(try GBNFGrammar(schema: schema).text) } catch { throw .unsupportedSchema(message: error.description) }
        case .vllmStructuredOutputs: return .field("structured_outputs", ["json": schema.json])
        case .vllmGuidedJSON: return .field("guided_json", schema.json)
        case .responseFormat: return .responseFormat(schema.json)
        }
    }
}
