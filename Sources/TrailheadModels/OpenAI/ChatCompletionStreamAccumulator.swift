import TrailheadSchema

/// Folds the `data:` payloads of a streamed chat completion into text deltas and a final record,
/// keeping what the chunks say about the generation besides its text: the usage (the last chunk's
/// `usage` when `stream_options.include_usage` is set; llama.cpp's `timings`), the metadata (`id`,
/// `model`, `system_fingerprint`, `timings`) and a refusal (`delta.refusal`).
struct ChatCompletionStreamAccumulator {
    private(set) var text = ""
    private(set) var finishReason: String?
    private(set) var usage: TokenUsage?
    private(set) var metadata: [String: GeneratedContent] = [:]
    /// What the model said instead of answering (OpenAI's `refusal`), empty when it answered.
    private(set) var refusal = ""
    private(set) var serverPromptSeconds: Double?
    private(set) var serverGenerationSeconds: Double?
    private(set) var sawDone = false
    private(set) var chunkCount = 0

    /// The members of a chunk kept as metadata, when they are what the protocol says they are.
    static let metadataKeys = ["id", "model", "system_fingerprint"]

    /// Whether the model declined: it sent a refusal, or the server's filter ended the answer.
    var refused: Bool { !refusal.isEmpty || finishReason == "content_filter" }

    /// Consumes one event's data; returns the new text, if any. A payload that is not a chunk
    /// (not JSON, an error object) throws a message naming what arrived. Usage or timings with
    /// counts that are not counts (negative, fractional, strings) are ignored: they say nothing.
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
        for key in Self.metadataKeys { if let value = object[key]?.stringValue { metadata[key] = .string(value) } }
        if case .object(let u)? = object["usage"], let prompt = Self.count(u["prompt_tokens"]), let completion = Self.count(u["completion_tokens"]) {
            usage = TokenUsage(
                promptTokens: prompt, completionTokens: completion,
                cachedPromptTokens: Self.count(u["prompt_tokens_details"]?["cached_tokens"]) ?? usage?.cachedPromptTokens,
                reasoningTokens: Self.count(u["completion_tokens_details"]?["reasoning_tokens"]))
        }
        if case .object(let t)? = object["timings"] {
            metadata["timings"] = .object(t)
            if let ms = t["prompt_ms"]?.doubleValue { serverPromptSeconds = ms / 1000 }
            if let ms = t["predicted_ms"]?.doubleValue { serverGenerationSeconds = ms / 1000 }
            if let cached = Self.count(t["cache_n"]) {
                var u = usage ?? TokenUsage(promptTokens: Self.count(t["prompt_n"]) ?? 0, completionTokens: Self.count(t["predicted_n"]) ?? 0)
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
        if let refused = choice["delta"]?["refusal"]?.stringValue { refusal += refused }
        if let delta = choice["delta"]?["content"]?.stringValue, !delta.isEmpty {
            text += delta
            return delta
        }
        return nil
    }

    /// A token count: a whole number, not negative.
    static func count(_ value: GeneratedContent?) -> Int? {
        guard let count = value?.intValue, count >= 0 else { return nil }
        return count
    }
}

/// A problem in the event stream itself.
enum ChatStreamError: Error {
    case malformed(String)
    case server(String)
}
