import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadSupport

/// `agent eval --bfcl`: BFCL v4 single-turn cases through a default Trailhead session, and the
/// same cases through two peers on the same llama-server, each scored by BFCL's own AST checker.
///
/// Per case, in turn (so the machine's load falls on all three alike): Trailhead's session with
/// the case's functions as tools and BFCL's system prompt as instructions, ending at its first
/// tool turn (BFCL scores that turn: `Configuration.stopsAfterToolCalls`); then one request to the
/// server with native `tools` and `tool_choice: auto`, read two ways — (a) the calls the server
/// parsed, as the OpenAI Agents SDK and most runtimes read them, and (b) calls read out of the
/// reply's text too, as a lenient client does.
struct BFCLEvaluation {
    static let defaultCategories = ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"]

    /// Who answered a case.
    enum Agent: String, CaseIterable, Sendable {
        case trailhead
        case native = "peer (a) native tools"
        case text = "peer (b) calls from text"
    }

    struct CaseResult: Sendable {
        var agent: Agent
        var id: String
        var category: String
        var valid: Bool
        var error: String
        var seconds: Double
        var promptTokens: Int?
        var completionTokens: Int?
        var calls: [GeneratedContent]
        /// The server's own prompt and decode time and their tokens (Trailhead's turns; llama.cpp's timings).
        var rates = ModelRates()

        var json: GeneratedContent {
            [
                "agent": .string(agent.rawValue), "id": .string(id), "category": .string(category), "valid": .bool(valid),
                "error": .string(error), "seconds": .number(seconds), "promptTokens": promptTokens.map { .number(Double($0)) } ?? .null,
                "completionTokens": completionTokens.map { .number(Double($0)) } ?? .null, "calls": .array(calls),
            ]
        }
    }

    var worker: BFCLWorker
    var model: any LanguageModel
    /// The OpenAI-compatible endpoint of the same server, for the peers (nil: no peers).
    var peerEndpoint: String?
    var transcripts: String?
    var options = GenerationOptions(temperature: 0)
    /// Functions of other cases to add to each case's own (Trailhead only; the peers get the case's).
    var distractors: BFCLDistractors?
    var distractorCount = 0
    var toolSearch = ToolSearch.automatic

    func cases(_ categories: [String], limit: Int?) throws(CommandError) -> [BFCLCase] {
        var request: JSONObject = ["op": "cases", "categories": .array(categories.map { .string($0) })]
        if let limit { request["limit"] = .number(Double(limit)) }
        let answer = try worker.ask(.object(request))
        let instructions = answer["instructions"]?.stringValue ?? ""
        return try (answer["cases"]?.arrayValue ?? []).map { json throws(CommandError) in try BFCLCase(json, instructions: instructions) }
    }

    /// Runs one case through Trailhead and the peers; results in `Agent` order.
    func evaluate(_ item: BFCLCase) async throws(CommandError) -> [CaseResult] {
        var results = [try await trailhead(item)]
        if let peerEndpoint {
            // The peers get the bound a Trailhead free-text answer gets, so a runaway reply ends.
            let reply = try worker.ask([
                "op": "peer", "id": .string(item.id), "url": .string(peerEndpoint), "temperature": .number(options.temperature ?? 0),
                "max_tokens": .number(Double(LanguageModelSession.Configuration().maximumTextTokens)),
            ])
            let seconds = reply["seconds"]?.doubleValue ?? 0
            let prompt = reply["prompt_tokens"]?.doubleValue.map(Int.init), completion = reply["completion_tokens"]?.doubleValue.map(Int.init)
            for (agent, key) in [(Agent.native, "native"), (.text, "text")] {
                let calls = reply[key]?.arrayValue ?? []
                let verdict = try score(item, calls)
                results.append(CaseResult(
                    agent: agent, id: item.id, category: item.category, valid: verdict.valid, error: verdict.error, seconds: seconds,
                    promptTokens: prompt, completionTokens: completion, calls: calls))
            }
        }
        return results
    }

