extension LanguageModel {
    /// Throws `LanguageModelError.contextSizeExceeded` when `messages` leave no room for an answer in a
    /// context of `contextSize` tokens (llama-server's own rule: a prompt of `n_ctx` tokens or
    /// more is refused), never a server-side truncation the caller cannot see. Counts exactly only
    /// when the byte bound says it might not fit, so a short conversation costs no tokenizer round trip.
    public func checkFits(_ messages: [ChatMessage], contextSize: Int) async throws {
        let estimate = TokenEstimate(messages)
        guard estimate.upperBound >= contextSize else { return }
        let count = try await tokenCount(for: messages)
        if count >= contextSize { throw LanguageModelError.contextSizeExceeded(model: id, tokenCount: count, contextSize: contextSize) }
    }
}
