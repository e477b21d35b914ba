import Foundation
import Synchronization
import TrailheadSupport

/// Several model endpoints serving one agent as one model: the managed local server's slots,
/// other llama-servers, any OpenAI-compatible server (vLLM, a Ray Serve LLM app). A request goes
/// to a healthy endpoint with a free slot (the least busy one, in the listed order when tied),
/// and waits when every slot is taken. An endpoint that fails before any output is skipped — the
/// request goes on to the next one, as a hybrid falls back — and one that could not be reached
/// is left out for `cooldown` seconds. A rate-limited endpoint (`LanguageModelError.rateLimited`)
/// is no failure: it is counted apart and left out until its reset date (`cooldown` seconds when
/// the server gave none); when every endpoint left is rate limited, the request fails with
/// `rateLimited` and the earliest reset date. A failure after output has streamed is reported,
/// not retried (the client has seen text). Every final record names the endpoint that answered.
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
        /// Until when (monotonic seconds) an endpoint that could not be reached is left out.
        var downUntil: [Double]
        /// Until when (monotonic seconds) a rate-limited endpoint is left out.
        var limitedUntil: [Double]
        var waiters: [CheckedContinuation<Void, Never>] = []
        var served: [Int]
        var skipped: [Int]
        var rateLimited: [Int]
    }

    private let state: Mutex<State>

    public init(_ members: [Member], cooldown: Double = 10) {
        self.members = members
        self.cooldown = cooldown
        let zeros = members.map { _ in 0 }
        let never = members.map { _ in 0.0 }
        state = Mutex(State(busy: zeros, downUntil: never, limitedUntil: never, served: zeros, skipped: zeros, rateLimited: zeros))
    }

    public var id: String { "fleet(\(members.map(\.model.id).joined(separator: ", ")))" }

    /// What any endpoint can do: a request goes only to endpoints that can serve it.
    public var capabilities: LanguageModelCapabilities {
        members.reduce(LanguageModelCapabilities([])) { $0.union($1.model.capabilities) }
    }

    /// Requests each endpoint answered, failures that sent a request on to another, and rate
    /// limits that did.
    public var counts: (served: [Int], skipped: [Int], rateLimited: [Int]) { state.withLock { ($0.served, $0.skipped, $0.rateLimited) } }

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
        // Endpoints that cannot serve the request count as tried from the start.
        var tried = Set(members.indices.filter { !members[$0].model.canServe(request) })
        if tried.count == members.count, let missing = request.requiredCapabilities.first(where: { !capabilities.contains($0) }) {
            throw LanguageModelError.unsupportedCapability(missing, model: id, capabilities: capabilities, need: "a request with a schema")
        }
        var failures: [String] = []
        // The rate limits this request met: when they are all its failures, the first to lift is its error.
        var limits: [LanguageModelError.RateLimited] = []
        while true {
            let index: Int
            switch try await acquire(excluding: tried) {
            case .member(let member): index = member
            case .limited(let until):
                let reset = Date().addingTimeInterval(max(0, until - monotonicSeconds()))
                let description = "\(id): every endpoint left is rate limited, the first until \(reset.formatted(.iso8601))"
                throw LanguageModelError.rateLimited(
                    LanguageModelError.RateLimited(resetDate: reset, debugDescription: description, metadata: ["model": id, "failures": failures]))
            case .exhausted:
                if failures.count == limits.count,
                    let first = limits.min(by: { ($0.resetDate ?? .distantFuture) < ($1.resetDate ?? .distantFuture) })
                {
                    throw LanguageModelError.rateLimited(first)
                }
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
                    case .usage, .metadata: break
                    // Counted before the consumer sees the end (it may look at the counts at once).
                    case .completed: state.withLock { $0.served[index] += 1 }
                    }
                    continuation.yield(event)
                }
                return
            } catch {
                if error is CancellationError || Task.isCancelled || produced { throw error }
                failures.append("\(members[index].model.id): \(error)")
                if let limit = error as? LanguageModelError, case .rateLimited(let info) = limit {
                    limits.append(info)
                    let wait = info.resetDate.map { max(0, $0.timeIntervalSinceNow) } ?? cooldown
                    state.withLock { state in
                        state.rateLimited[index] += 1
                        state.limitedUntil[index] = monotonicSeconds() + wait
                    }
                    continue
                }
                state.withLock { state in
                    state.skipped[index] += 1
                    if Self.isUnreachable(error) { state.downUntil[index] = monotonicSeconds() + cooldown }
                }
            }
        }
    }

    static func isUnreachable(_ error: any Error) -> Bool {
        switch error {
        case ModelError.connection, ModelError.unavailable, ModelError.localServer, LanguageModelError.timeout: true
        case ModelError.httpStatus(_, let status, _): status >= 500
        default: false
        }
    }

    private enum Pick {
        case member(Int)
        /// Every endpoint not yet tried is rate limited, the first until this monotonic time.
        case limited(until: Double)
        /// Every endpoint has been tried.
        case exhausted
    }

    /// The endpoints a request may go to now, of those not yet tried: not rate limited, and
    /// healthy — or, when every one of them is cooling down after a failure, all of them (tried
    /// anyway rather than fail). `nil` when only rate-limited ones are left, with the first reset.
    private func pool(_ state: State, excluding tried: Set<Int>, now: Double) -> (members: [Int], limitedUntil: Double?) {
        let candidates = members.indices.filter { !tried.contains($0) }
        let open = candidates.filter { state.limitedUntil[$0] <= now }
        if open.isEmpty { return ([], candidates.map { state.limitedUntil[$0] }.min()) }
        let healthy = open.filter { state.downUntil[$0] <= now }
        return (healthy.isEmpty ? open : healthy, nil)
    }

    /// A slot of the least busy endpoint of the pool, waiting while all are taken.
    private func acquire(excluding tried: Set<Int>) async throws -> Pick {
        while true {
            try Task.checkCancellation()
            // nil: every slot of the pool is taken, wait for one.
            let pick: Pick? = state.withLock { state in
                let (open, limitedUntil) = pool(state, excluding: tried, now: monotonicSeconds())
                if let limitedUntil { return .limited(until: limitedUntil) }
                guard !open.isEmpty else { return .exhausted }
                let free = open.filter { state.busy[$0] < members[$0].slots }
                guard let best = free.min(by: { Double(state.busy[$0]) / Double(members[$0].slots) < Double(state.busy[$1]) / Double(members[$1].slots) }) else {
                    return nil
                }
                state.busy[best] += 1
                return .member(best)
            }
            if let pick { return pick }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                // Registered under the lock, so a slot freed between the pick and here still wakes it.
                let resumeNow = state.withLock { state -> Bool in
                    let free = pool(state, excluding: tried, now: monotonicSeconds()).members.contains { state.busy[$0] < members[$0].slots }
                    if !free { state.waiters.append(waiter) }
                    return free
                }
                if resumeNow { waiter.resume() }
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
