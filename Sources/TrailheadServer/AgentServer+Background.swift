import Foundation
import TrailheadAgent
import TrailheadPostgres
import TrailheadSchema
import TrailheadSupport

extension AgentServer {
    /// `POST /v1/responses` with `"background": true`: the run is stored `queued` and the answer
    /// comes at once; a worker (this process's, or any sharing the database) runs it.
    func enqueueBackground(_ decoded: DecodedResponsesRequest) -> HTTPServer.Outcome {
        guard let runs = configuration.runs else {
            return .respond(APIError.response(
                400, "background responses are kept in PostgreSQL: start agent serve with --store postgresql://…", type: "invalid_request_error", code: "background_unavailable"))
        }
        guard decoded.body.stream != true else {
            return .respond(APIError.response(for: InvalidRequest("a background response is streamed with GET /v1/responses/{id}?stream=true", param: "stream")))
        }
        do throws(AgentRunner.Failure) {
            _ = try runner.spec(decoded.body.model, client: AgentRunner.ClientSide(tools: decoded.tools, answer: decoded.answer))
        } catch {
            return .respond(APIError.response(for: error))
        }
        let id = "resp_bg" + AgentRunner.newSessionID()
        let object = BackgroundWorker.responseObject(
            id: id, agent: decoded.body.model, previous: decoded.body.previousResponseID, created: Date().timeIntervalSince1970.rounded(), status: .queued)
        do {
            try runs.enqueue(id: id, session: AgentRunner.newSessionID(), request: decoded.json, event: ["type": "response.created", "response": object])
        } catch {
            return .respond(APIError.response(for: .store(error)))
        }
        return .respond(.json(200, object.jsonString))
    }

