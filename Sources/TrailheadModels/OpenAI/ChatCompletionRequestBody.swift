import TrailheadSchema

/// The JSON body of `POST /v1/chat/completions`.
///
/// Never uses the server's native `tools`/`tool_calls`: small local models fail with them in
/// multi-turn use, so tool calls travel as ordinary JSON output under a schema.
enum ChatCompletionRequestBody {
    enum Constraint {
        case none
        case grammar(String)
        case responseFormat(GeneratedContent)
        /// A member of the body of the server's own (vLLM's `structured_outputs`).
        case field(String, GeneratedContent)
    }

    static func make(
        messages: [ChatMessage], modelName: String?, options: GenerationOptions, constraint: Constraint,
        llamaCpp: Bool, stream: Bool = true, extra: [(String, GeneratedContent)] = []
    ) -> GeneratedContent {
        var body = JSONObject()
        if let modelName { body["model"] = .string(modelName) }
        body["messages"] = .array(
            messages.map { .object(["role": .string($0.role.rawValue), "content": .string($0.content)]) })
        body["stream"] = .bool(stream)
        if stream { body["stream_options"] = ["include_usage": true] }
        if let t = options.temperature { body["temperature"] = .number(t) }
        if let p = options.topP { body["top_p"] = .number(p) }
        if llamaCpp, let k = options.topK { body["top_k"] = .number(Double(k)) }
        if let s = options.seed { body["seed"] = .number(Double(s)) }
        if let m = options.maxTokens { body["max_tokens"] = .number(Double(m)) }
        switch constraint {
        case .none: break
        case .grammar(let gbnf): body["grammar"] = .string(gbnf)
        case .field(let name, let value): body[name] = value
        case .responseFormat(let schema):
            body["response_format"] = [
                "type": "json_schema",
                "json_schema": ["name": "output", "schema": schema, "strict": true],
            ]
        }
        // llama.cpp: keep the evaluated prompt in the slot so the next turn reuses the prefix.
        if llamaCpp { body["cache_prompt"] = true }
        for (key, value) in extra { body[key] = value }
        return .object(body)
    }
}