    private func trailhead(_ item: BFCLCase) async throws(CommandError) -> CaseResult {
        let tools = distractors?.tools(for: item, count: distractorCount) ?? item.tools
        let session = LanguageModelSession(model: model, tools: tools, instructions: Instructions(item.instructions))
        var configuration = session.configuration
        configuration.stopsAfterToolCalls = true
        configuration.toolSearch = toolSearch
        if let transcripts {
            do { configuration.transcriptFile = try TranscriptWriter(path: "\(transcripts)/\(item.id).jsonl") } catch {
                throw CommandError("\(error)")
            }
        }
        session.configuration = configuration
        let options = options
        let started = monotonicSeconds()
        let outcome: Result<LanguageModelSession.Response<String>, any Error>
        do { outcome = .success(try await session.respond(to: Prompt(item.prompt), options: options)) } catch { outcome = .failure(error) }
        let seconds = monotonicSeconds() - started
        var calls: [GeneratedContent] = []
        for entry in session.transcript.entries {
            // (Tool search is how Trailhead found the function, not a call BFCL asked for.)
            if case .toolCall(let call) = entry, call.prefetched != true, call.tool != ToolSearch.toolName {
                calls.append(["name": .string(call.tool), "arguments": call.arguments])
            }
        }
        let usage = (try? outcome.get())?.usage
        let tokens = usage ?? Self.usage(in: session.transcript)
        var rates = ModelRates()
        for entry in session.transcript.entries { if case .modelTurn(let turn) = entry { rates.add(turn) } }
        var verdict = try score(item, calls)
        if case .failure(let error) = outcome { verdict.error = verdict.error.isEmpty ? "\(error)" : "\(verdict.error) (\(error))" }
        return CaseResult(
            agent: .trailhead, id: item.id, category: item.category, valid: verdict.valid, error: verdict.error, seconds: seconds,
            promptTokens: tokens.inputTokens, completionTokens: tokens.outputTokens, calls: calls, rates: rates)
    }

    /// Tokens of a response that failed (its turns are in the transcript all the same).
    private static func usage(in transcript: Transcript) -> TrailheadAgent.Usage {
        var usage = TrailheadAgent.Usage()
        for entry in transcript.entries {
            if case .modelTurn(let turn) = entry {
                usage.inputTokens += turn.tokensIn ?? 0
                usage.outputTokens += turn.tokensOut ?? 0
            }
        }
        return usage
    }

    private func score(_ item: BFCLCase, _ calls: [GeneratedContent]) throws(CommandError) -> (valid: Bool, error: String) {
        let verdict = try worker.ask(["op": "score", "id": .string(item.id), "calls": .array(calls)])
        return (verdict["valid"]?.boolValue ?? false, verdict["error"]?.stringValue ?? "")
    }

    /// What the server reported of its own speed, summed over turns.
    struct ModelRates: Sendable {
        var promptTokens = 0, promptMs = 0.0, decodeTokens = 0, decodeMs = 0.0

        mutating func add(_ turn: Transcript.ModelTurn) {
            guard let prompt = turn.serverPromptMs, let decode = turn.serverDecodeMs else { return }
            promptTokens += (turn.tokensIn ?? 0) - (turn.cachedTokensIn ?? 0)
            promptMs += prompt
            decodeTokens += turn.tokensOut ?? 0
            decodeMs += decode
        }

        mutating func add(_ other: ModelRates) {
            promptTokens += other.promptTokens
            promptMs += other.promptMs
            decodeTokens += other.decodeTokens
            decodeMs += other.decodeMs
        }

        /// "prompt 66.8 tokens/s, decode 9.9 tokens/s" (as llama.cpp timed them).
        var description: String {
            guard promptMs > 0, decodeMs > 0 else { return "model rates unknown (the server reports no timings)" }
            return String(format: "prompt %.1f tokens/s, decode %.1f tokens/s", Double(promptTokens) / promptMs * 1000, Double(decodeTokens) / decodeMs * 1000)
        }
    }

    // MARK: - Report

    /// Accuracy per category and agent, with the median seconds and tokens per case.
    static func table(_ results: [CaseResult], categories: [String]) -> String {
        var lines = ["| category | agent | cases | correct | accuracy | median s | median prompt tokens | median output tokens |",
                     "|---|---|---:|---:|---:|---:|---:|---:|"]
        for category in categories + ["all"] {
            for agent in Agent.allCases {
                let rows = results.filter { $0.agent == agent && (category == "all" || $0.category == category) }
                guard !rows.isEmpty else { continue }
                let correct = rows.filter(\.valid).count
                lines.append("| \(category) | \(agent.rawValue) | \(rows.count) | \(correct) | \(percent(correct, rows.count)) | "
                    + "\(format(median(rows.map(\.seconds)))) | \(median(rows.compactMap(\.promptTokens).map(Double.init)).map { String(Int($0)) } ?? "") | "
                    + "\(median(rows.compactMap(\.completionTokens).map(Double.init)).map { String(Int($0)) } ?? "") |")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    private static func percent(_ part: Int, _ whole: Int) -> String { whole == 0 ? "" : "\(Int((Double(part) / Double(whole) * 100).rounded())) %" }
    private static func format(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "" }
}
