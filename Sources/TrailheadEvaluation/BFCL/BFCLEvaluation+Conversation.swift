import Foundation
import TrailheadAgent
import TrailheadSchema
import TrailheadSupport

/// BFCL's multi-turn categories: a conversation of several user turns over stateful backends (a file
/// system, a message service, a trading bot, …) that BFCL executes for real. Each agent holds the
/// whole conversation: Trailhead as one session across the turns (its calls run on the case's live
/// backends through the worker), `agent serve` and each peer as a framework drives a chat-completions
/// server (`agent serve` with the official `openai` client). BFCL's `multi_turn_checker` then replays each agent's calls turn by turn on fresh backends and compares
/// their state and results with the ground truth's.
extension BFCLEvaluation {
    /// `item` through `agent serve` (`.endpoint`, the official `openai` client) or a peer, driven
    /// through every turn as a framework drives a chat-completions server.
    func drivenConversation(_ item: BFCLCase, _ agent: Agent, _ endpoint: String) throws(BFCLError) -> CaseResult {
        let name = agent == .endpoint ? "endpoint" : agent == .text ? "peer_text" : "peer_native"
        var request = peerRequest("peer_conversation", item, endpoint: endpoint)
        request["mode"] = .string(agent == .text ? "text" : "native")
        request["agent"] = .string(name)
        if agent == .endpoint { request["client"] = "openai" }
        let reply = try worker.ask(.object(request))
        let turns = reply["turns"]?.arrayValue ?? []
        var verdict = try scoreConversation(item, agent: name, turns: turns)
        if let error = reply["error"]?.stringValue { verdict.error += " (\(error))" }
        var result = CaseResult(
            agent: agent, id: item.id, category: item.category, valid: verdict.valid, error: verdict.error, kind: verdict.kind,
            seconds: reply["seconds"]?.doubleValue ?? 0, promptTokens: reply["prompt_tokens"]?.doubleValue.map(Int.init),
            completionTokens: reply["completion_tokens"]?.doubleValue.map(Int.init), calls: Self.flatten(turns))
        (result.turnsRight, result.turns) = (verdict.turnsRight, verdict.turns)
        return result
    }

    /// One session across the turns, as an agent holds a conversation: each user turn is a
    /// `respond`, whose tool loop runs until the model answers; a turn that fails leaves its calls in
    /// the transcript and the conversation goes on with the next turn.
    func trailheadConversation(_ item: BFCLCase) async throws(BFCLError) -> CaseResult {
        let worker = worker, id = item.id
        let tools = item.tools.map { tool in
            var tool = tool
            tool.execute = { name, arguments in
                let answer = try worker.ask([
                    "op": "execute", "id": .string(id), "agent": "trailhead",
                    "calls": [["name": .string(name), "arguments": arguments]],
                ])
                return try BackendResult.read(answer["results"]?.arrayValue?.first ?? .null)
            }
            return tool
        }
        let session = LanguageModelSession(
            model: model, tools: tools, instructions: item.instructions.isEmpty ? nil : Instructions(item.instructions))
        session.configuration.historyTransform = historyTransform
        session.configuration.toolSearch = toolSearch
        if let transcripts {
            do { session.configuration.transcriptFile = try TranscriptWriter(path: "\(transcripts)/\(item.id).jsonl") } catch {
                throw BFCLError("\(error)")
            }
        }
        let options = options
        var turns: [GeneratedContent] = []
        var failures: [String] = []
        let started = monotonicSeconds()
        for (number, prompt) in item.turns.enumerated() {
            let first = session.transcript.entries.count
            do { _ = try await session.respond(to: Prompt(prompt), options: options) } catch { failures.append("turn \(number): \(error)") }
            turns.append(.array(Self.steps(in: session.transcript.entries.dropFirst(first))))
        }
        let seconds = monotonicSeconds() - started
        var verdict = try scoreConversation(item, agent: "trailhead", turns: turns)
        if !failures.isEmpty { verdict.error += " (\(failures.joined(separator: "; ")))" }
        let tokens = Self.usage(in: session.transcript)
        var rates = ModelRates()
        for entry in session.transcript.entries { if case .modelTurn(let turn) = entry { rates.add(turn) } }
        var result = CaseResult(
            agent: .trailhead, id: item.id, category: item.category, valid: verdict.valid, error: verdict.error, kind: verdict.kind,
            seconds: seconds, promptTokens: tokens.inputTokens, completionTokens: tokens.outputTokens, calls: Self.flatten(turns),
            rates: rates)
        (result.turnsRight, result.turns) = (verdict.turnsRight, verdict.turns)
        return result
    }

    /// The calls of a part of the transcript, one list per model turn that called (BFCL's "steps").
    static func steps(in entries: ArraySlice<Transcript.Entry>) -> [GeneratedContent] {
        var steps: [[GeneratedContent]] = []
        for entry in entries {
            switch entry {
            case .modelTurn:
                steps.append([])
            case .toolCall(let call) where call.prefetched != true && call.tool != ToolSearch.toolName:
                if steps.isEmpty { steps.append([]) }
                steps[steps.count - 1].append(["name": .string(call.tool), "arguments": call.arguments])
            default:
                continue
            }
        }
        return steps.filter { !$0.isEmpty }.map { .array($0) }
    }

    private func scoreConversation(_ item: BFCLCase, agent: String, turns: [GeneratedContent]) throws(BFCLError) -> Verdict {
        Self.verdict(try worker.ask(["op": "score_conversation", "id": .string(item.id), "agent": .string(agent), "turns": .array(turns)]))
    }

    /// Every call of every step of every turn, in order (the report's `calls`).
    private static func flatten(_ turns: [GeneratedContent]) -> [GeneratedContent] {
        turns.flatMap { ($0.arrayValue ?? []).flatMap { $0.arrayValue ?? [] } }
    }
}

/// What a BFCL backend returned for one call, as the session's tool gives it back. BFCL's executor
/// hands each result over as text (a dictionary as JSON, `None` for a function that returns
/// nothing), and its backends report a failure as `{"error": message}`. So `None` is nothing
/// (`null`), the text is read as JSON when it is JSON (the model reads the object, not a string of
/// escaped JSON), and an object whose one member is `error` is a failed call: the model reads "cd
/// failed: cd: ./project: Unsupported path…", and the session knows the call failed
/// (`ToolDecision.afterFailureThreshold`). The peers read the same text as their `tool` messages.
struct BackendResult: Error, CustomStringConvertible {
    var message: String
    var description: String { message }

    static func read(_ result: GeneratedContent) throws(BackendResult) -> GeneratedContent {
        if result.stringValue == "None" { return .null }
        guard let text = result.stringValue, let parsed = try? GeneratedContent(json: text) else { return result }
        if let members = parsed.objectValue, members.count == 1, let message = members["error"]?.stringValue {
            throw BackendResult(message: message)
        }
        return parsed
    }
}