    /// `GET /v1/responses/{id}` (`?stream=true&starting_after=N`), `POST /v1/responses/{id}/cancel`,
    /// `…/approve` and `…/reject` (`{"call_id": …}`).
    func backgroundRoute(_ request: HTTPServer.Request, path: String) -> HTTPServer.Outcome {
        guard let runs = configuration.runs else {
            return .respond(APIError.response(404, "no background responses here: they need --store postgresql://…", type: "invalid_request_error"))
        }
        let parts = path.dropFirst("/v1/responses/".count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let id = parts[0]
        guard id.hasPrefix("resp_bg"), id.count <= 64, PostgresSessionStore.isValidSessionID(id) else {
            return .respond(APIError.response(404, "no background response '\(id.prefix(80))' (its id starts with resp_bg)", type: "invalid_request_error"))
        }
        switch (request.method, parts.count == 2 ? parts[1] : nil) {
        case ("GET", nil):
            let query = request.head.query
            if query["stream"] == "true" {
                guard let after = Int(query["starting_after"] ?? "-1"), after >= -1 else {
                    return .respond(APIError.response(for: InvalidRequest("starting_after must be a whole number", param: "starting_after")))
                }
                return stream(runs, id: id, after: after)
            }
            do {
                guard let run = try runs.storedRun(id) else { return .respond(APIError.response(404, "no response \(id)", type: "invalid_request_error")) }
                return .respond(.json(200, try Self.current(run, runs: runs).jsonString))
            } catch {
                return .respond(APIError.response(for: .store(error)))
            }
        case ("POST", "cancel"?):
            do {
                guard let before = try runs.storedRun(id) else { return .respond(APIError.response(404, "no response \(id)", type: "invalid_request_error")) }
                let cancelled = BackgroundWorker.responseObject(
                    id: id, agent: before.request.model, previous: before.request.previousResponseID, created: before.createdAt.rounded(), status: .cancelled)
                guard let row = try runs.cancel(id, response: cancelled, event: ["type": "response.cancelled", "response": cancelled]) else {
                    return .respond(APIError.response(404, "no response \(id)", type: "invalid_request_error"))
                }
                let run = try StoredRun(row)
                if run.status == .completed || run.status == .failed {
                    return .respond(APIError.response(409, "response \(id) is \(run.status.rawValue) already: nothing to cancel", type: "invalid_request_error"))
                }
                return .respond(.json(200, try Self.current(run, runs: runs).jsonString))
            } catch {
                return .respond(APIError.response(for: .store(error)))
            }
        case ("POST", let verb?) where verb == "approve" || verb == "reject":
            let body = try? GeneratedContent(json: Data(request.body))
            guard let callID = body?["call_id"]?.stringValue, !callID.isEmpty else {
                return .respond(APIError.response(for: InvalidRequest("the call to \(verb): {\"call_id\": …} from the response's tool_approval_request", param: "call_id")))
            }
            do {
                let event: GeneratedContent = ["type": .string(verb == "approve" ? "response.tool_call_approved" : "response.tool_call_rejected"), "call_id": .string(callID)]
                guard try runs.decide(id, callID: callID, approved: verb == "approve", event: event) else {
                    guard let run = try runs.load(id) else { return .respond(APIError.response(404, "no response \(id)", type: "invalid_request_error")) }
                    return .respond(APIError.response(
                        409, "response \(id) is \(run.status.rawValue) and does not wait for call \(callID.prefix(80))", type: "invalid_request_error"))
                }
                guard let run = try runs.storedRun(id) else { return .respond(APIError.response(404, "no response \(id)", type: "invalid_request_error")) }
                return .respond(.json(200, try Self.current(run, runs: runs).jsonString))
            } catch {
                return .respond(APIError.response(for: .store(error)))
            }
        default:
            return .respond(APIError.response(
                404, "no route \(request.method) \(path) (GET /v1/responses/{id}, POST /v1/responses/{id}/cancel, /approve, /reject)", type: "invalid_request_error"))
        }
    }

    /// The conversation's response id a completed background response `id` ended with.
    func continuation(ofBackground id: String) -> Result<String, InvalidRequest> {
        let param = "previous_response_id"
        guard let runs = configuration.runs else { return .failure(InvalidRequest("no background responses here (they need --store postgresql://…)", param: param)) }
        let run: StoredRun?
        do { run = try runs.storedRun(id) } catch { return .failure(InvalidRequest("the store cannot be read now: \(error.message)", param: param)) }
        guard let run else { return .failure(InvalidRequest("no response \(id.prefix(80))", param: param)) }
        guard run.status == .completed, let next = run.continuation else {
            return .failure(InvalidRequest("response \(id) is \(run.status.rawValue): only a completed response is continued", param: param))
        }
        return .success(next)
    }

    /// The run's response object: the final one, or its status with the output so far (the
    /// tools' calls and outputs its events hold).
    static func current(_ run: StoredRun, runs: PostgresRunStore) throws(SessionStoreError) -> GeneratedContent {
        if let response = run.row.response, run.status.isFinal || run.status == .requiresAction { return response }
        let output = try StoredRunEvent.decode(runs.events(run.id, after: -1), run: run.id).compactMap { event in
            event.type == "response.output_item.done" ? event.item : nil
        }
        let object = BackgroundWorker.responseObject(
            id: run.id, agent: run.request.model, previous: run.request.previousResponseID, created: run.createdAt.rounded(), status: run.status)
        return BackgroundWorker.with(object, ["output": .array(output)])
    }

    /// The run's events after `after` as server-sent events, then each new one as it is stored,
    /// until the run ends or waits for an approval (or the client goes).
    private func stream(_ runs: PostgresRunStore, id: String, after: Int) -> HTTPServer.Outcome {
        do {
            guard try runs.load(id) != nil else { return .respond(APIError.response(404, "no response \(id)", type: "invalid_request_error")) }
        } catch {
            return .respond(APIError.response(for: .store(error)))
        }
        let ends: Set<String> = ["response.completed", "response.failed", "response.cancelled"]
        let outage = configuration.storeTimeout
        return .stream(headers: [:]) { stream in
            // A thread of its own: it blocks between events, woken by the database's NOTIFY.
            Thread {
                var last = after
                var unreadableSince: Double?
                func fail(_ message: String) {
                    _ = stream.send(GeneratedContent.object(["type": "error", "message": .string(message)]).jsonString, event: "error")
                    stream.close()
                }
                while stream.isOpen {
                    let mark = runs.mark(.events)
                    let rows: [GeneratedContent]
                    do throws(SessionStoreError) {
                        rows = try runs.events(id, after: last)
                        unreadableSince = nil
                    } catch {
                        // A store that cannot be read (a restart) is waited for up to the store's
                        // timeout; then the stream ends saying why and where to go on from.
                        let now = monotonicSeconds()
                        if now - (unreadableSince ?? now) >= outage {
                            return fail(
                                "the store has not been readable for \(Int(outage)) s (\(error.message)); the response goes on: read its events after \(last) again with starting_after=\(last)")
                        }
                        unreadableSince = unreadableSince ?? now
                        Thread.sleep(forTimeInterval: 0.5)
                        continue
                    }
                    let events: [StoredRunEvent]
                    do throws(SessionStoreError) {
                        events = try StoredRunEvent.decode(rows, run: id)
                    } catch {
                        // A stored event that cannot be read (no type, no number) ends the stream, saying why.
                        return fail(error.message)
                    }
                    for event in events {
                        _ = stream.send(event.content.jsonString, event: event.type)
                        last = event.sequenceNumber
                        if ends.contains(event.type) {
                            stream.close()
                            return
                        }
                    }
                    // A run that waits for a person ends its stream there (a later one goes on from it).
                    if events.last?.type == "response.requires_action", (try? runs.load(id))??.status == .requiresAction {
                        stream.close()
                        return
                    }
                    if events.isEmpty { runs.wait(for: .events, after: mark, timeout: 1) }
                }
            }.start()
        }
    }
}
