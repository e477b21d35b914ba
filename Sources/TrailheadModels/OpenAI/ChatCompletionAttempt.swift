import Foundation
import TrailheadSchema
import TrailheadSupport

/// One attempt at a streamed chat completion: sends the request, turns the event stream into
/// text deltas, and ends with the final record. Failures before any text was delivered are
/// `RetryableFailure` when another attempt may help (refused connection, 429, 5xx).
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

        do {
            for try await event in HTTPStreamingCall.start(request, timeouts: model.timeouts) {
                switch event {
                case .head(let s, let headers):
                    status = s
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
                    }
                    if parser.overflowed {
                        throw ModelError.protocolViolation(model: model.id, message: "an event larger than \(parser.maximumEventBytes >> 20) MiB in the stream")
                    }
                }
            }
        } catch let error as HTTPTransportError {
            if case .refused = error, accumulator.text.isEmpty {
                throw RetryableFailure(error: model.map(transport: error) as! ModelError, retryAfter: nil)
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
            let body = model.redact(String(decoding: errorBody, as: UTF8.self))
            let error = ModelError.httpStatus(model: model.id, status: status, body: body)
            if RetryPolicy.isRetryable(status: status) { throw RetryableFailure(error: error, retryAfter: nil) }
            throw error
        }
        if !isEventStream { return try completion(fromPlainBody: plainBody) }
        for payload in parser.finish() {
            if let delta = try consume(payload, &accumulator) { continuation.yield(.text(delta)) }
        }
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
            finishReason: accumulator.finishReason)
    }

    private func consume(_ payload: String, _ accumulator: inout ChatCompletionStreamAccumulator) throws(ModelError) -> String? {
        do { return try accumulator.consume(payload) } catch {
            switch error {
            case .malformed(let m): throw .protocolViolation(model: model.id, message: m)
            case .server(let m): throw .httpStatus(model: model.id, status: 200, body: model.redact(m))
            }
        }
    }

    /// A server that ignored `stream: true` and answered with one JSON completion.
    private func completion(fromPlainBody body: [UInt8]) throws(ModelError) -> ModelResponse {
        let answer: GeneratedContent
        do { answer = try GeneratedContent(json: body) } catch {
            throw .protocolViolation(model: model.id, message: "the response is neither an event stream nor JSON: \(error)")
        }
        guard let text = answer["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue else {
            throw .protocolViolation(model: model.id, message: "the JSON response has no choices[0].message.content")
        }
        continuation.yield(.text(text))
        let usage = answer["usage"].map {
            TokenUsage(promptTokens: $0["prompt_tokens"]?.intValue ?? 0, completionTokens: $0["completion_tokens"]?.intValue ?? 0)
        }
        return ModelResponse(
            text: text, modelID: model.id, usage: usage,
            timings: ModelTimings(timeToFirstToken: monotonicSeconds() - started, total: monotonicSeconds() - started),
            finishReason: answer["choices"]?.arrayValue?.first?["finish_reason"]?.stringValue)
    }
}
