import Foundation
import TrailheadSchema
import TrailheadSupport

/// One attempt at a streamed chat completion: sends the request, turns the event stream into
/// text deltas (and usage and metadata updates as the chunks carry them), and ends with the final
/// record. Failures before any text was delivered are `RetryableFailure` when another attempt may
/// help (refused connection, 429, 5xx); a 429 is `LanguageModelError.rateLimited` with the date
/// its `Retry-After` names, a refusal `LanguageModelError.refusal`.
struct ChatCompletionAttempt {
    /// A response that is not an event stream is read whole, up to this many bytes.
    static let maximumBodyBytes = 16 << 20
    let model: OpenAICompatibleModel
    let started: Double
    let continuation: AsyncThrowingStream<ModelEvent, any Error>.Continuation

    func run(_ request: HTTPClient.Request) async throws -> ModelResponse {
        var parser = ServerSentEventParser()
        var accumulator = ChatCompletionStreamAccumulator()
        var firstToken: Double?
        var status = 0
        var isEventStream = true
        var errorBody: [UInt8] = []
        var plainBody: [UInt8] = []
        var retryAfter: String?
        var published = Published()

        do {
            for try await event in HTTPStreamingCall.start(request, timeouts: model.timeouts) {
                switch event {
                case .head(let s, let headers):
                    status = s
                    retryAfter = headers["retry-after"]
                    let type = headers["content-type"] ?? ""
                    isEventStream = !type.contains("application/json")
                    if RetryPolicy.isRetryable(status: s) || !(200..<300).contains(s) { continue }
                case .body(let data):
                    guard (200..<300).contains(status) else {
                        if errorBody.count < 4096 { errorBody += data }
                        continue
                    }
                    guard isEventStream else {
                        plainBody += data
                        if plainBody.count > Self.maximumBodyBytes {
                            throw ModelError.protocolViolation(model: model.id, message: "a response body larger than \(Self.maximumBodyBytes >> 20) MiB")
                        }
                        continue
                    }
                    for payload in parser.feed(data) {
                        if let delta = try consume(payload, &accumulator) {
                            if firstToken == nil { firstToken = monotonicSeconds() - started }
                            continuation.yield(.text(delta))
                        }
                        published.update(from: accumulator, continuation)
                    }
                    if parser.overflowed {
                        throw ModelError.protocolViolation(model: model.id, message: "an event larger than \(parser.maximumEventBytes >> 20) MiB in the stream")
                    }
                }
            }
        } catch let error as HTTPTransportError {
            if case .refused = error, accumulator.text.isEmpty {
                throw RetryableFailure(error: model.map(transport: error), retryAfter: nil)
            }
            if accumulator.chunkCount > 0, case .failed(let message) = error {
                throw ModelError.connection(
                    model: model.id,
                    message: "the stream broke after \(accumulator.text.count) characters: \(model.redact(message))")
            }
            throw model.map(transport: error)
        }
        try Task.checkCancellation()

        if !(200..<300).contains(status) {
            throw model.failure(status: status, body: String(decoding: errorBody, as: UTF8.self), retryAfter: retryAfter)
        }
        if !isEventStream { return try completion(fromPlainBody: plainBody) }
        for payload in parser.finish() {
            if let delta = try consume(payload, &accumulator) { continuation.yield(.text(delta)) }
            published.update(from: accumulator, continuation)
        }
        if accumulator.refused { throw LanguageModelError.refusal(model: model.id, explanation: accumulator.refusal) }
        if accumulator.chunkCount == 0 && !accumulator.sawDone {
            let seen = String(decoding: parser.ignoredPrefix.prefix(120), as: UTF8.self)
            throw ModelError.protocolViolation(
                model: model.id, message: "the response is not an event stream of chat chunks (got: \(seen.isEmpty ? "nothing" : seen))")
        }
        if !accumulator.sawDone && accumulator.finishReason == nil {
            throw ModelError.connection(
                model: model.id, message: "the stream ended before it was complete (after \(accumulator.text.count) characters)")
        }
        return ModelResponse(
            text: accumulator.text, modelID: model.id, usage: accumulator.usage,
            timings: ModelTimings(
                timeToFirstToken: firstToken, total: monotonicSeconds() - started,
                serverPromptSeconds: accumulator.serverPromptSeconds,
                serverGenerationSeconds: accumulator.serverGenerationSeconds),
            finishReason: accumulator.finishReason, metadata: accumulator.metadata)
    }

    /// What the consumer has been told of the usage and metadata: each is sent again only when
    /// a chunk changed it (every chunk repeats `id` and `model`).
    private struct Published {
        var usage: TokenUsage?
        var metadata: [String: GeneratedContent] = [:]

        mutating func update(
            from accumulator: ChatCompletionStreamAccumulator, _ continuation: AsyncThrowingStream<ModelEvent, any Error>.Continuation
        ) {
            if let usage = accumulator.usage, usage != self.usage {
                self.usage = usage
                continuation.yield(.usage(usage))
            }
            if accumulator.metadata != metadata {
                metadata = accumulator.metadata
                continuation.yield(.metadata(metadata))
            }
        }
    }

    private func consume(_ payload: String, _ accumulator: inout ChatCompletionStreamAccumulator) throws(ModelError) -> String? {
        do { return try accumulator.consume(payload) } catch {
            switch error {
            case .malformed(let m): throw .protocolViolation(model: model.id, message: m)
            case .server(let m): throw .httpStatus(model: model.id, status: 200, body: model.redact(m))
            }
        }
    }

    /// A server that ignored `stream: true` and answered with one JSON completion: read as the
    /// one chunk of a stream, its `message` in place of a `delta`.
    private func completion(fromPlainBody body: [UInt8]) throws -> ModelResponse {
        let answer: GeneratedContent
        do { answer = try GeneratedContent(json: body) } catch {
            throw ModelError.protocolViolation(model: model.id, message: "the response is neither an event stream nor JSON: \(error)")
        }
        let choice = answer["choices"]?.arrayValue?.first
        if let refusal = choice?["message"]?["refusal"]?.stringValue {
            throw LanguageModelError.refusal(model: model.id, explanation: refusal)
        }
        guard let text = choice?["message"]?["content"]?.stringValue else {
            throw ModelError.protocolViolation(model: model.id, message: "the JSON response has no choices[0].message.content")
        }
        var chunk = answer.objectValue ?? [:]
        chunk["choices"] = [["delta": ["content": .string(text)], "finish_reason": choice?["finish_reason"] ?? .null]]
        var accumulator = ChatCompletionStreamAccumulator()
        var published = Published()
        _ = try consume(GeneratedContent.object(chunk).jsonString, &accumulator)
        continuation.yield(.text(text))
        published.update(from: accumulator, continuation)
        if accumulator.refused { throw LanguageModelError.refusal(model: model.id, explanation: accumulator.refusal) }
        return ModelResponse(
            text: text, modelID: model.id, usage: accumulator.usage,
            timings: ModelTimings(timeToFirstToken: monotonicSeconds() - started, total: monotonicSeconds() - started),
            finishReason: accumulator.finishReason, metadata: accumulator.metadata)
    }
}
