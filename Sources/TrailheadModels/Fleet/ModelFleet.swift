import Foundation
import Synchronization
import TrailheadSupport

/// Several model endpoints serving one agent as one model: the managed local server's slots,
/// other llama-servers, any OpenAI-compatible server (vLLM, a Ray Serve LLM app). A request goes
/// to a healthy endpoint with a free slot (the least busy one, in the listed order when tied),
/// and waits when every slot is taken. An endpoint that fails before any output is skipped — the
/// request goes on to the next one, as a hybrid falls back — and one that could not be reached
/// is left out for `cooldown` seconds. A failure after output has streamed is reported, not
/// retried (the client has seen text). Every final record names the endpoint that answered.
public final class ModelFleet: LanguageModel {
    public struct Member: Sendable {
        public var model: any LanguageModel
        /// Requests the endpoint decodes at once (its llama-server `-np`, a vLLM batch share).
        public var slots: Int
        public init(_ model: any LanguageModel, slots: Int) {
            self.model = model
            self.slots = max(1, slots)
        }
    }

    public let members: [Member]
    public let cooldown: Double

    private struct State {
        var busy: [Int]
        var downUntil: [Double]
        var waiters: [CheckedContinuation<Void, Never>] = []
        var served: [Int]
        var skipped: [Int]
    }

    private let state: Mutex<State>

    public init(_ members: [Member], cooldown: Double = 10) {
        self.members = members
        self.cooldown = cooldown
        state = Mutex(State(busy: members.map { _ in 0 }, downUntil: members.map { _ in 0 }, served: members.map { _ in 0 }, skipped: members.map { _ in 0 }))
    }

    public var id: String { "fleet(\(members.map(\.model.id).joined(separator: ", ")))" }

    /// Requests each endpoint answered, and failures that sent a request on to another.
    public var counts: (served: [Int], skipped: [Int]) { state.withLock { ($0.served, $0.skipped) } }

    public var availability: ModelAvailability {
        get async {
            var first: ModelAvailability?
            for member in members {
                let availability = await member.model.availability
                if availability.isAvailable { return availability }
                first = first ?? availability
            }
            return first ?? .unavailable(.notConfigured(detail: "a fleet with no endpoints", fix: "list at least one model"))
        }
    }

    public func prewarm(prefix: [ChatMessage]) async throws {
        for member in members where await member.model.availability.isAvailable { try? await member.model.prewarm(prefix: prefix) }
    }

    public func countTokens(_ text: String) async throws -> Int? {
        for member in members where await member.model.availability.isAvailable { return try await member.model.countTokens(text) }
        return nil
    }

    public func generate(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        .producing { continuation in try await self.run(request, continuation) }
    }

    private func run(_ request: ModelRequest, _ continuation: AsyncThrowingStream<ModelEvent, any Error>.Continuation) async throws {
        var tried: Set<Int> = []
        var failures: [String] = []
        while true {
            guard let index = try await acquire(excluding: tried) else {
                throw ModelError.unavailable(
                    model: id, reason: .unreachable(endpoint: id, detail: failures.isEmpty ? "every endpoint is down" : failures.joined(separator: "; ")))
            }
            tried.insert(index)
            var produced = false
            do {
                defer { release(index) }
                for try await event in members[index].model.generate(request) {
                    switch event {
                    case .text: produced = true
                    // Counted before the consumer sees the end (it may look at the counts at once).
                    case .completed: state.withLock { $0.served[index] += 1 }
                    }
                    continuation.yield(event)
                }
                return
            } catch {
                if error is CancellationError || Task.isCancelled || produced { throw error }
                failures.append("\(members[index].model.id): \(error)")
                state.withLock { state in
                    state.skipped[index] += 1
                    if Self.isUnreachable(error) { state.downUntil[index] = monotonicSeconds() + cooldown }
                }
            }
        }
    }

    static func isUnreachable(_ error: any Error) -> Bool {
        switch error as? ModelError {
        case .connection?, .unavailable?, .timedOut?, .localServer?: true
        case .httpStatus(_, let status, _)?: status >= 500
        default: false
        }
    }

    /// A slot of the least busy healthy endpoint not yet tried, waiting while all are taken;
    /// nil when none is left to try.
    private func acquire(excluding tried: Set<Int>) async throws -> Int? {
        while true {
            try Task.checkCancellation()
            enum Pick { case member(Int), wait, none }
            let pick: Pick = state.withLock { state in
                let now = monotonicSeconds()
                let candidates = members.indices.filter { !tried.contains($0) }
                guard !candidates.isEmpty else { return .none }
                let healthy = candidates.filter { state.downUntil[$0] <= now }
                // When every endpoint left is cooling down, try them anyway rather than fail.
                let pool = healthy.isEmpty ? candidates : healthy
                let free = pool.filter { state.busy[$0] < members[$0].slots }
                guard let best = free.min(by: { Double(state.busy[$0]) / Double(members[$0].slots) < Double(state.busy[$1]) / Double(members[$1].slots) }) else {
                    return .wait
                }
                state.busy[best] += 1
                return .member(best)
            }
            switch pick {
            case .member(let index): return index
            case .none: return nil
            case .wait:
                await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                    // Registered under the lock, so a slot freed between the pick and here still wakes it.
                    let resumeNow = state.withLock { state -> Bool in
                        let free = members.indices.contains { !tried.contains($0) && state.busy[$0] < members[$0].slots }
                        if !free { state.waiters.append(waiter) }
                        return free
                    }
                    if resumeNow { waiter.resume() }
                }
            }
        }
    }

    private func release(_ index: Int) {
        let waiters = state.withLock { state in
            state.busy[index] -= 1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
