import Synchronization
import TrailheadModels
import TrailheadSchema

extension LanguageModelSession {
    /// A response as it is generated: snapshots of the partially generated answer (members
    /// appear as they arrive, strings grow, arrays gain items), the last one the whole answer;
    /// `content` reads them through the answer type's own members (`Partial`). Turns that call tools produce no snapshots. `collect()` waits for the response.
    public struct ResponseStream<Content: Generable & Sendable>: AsyncSequence, Sendable where Content.PartiallyGenerated: Sendable {
        public struct Snapshot: Sendable {
            public var content: Content.PartiallyGenerated
            public var rawContent: GeneratedContent
            /// What the response has taken so far (Foundation Models 27's `usage`): the turns before
            /// this one, and this one's as far as the model has reported it; the last snapshot's is
            /// the response's.
            public var usage: Usage
        }

        private let snapshots: AsyncThrowingStream<Snapshot, any Error>
        private let response: Task<Response<Content>, any Error>

        init(snapshots: AsyncThrowingStream<Snapshot, any Error>, response: Task<Response<Content>, any Error>) {
            self.snapshots = snapshots
            self.response = response
        }

        public func makeAsyncIterator() -> AsyncThrowingStream<Snapshot, any Error>.AsyncIterator {
            snapshots.makeAsyncIterator()
        }

        /// Stops the generation: the session records a cancellation, and `collect()` throws
        /// `CancellationError` once it has. Cancelling the task that reads the stream does the
        /// same, but only once that task next waits on it.
        public func cancel() { response.cancel() }

        /// The whole response, once generated (snapshots not yet read are skipped).
        public func collect() async throws -> Response<Content> {
            try await withTaskCancellationHandler {
                try await response.value
            } onCancel: {
                response.cancel()
            }
        }
    }

    /// Streams the answer to `prompt` as a value of `type` (see `respond(to:generating:…)`).
    public func streamResponse<Content: Generable & Sendable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, schema: GenerationSchema? = nil,
        includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(), prefetching: [ToolCallRequest] = []
    ) -> ResponseStream<Content> where Content.PartiallyGenerated: Sendable {
        stream(prompt, answer: .schema(schema ?? Content.generationSchema), includeSchemaInPrompt: includeSchemaInPrompt, options: options,
               prefetch: prefetching) { try Self.decode(Content.self, from: $0) }
    }

    /// `streamResponse(to:generating:…)` with the prompt written in a builder.
    public func streamResponse<Content: Generable & Sendable>(
        generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptTextBuilder prompt: () throws -> [PromptPiece]
    ) rethrows -> ResponseStream<Content> where Content.PartiallyGenerated: Sendable {
        streamResponse(to: try Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams a text answer: each snapshot holds the text so far.
    public func streamResponse(to prompt: Prompt, options: GenerationOptions = GenerationOptions()) -> ResponseStream<String> {
        stream(prompt, answer: .text, includeSchemaInPrompt: false, options: options, prefetch: []) {
            $0.stringValue ?? $0.jsonString
        }
    }

    private func stream<Content: Generable & Sendable>(
        _ prompt: Prompt, answer: AnswerForm, includeSchemaInPrompt: Bool, options: GenerationOptions, prefetch: [ToolCallRequest],
        decode: @escaping @Sendable (GeneratedContent) throws -> Content
    ) -> ResponseStream<Content> where Content.PartiallyGenerated: Sendable {
        let (snapshots, continuation) = AsyncThrowingStream.makeStream(of: ResponseStream<Content>.Snapshot.self)
        let parser = SnapshotParser(wrapped: !toolNames.isEmpty, text: { if case .text = answer { return toolNames.isEmpty } else { return false } }())
        let spent = Mutex(Usage())
        let task = Task {
            do {
                let outcome = try await perform(prompt, answer: answer, includeSchemaInPrompt: includeSchemaInPrompt, options: options, prefetch: prefetch) { event in
                    if case .usage(let usage) = event { spent.withLock { $0 = usage } }
                    // A member that cannot decode yet (an enum cut mid-word) is nil in its
                    // snapshot; the snapshot itself is never dropped for it.
                    guard case .text(let turn, let delta) = event, let partial = parser.append(turn: turn, delta),
                        let content = Content.partiallyGenerated(from: partial)
                    else { return }
                    continuation.yield(.init(content: content, rawContent: partial, usage: spent.withLock { $0 }))
                }
                let value = try decode(outcome.content)
                if let content = Content.partiallyGenerated(from: outcome.content) {
                    continuation.yield(.init(content: content, rawContent: outcome.content, usage: outcome.usage))
                }
                continuation.finish()
                return Self.response(outcome, content: value)
            } catch {
                continuation.finish(throwing: error)
                throw error
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return ResponseStream(snapshots: snapshots, response: task)
    }
}

/// Turns the text of a response's turns into snapshots of its answer: a partial JSON parse per
/// turn, keeping only turns that are (so far) the final answer. Linear in the text.
final class SnapshotParser: Sendable {
    private struct State {
        var turn = 0
        var parser = PartialJSONParser()
        var text = ""
        var failed = false
    }

    /// The answer is `{"answer": …}` (a session with tools); `text`: the answer is free text.
    private let wrapped: Bool
    private let text: Bool
    private let state = Mutex(State())

    init(wrapped: Bool, text: Bool) {
        self.wrapped = wrapped
        self.text = text
    }

    /// The answer so far after `delta` of `turn`, or nil when this turn is not the answer (yet).
    func append(turn: Int, _ delta: String) -> GeneratedContent? {
        state.withLock { state in
            if turn != state.turn { state = State(turn: turn) }
            if text {
                state.text += delta
                return .string(state.text)
            }
            guard !state.failed else { return nil }
            do { try state.parser.append(delta) } catch {
                state.failed = true
                return nil
            }
            guard let snapshot = state.parser.snapshot() else { return nil }
            return wrapped ? snapshot[StepSchema.keys.final] : snapshot
        }
    }
}
