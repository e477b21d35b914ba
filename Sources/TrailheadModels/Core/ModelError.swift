/// Why a generation failed, where Foundation Models has no name for it (those it names —
/// a context too small, a rate limit, a timeout, a refusal — are `LanguageModelError`s). Every
/// case names the model; none carries secrets.
public enum ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model cannot be used now; the reason says what to do.
    case unavailable(model: String, reason: UnavailableReason)
    /// The server could not be reached or the connection broke (after any retries).
    case connection(model: String, message: String)
    /// The server answered with an HTTP error status.
    case httpStatus(model: String, status: Int, body: String)
    /// The server sent something that is not the protocol (garbage, a truncated stream).
    case protocolViolation(model: String, message: String)
    /// The output does not match the requested schema.
    case schemaMismatch(model: String, message: String)
    /// The output reached the request's token limit (`maxTokens`) before the JSON its schema asks
    /// for was complete; `text` is what came (an OpenAI-compatible server answers this with
    /// `finish_reason: "length"`).
    case outputTokenLimit(model: String, text: String)
    /// A scripted model ran out of outputs.
    case scriptExhausted(path: String, used: Int)
    /// A schema could not be turned into a grammar.
    case unsupportedSchema(message: String)
    /// Starting or talking to the managed local server failed.
    case localServer(message: String)

    public var description: String {
        switch self {
        case .unavailable(let model, let reason): "\(model): \(reason)"
        case .connection(let model, let message): "\(model): connection failed: \(message)"
        case .httpStatus(let model, let status, let body):
            "\(model): HTTP \(status)\(body.isEmpty ? "" : ": \(body.prefix(300))")"
        case .protocolViolation(let model, let message): "\(model): unexpected response: \(message)"
        case .schemaMismatch(let model, let message): "\(model): output does not match the schema: \(message)"
        case .outputTokenLimit(let model, let text):
            "\(model): the output reached the token limit before its JSON was complete: \(text.suffix(80))"
        case .scriptExhausted(let path, let used): "\(path): the script has no more outputs (all \(used) used)"
        case .unsupportedSchema(let message): "schema cannot be compiled to a grammar: \(message)"
        case .localServer(let message): "local model: \(message)"
        }
    }
}
