import TrailheadSchema

/// Folds the `data:` payloads of a streamed chat completion into text deltas and a final record.
struct ChatCompletionStreamAccumulator {
    private(set) var text = ""
    private(set) var finishReason: String?
    private(set) var usage: TokenUsage?
    private(set) var serverPromptSeconds: Double?
    private(set) var serverGenerationSeconds: Double?
    private(set) var servedBy: String?
    private(set) var sawDone = false
    private(set) var chunkCount = 0

    /// Consumes one event's data; returns the new text, if any. A payload that is not a chunk
    /// (not JSON, an error object) throws a message naming what arrived.
    mutating func consume(_ data: String) throws(ChatStreamError) -> String? {
        if data == "[DONE]" {
            sawDone = true
            return nil
        }
        let chunk: GeneratedContent
        do { chunk = try GeneratedContent(json: data) } catch {
            throw .malformed("an event is not JSON (\(error)): \(data.prefix(120))")
        }
        guard case .object(let object) = chunk else { throw .malformed("an event is not a JSON object: \(data.prefix(120))") }
        if let error = object["error"] {
            let message = error["message"]?.stringValue ?? error.stringValue ?? error.jsonString
            throw .server(message)
        }
        chunkCount += 1
        if let model = object["model"]?.stringValue { servedBy = model }
        if case .object(let u)? = object["usage"] {
            usage = TokenUsage(
                promptTokens: u["prompt_tokens"]?.intValue ?? 0,
                completionTokens: u["completion_tokens"]?.intValue ?? 0,
                cachedPromptTokens: u["prompt_tokens_details"]?["cached_tokens"]?.intValue ?? usage?.cachedPromptTokens)
        }
        if case .object(let t)? = object["timings"] {
            if let ms = t["prompt_ms"]?.doubleValue { serverPromptSeconds = ms / 1000 }
            if let ms = t["predicted_ms"]?.doubleValue { serverGenerationSeconds = ms / 1000 }
            if let cached = t["cache_n"]?.intValue {
                var u = usage ?? TokenUsage(
                    promptTokens: t["prompt_n"]?.intValue ?? 0, completionTokens: t["predicted_n"]?.intValue ?? 0)
                u.cachedPromptTokens = cached
                usage = u
            }
        }
        guard case .array(let choices)? = object["choices"] else {
            if object["usage"] != nil || object["timings"] != nil { return nil }
            throw .malformed("an event has no 'choices': \(data.prefix(120))")
        }
        guard let choice = choices.first else { return nil }
        if let reason = choice["finish_reason"]?.stringValue { finishReason = reason }
        if let delta = choice["delta"]?["content"]?.stringValue, !delta.isEmpty {
            text += delta
            return delta
        }
        return nil
    }
}

/// A problem in the event stream itself.
enum ChatStreamError: Error {
    case malformed(String)
    case server(String)
}
