import Foundation
import Synchronization
import TrailheadAgent
import TrailheadPostgres
import TrailheadSchema
import TrailheadSupport
import TrailheadTools

/// Runs background responses from PostgreSQL: `concurrency` threads, each claiming the oldest
/// queued run (or one whose lease lapsed) with `FOR UPDATE SKIP LOCKED`, extending its lease
/// while the run goes on, and ending it `completed`, `failed`, `cancelled` or `requires_action`
/// (a call waits for a person; the worker lets go of it). `agent serve` runs one in-process.
///
/// A run's execution replays the steps earlier executions recorded (`RunCheckpoints`), so a run
/// taken over from a worker that died repeats no model turn and no tool call.
public final class BackgroundWorker: Sendable {
    public struct Configuration: Sendable {
        /// Runs executed at once.
        public var concurrency = 1
        /// How long a claim lasts unless extended (every third of it while the run goes on).
        public var leaseSeconds = 10.0
        /// How often an idle worker looks for a run whose lease lapsed (a queued run wakes it at
        /// once, through `LISTEN/NOTIFY`).
        public var pollSeconds = 1.0
        /// The name in `lease_owner` (host and process by default).
        public var owner = "\(ProcessInfo.processInfo.hostName):\(getpid())"

        public init() {}
    }

    let configuration: Configuration
    let runs: PostgresRunStore
    let runner: AgentRunner
    private let stopped = Atomic<Bool>(false)
    private let running = Atomic<Int>(0)

    init(configuration: Configuration, runs: PostgresRunStore, runner: AgentRunner) {
        self.configuration = configuration
        self.runs = runs
        self.runner = runner
    }

    /// A worker of its own (`agent worker`): the agents, tools, session store and model of the
    /// `agent serve` processes it works for.
    public convenience init(
        configuration: Configuration, runs: PostgresRunStore, agents: [AgentSpec], registry: ToolRegistry, store: any SessionStore, models: ModelSource,
        storeTimeout: Double = 30
    ) {
        let runner = AgentRunner(
            agents: Dictionary(agents.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }), registry: registry, store: store, models: models,
            storeTimeout: storeTimeout)
        self.init(configuration: configuration, runs: runs, runner: runner)
    }

    public func start() {
        for index in 0..<max(1, configuration.concurrency) {
            let thread = Thread { [self] in loop() }
            thread.name = "trailhead-worker-\(index)"
            thread.start()
        }
    }

    /// Stops claiming runs (a run under way goes on until the process ends; its lease then lapses).
    public func stop() { stopped.store(true, ordering: .relaxed) }

    private func loop() {
        while !stopped.load(ordering: .relaxed) {
            let mark = runs.mark(.queued)
            let claim: PostgresRunStore.Claim?
            do { claim = try runs.claim(owner: configuration.owner, leaseSeconds: configuration.leaseSeconds) } catch {
                Thread.sleep(forTimeInterval: 0.5)  // the database is away: wait for it
                continue
            }
            guard let claim else {
                // Woken by a NOTIFY when a run is queued; a lapsed lease notifies nobody, hence the bound.
                runs.wait(for: .queued, after: mark, timeout: configuration.pollSeconds)
                continue
            }
            running.add(1, ordering: .relaxed)
            AgentServer.wait { await self.execute(claim) }
            running.subtract(1, ordering: .relaxed)
        }
    }

    /// One execution of a claimed run, to its end or to where it must stop.
    func execute(_ claim: PostgresRunStore.Claim) async {
        let created = claim.run.createdAt.rounded()
        let run: StoredRun
        do { run = try StoredRun(claim.run) } catch {
            let base = Self.responseObject(id: claim.run.id, agent: "", previous: nil, created: created, status: .inProgress)
            finish(claim, .failed, Self.failed(base, error.message), event: "response.failed")
            return
        }
        let agent = run.request.model
        let previous = run.request.previousResponseID
        let base = Self.responseObject(id: run.id, agent: agent, previous: previous, created: created, status: .inProgress)
        if run.row.cancelRequested {
            finish(claim, .cancelled, base, event: "response.cancelled")
            return
        }
        let stored: [String: GeneratedContent]
        do { stored = try runs.steps(run.id) } catch { return }  // the lease lapses; another try later
        let steps: RecordedSteps
        do { steps = try RecordedSteps(stored, run: run.id) } catch {
            // A step that cannot be read cannot be replayed: the run fails, saying which.
            finish(claim, .failed, Self.failed(base, error.message), event: "response.failed")
            return
        }
        let decoded: AgentServer.DecodedResponsesRequest
        do throws(InvalidRequest) { decoded = try AgentServer.decodeResponses(run.row.request) } catch {
            finish(claim, .failed, Self.failed(base, error.description), event: "response.failed")
            return
        }
        let checkpoints = RunCheckpoints(
            runs: runs, claim: claim, recorded: steps, patience: configuration.leaseSeconds, clientFunctions: decoded.tools.names)
        let buffer = BufferedSessionStore(base: runner.store)
        let buffered = AgentRunner(agents: runner.agents, registry: runner.registry, store: buffer, models: runner.models, storeTimeout: runner.storeTimeout)
        let plan: AgentServer.ResponsePlan
        switch AgentServer.plan(decoded, runner: buffered, store: buffer, newSession: run.row.session) {
        case .failure(let failure):
            finish(claim, .failed, Self.failed(base, failure.description), event: "response.failed")
            return
        case .success(let made): plan = made
        }

        let work = Task { () async -> Result<AgentRunner.Answer, AgentRunner.Failure> in
            do throws(AgentRunner.Failure) {
                return .success(try await buffered.respond(
                    agent: agent, session: plan.session, stored: plan.stored, history: plan.history, prompt: plan.prompt, options: plan.options,
                    client: plan.client, checkpoints: checkpoints))
            } catch { return .failure(error) }
        }
        let heartbeat = Task { [runs, configuration] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(configuration.leaseSeconds / 3 * 1e9))
                if Task.isCancelled { return }
                do throws(SessionStoreError) {
                    if try runs.extend(claim, leaseSeconds: configuration.leaseSeconds) {
                        checkpoints.stop(.cancelled)
                        work.cancel()
                        return
                    }
                } catch where error.kind == .conflict {
                    checkpoints.stop(.fenced)
                    work.cancel()
                    return
                } catch {
                    continue  // unavailable: try again; the lease may lapse meanwhile
                }
            }
        }
        let result = await work.value
        heartbeat.cancel()

        switch checkpoints.stop {
        case .fenced?, .storeFailed?:
            return  // another worker has the run, or will once the lease lapses
        case .cancelled?:
            finish(claim, .cancelled, base, event: "response.cancelled")
            return
        case .awaitingApproval(let callID, let tool, let arguments)?:
            let item = RunCheckpoints.toolItem(id: callID, tool: tool, arguments: arguments, outcome: nil, type: "tool_approval_request")
            var object = Self.responseObject(id: run.id, agent: agent, previous: previous, created: created, status: .requiresAction)
            object = Self.with(object, ["output": [item], "required_action": ["type": "approve_tool_call", "call_id": .string(callID)]])
            do { try runs.finish(claim, status: .requiresAction, response: object, pending: item, event: ["type": "response.requires_action", "response": object]) } catch {}
            return
        case nil:
            break
        }
        switch result {
        case .failure(.store(let error)) where error.kind == .unavailable:
            // The database went away (a restart) while the run read or wrote its session: the
            // run is delayed, not failed. The lease lapses and an execution does it again from
            // its checkpoints, as when the store is away at the lease's extension.
            return
        case .failure(let failure):
            finish(claim, .failed, Self.failed(base, failure.description), event: "response.failed")
        case .success(let answer):
            // The response's transcript entries reach the shared store once, from the execution
            // that completes the run (and only while it still holds the run).
            do throws(SessionStoreError) { _ = try runs.extend(claim, leaseSeconds: configuration.leaseSeconds) } catch {
                return  // fenced (another worker has the run), or the database is away: the lease lapses
            }
            do throws(SessionStoreError) { try buffer.commit() } catch where error.kind == .unavailable {
                return  // the database is away: the lease lapses and the run is done again
            } catch {
                // A conflict: another response continued the conversation meanwhile.
                finish(claim, .failed, Self.failed(base, "session store: \(error.message)"), event: "response.failed")
                return
            }
            var object = AgentServer.responseObject(answer, agent: agent, previous: previous, created: created, output: AgentServer.outputItems(answer), id: run.id)
            // What a later request continues from: the conversation's own response id.
            object = Self.with(object, ["trailhead": Self.with(AgentServer.trailhead(answer), ["response_id": .string("resp_\(answer.session)_\(answer.entries)")])])
            finish(claim, .completed, object, event: "response.completed")
        }
    }

    private func finish(_ claim: PostgresRunStore.Claim, _ status: PostgresRunStore.Status, _ response: GeneratedContent, event type: String) {
        let object = Self.with(response, ["status": .string(status.rawValue), "background": true])
        do { try runs.finish(claim, status: status, response: object, event: ["type": .string(type), "response": object]) } catch {}
    }

    static func with(_ object: GeneratedContent, _ fields: JSONObject) -> GeneratedContent {
        guard case .object(var all) = object else { return object }
        for (key, value) in fields { all[key] = value }
        return .object(all)
    }

    static func failed(_ object: GeneratedContent, _ message: String) -> GeneratedContent {
        with(object, ["status": "failed", "error": ["code": "server_error", "message": .string(message)]])
    }

    /// A response object with no output yet, in `status`.
    static func responseObject(id: String, agent: String, previous: String?, created: Double, status: PostgresRunStore.Status) -> GeneratedContent {
        with(AgentServer.responseObject(nil, agent: agent, previous: previous, created: created, output: [], id: id),
             ["status": .string(status.rawValue), "background": true])
    }
}
