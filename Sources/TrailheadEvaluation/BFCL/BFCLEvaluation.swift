import Foundation
import TrailheadAgent
import TrailheadModels
import TrailheadSchema
import TrailheadSupport

/// `agent eval --bfcl`: BFCL v4 single-turn cases through a default Trailhead session, and the
/// same cases through two peers on a llama-server at `peerEndpoint` (`agent eval` starts one of
/// their own), each scored by BFCL's own AST checker.
///
/// Per case, in turn (so the machine's load falls on all three alike): Trailhead's session with
/// the case's functions as tools and BFCL's system prompt as instructions, ending at its first
/// tool turn (BFCL scores that turn: `Configuration.stopsAfterToolCalls`); then one request to the
/// server with native `tools` and `tool_choice: auto`, read two ways — (a) the calls the server
/// parsed, as the OpenAI Agents SDK and most runtimes read them, and (b) calls read out of the
/// reply's text too, as a lenient client does.
///
/// A conversation category (`multi_turn_base`) runs every user turn through one session whose tools
/// execute on BFCL's backends, and each peer through the same turns as a framework drives a
/// chat-completions server (`BFCLEvaluation+Conversation.swift`); BFCL's `multi_turn_checker` scores them.
public struct BFCLEvaluation {
    public static let defaultCategories = ["simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance"]

    /// Who answered a case.
    public enum Agent: String, CaseIterable, Sendable {
        case trailhead
        /// The same model through `agent serve` (in this process), driven by the official `openai` client.
        case endpoint = "agent serve, openai client"
        case native = "peer (a) native tools"
        case text = "peer (b) calls from text"

        /// For the progress line.
        public var short: String {
            switch self {
            case .trailhead: "trailhead"
            case .endpoint: "serve"
            case .native: "a"
            case .text: "b"
            }
        }
    }

    public struct CaseResult: Sendable {
        public var agent: Agent
        public var id: String
        public var category: String
        public var valid: Bool
        public var error: String
        /// BFCL's name for the failure ("multi_turn:instance_state_mismatch", "no call", …); empty when valid.
        public var kind = ""
        public var seconds: Double
        public var promptTokens: Int?
        public var completionTokens: Int?
        public var calls: [GeneratedContent]
        /// The server's own prompt and decode time and their tokens (Trailhead's turns; llama.cpp's timings).
        public var rates = ModelRates()
        /// A conversation's turns that pass before its first miss, and its turns.
        public var turnsRight: Int?
        public var turns: Int?

        public var json: GeneratedContent {
            [
                "agent": .string(agent.rawValue), "id": .string(id), "category": .string(category), "valid": .bool(valid),
                "error": .string(error), "kind": .string(kind), "seconds": .number(seconds), "promptTokens": promptTokens.map { .number(Double($0)) } ?? .null,
                "completionTokens": completionTokens.map { .number(Double($0)) } ?? .null, "calls": .array(calls),
                "turnsRight": turnsRight.map { .number(Double($0)) } ?? .null, "turns": turns.map { .number(Double($0)) } ?? .null,
                "rates": rates.json,
            ]
        }
    }

    var worker: BFCLWorker
    var model: any LanguageModel
    /// The OpenAI-compatible endpoint of the same server, for the peers (nil: no peers).
    var peerEndpoint: String?
    /// `agent serve`'s endpoint serving the same model as "local" (nil: not measured).
    public var serveEndpoint: String?
    var transcripts: String?
    var options = GenerationOptions(temperature: 0)
    /// Functions of other cases to add to each case's own (Trailhead only; the peers get the case's).
    public var distractors: BFCLDistractors?
    public var distractorCount = 0
    public var toolSearch = ToolSearch.automatic
    /// BFCL's system prompt for every agent (false: none, only the case's own system messages).
    public var usesBFCLInstructions = true
    /// What Trailhead's session reads of a conversation's earlier turns: their calls as the model
    /// wrote them and their outputs shortened (`.summarizingCompletedToolCalls()`), so the
    /// conversation stays within the model's 4,096 tokens (with everything, multi_turn_base_1
    /// failed in its fourth turn at 4,100 tokens) and the model still reads that it called tools:
    /// with their request and answer only (`.droppingCompletedToolCalls`), it answered later
    /// requests from its own head (docs/TOOL-CALLING.md).
    public var historyTransform = HistoryTransform.summarizingCompletedToolCalls()

    public init(worker: BFCLWorker, model: any LanguageModel, peerEndpoint: String?, transcripts: String?) {
        self.worker = worker
        self.model = model
        self.peerEndpoint = peerEndpoint
        self.transcripts = transcripts
    }

    public func cases(_ categories: [String], limit: Int?) throws(BFCLError) -> [BFCLCase] {
        var request: JSONObject = ["op": "cases", "categories": .array(categories.map { .string($0) })]
        if let limit { request["limit"] = .number(Double(limit)) }
        let answer = try worker.ask(.object(request))
        return try (answer["cases"]?.arrayValue ?? []).map { json throws(BFCLError) in
            let conversation = json["category"]?.stringValue?.hasPrefix("multi_turn") == true
            let instructions = answer[conversation ? "multi_turn_instructions" : "instructions"]?.stringValue
            return try BFCLCase(json, instructions: usesBFCLInstructions ? instructions : nil)
        }
    }

    /// Runs one case through Trailhead and the peers; results in `Agent` order. Trailhead's session
    /// and `agent serve` send the same prompt: on one llama-server the second finds it in the cache,
    /// so `serveFirst` (every other case) lets each go first as often. (`agent eval --serve` gives the
    /// endpoint a llama-server of its own when it can: then neither finds the other's prompt.)
    public func evaluate(_ item: BFCLCase, serveFirst: Bool = false) async throws(BFCLError) -> [CaseResult] {
        var served: CaseResult?
        if serveFirst { served = try endpointResult(item) }
        let session = item.isConversation ? try await trailheadConversation(item) : try await trailhead(item)
        if !serveFirst { served = try endpointResult(item) }
        var results = [session] + (served.map { [$0] } ?? [])
        if item.isConversation {
            if let peerEndpoint { results += [try drivenConversation(item, .native, peerEndpoint), try drivenConversation(item, .text, peerEndpoint)] }
            return results
        }
        if let peerEndpoint {
            // The peers get the bound a Trailhead free-text answer gets, so a runaway reply ends.
            let reply = try worker.ask(.object(peerRequest("peer", item, endpoint: peerEndpoint)))
            let seconds = reply["seconds"]?.doubleValue ?? 0
            let prompt = reply["prompt_tokens"]?.doubleValue.map(Int.init), completion = reply["completion_tokens"]?.doubleValue.map(Int.init)
            for (agent, key) in [(Agent.native, "native"), (.text, "text")] {
                let calls = reply[key]?.arrayValue ?? []
                let verdict = try score(item, calls)
                results.append(CaseResult(
                    agent: agent, id: item.id, category: item.category, valid: verdict.valid, error: verdict.error, kind: verdict.kind,
                    seconds: seconds, promptTokens: prompt, completionTokens: completion, calls: calls))
            }
        }
        return results
    }

    /// The case through `agent serve` (nil: not measured): a conversation driven turn by turn, or one request.
    private func endpointResult(_ item: BFCLCase) throws(BFCLError) -> CaseResult? {
        guard let serveEndpoint else { return nil }
        return item.isConversation ? try drivenConversation(item, .endpoint, serveEndpoint) : try served(item, serveEndpoint)
    }

    /// The case through `agent serve` with the official `openai` client: the calls the response holds.
    private func served(_ item: BFCLCase, _ endpoint: String) throws(BFCLError) -> CaseResult {
        var request = peerRequest("peer", item, endpoint: endpoint)
        request["client"] = "openai"
        let reply = try worker.ask(.object(request))
        let calls = reply["native"]?.arrayValue ?? []
        var verdict = try score(item, calls)
        if let error = reply["error"]?.stringValue { verdict.error += " (\(error))" }
        return CaseResult(
            agent: .endpoint, id: item.id, category: item.category, valid: verdict.valid, error: verdict.error, kind: verdict.kind,
            seconds: reply["seconds"]?.doubleValue ?? 0, promptTokens: reply["prompt_tokens"]?.doubleValue.map(Int.init),
            completionTokens: reply["completion_tokens"]?.doubleValue.map(Int.init), calls: calls)
    }

    /// A request to the worker for a peer: the bound a Trailhead free-text answer gets, so a runaway
    /// reply ends, and the same temperature.
    func peerRequest(_ op: String, _ item: BFCLCase, endpoint: String) -> JSONObject {
        [
            "op": .string(op), "id": .string(item.id), "url": .string(endpoint), "temperature": .number(options.temperature ?? 0),
            "max_tokens": .number(Double(LanguageModelSession.Configuration().maximumTextTokens)),
            "instructions": .bool(usesBFCLInstructions),
        ]
    }

    private func trailhead(_ item: BFCLCase) async throws(BFCLError) -> CaseResult {
        let tools = distractors?.tools(for: item, count: distractorCount) ?? item.tools
        let session = LanguageModelSession(model: model, tools: tools, instructions: item.instructions.isEmpty ? nil : Instructions(item.instructions))
        var configuration = session.configuration
        configuration.stopsAfterToolCalls = true
        configuration.toolSearch = toolSearch
        if let transcripts {
            do { configuration.transcriptFile = try TranscriptWriter(path: "\(transcripts)/\(item.id).jsonl") } catch {
                throw BFCLError("\(error)")
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
            agent: .trailhead, id: item.id, category: item.category, valid: verdict.valid, error: verdict.error, kind: verdict.kind,
            seconds: seconds, promptTokens: tokens.inputTokens, completionTokens: tokens.outputTokens, calls: calls, rates: rates)
    }

    /// Tokens of a response that failed (its turns are in the transcript all the same).
    static func usage(in transcript: Transcript) -> TrailheadAgent.Usage {
        var usage = TrailheadAgent.Usage()
        for entry in transcript.entries {
            if case .modelTurn(let turn) = entry {
                usage.inputTokens += turn.tokensIn ?? 0
                usage.outputTokens += turn.tokensOut ?? 0
            }
        }
        return usage
    }

    /// BFCL's verdict; for a conversation also how many of its turns pass before the first miss.
    typealias Verdict = (valid: Bool, error: String, kind: String, turnsRight: Int?, turns: Int?)

    private func score(_ item: BFCLCase, _ calls: [GeneratedContent]) throws(BFCLError) -> Verdict {
        Self.verdict(try worker.ask(["op": "score", "id": .string(item.id), "calls": .array(calls)]))
    }

    static func verdict(_ answer: GeneratedContent) -> Verdict {
        (answer["valid"]?.boolValue ?? false, answer["error"]?.stringValue ?? "", answer["kind"]?.stringValue ?? "",
         answer["turns_right"]?.doubleValue.map(Int.init), answer["turns"]?.doubleValue.map(Int.init))
    }

    /// What the server reported of its own speed, summed over turns.
    public struct ModelRates: Sendable {
        var promptTokens = 0, promptMs = 0.0, decodeTokens = 0, decodeMs = 0.0

        public init() {}

        init(json: GeneratedContent?) {
            promptTokens = json?["promptTokens"]?.doubleValue.map(Int.init) ?? 0
            promptMs = json?["promptMs"]?.doubleValue ?? 0
            decodeTokens = json?["decodeTokens"]?.doubleValue.map(Int.init) ?? 0
            decodeMs = json?["decodeMs"]?.doubleValue ?? 0
        }

        var json: GeneratedContent {
            ["promptTokens": .number(Double(promptTokens)), "promptMs": .number(promptMs), "decodeTokens": .number(Double(decodeTokens)), "decodeMs": .number(decodeMs)]
        }

        mutating func add(_ turn: Transcript.ModelTurn) {
            guard let prompt = turn.serverPromptMs, let decode = turn.serverDecodeMs else { return }
            promptTokens += (turn.tokensIn ?? 0) - (turn.cachedTokensIn ?? 0)
            promptMs += prompt
            decodeTokens += turn.tokensOut ?? 0
            decodeMs += decode
        }

        public mutating func add(_ other: ModelRates) {
            promptTokens += other.promptTokens
            promptMs += other.promptMs
            decodeTokens += other.decodeTokens
            decodeMs += other.decodeMs
        }

        /// "prompt 66.8 tokens/s, decode 9.9 tokens/s" (as llama.cpp timed them).
        public var description: String {
            guard promptMs > 0, decodeMs > 0 else { return "model rates unknown (the server reports no timings)" }
            return String(format: "prompt %.1f tokens/s, decode %.1f tokens/s", Double(promptTokens) / promptMs * 1000, Double(decodeTokens) / decodeMs * 1000)
        }
    }

    // MARK: - Report

    /// Accuracy per category and agent, with the median seconds and tokens per case.
    public static func table(_ results: [CaseResult], categories: [String]) -> String {
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

    /// `agent serve` against the session it serves, case by case: the verdicts that agree, and
    /// time. The two send the same prompt; on one llama-server whichever goes second finds it in the
    /// cache and takes a fraction of the time (`evaluate`'s `serveFirst` alternates the order). A
    /// median of 30 such times then depends on the order its middle cases ran in; the geometric mean
    /// of the per-case ratios does not (each order's factor cancels the other's), nor does the ratio
    /// of the totals. With a server each, the medians compare too. Empty when the run did not
    /// measure the endpoint.
    public static func servedAgainstSession(_ results: [CaseResult], categories: [String]) -> String {
        var lines = ["| category | cases | same verdict | median s served / session | per case, geometric mean | totals |", "|---|---:|---:|---:|---:|---:|"]
        for category in categories + ["all"] {
            let inCategory = results.filter { category == "all" || $0.category == category }
            let served = Dictionary(inCategory.filter { $0.agent == .endpoint }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let pairs = inCategory.filter { $0.agent == .trailhead }.compactMap { session in served[session.id].map { (session, $0) } }
                .filter { $0.0.seconds > 0 && $0.1.seconds > 0 }
            guard !pairs.isEmpty else { continue }
            let same = pairs.filter { $0.0.valid == $0.1.valid }.count
            let medians = (median(pairs.map(\.1.seconds)) ?? 0) / (median(pairs.map(\.0.seconds)) ?? 1)
            let geometric = exp(pairs.map { log($0.1.seconds / $0.0.seconds) }.reduce(0, +) / Double(pairs.count))
            let totals = pairs.map(\.1.seconds).reduce(0, +) / pairs.map(\.0.seconds).reduce(0, +)
            lines.append("| \(category) | \(pairs.count) | \(same) | \(format(medians)) | \(format(geometric)) | \(format(totals)) |")
        }
        return lines.count > 2 ? lines.joined(separator: "\n") : ""
    }

    /// Each category's failures by BFCL's kind, per agent: "| multiple | trailhead | 3 × simple_function_checker:wrong_func_name, … |".
    public static func failureKinds(_ results: [CaseResult], categories: [String]) -> String {
        var lines = ["| category | agent | failures by kind |", "|---|---|---|"]
        for category in categories {
            for agent in Agent.allCases {
                var counts: [String: Int] = [:]
                for row in results where row.agent == agent && row.category == category && !row.valid {
                    counts[row.kind.isEmpty ? "other" : row.kind, default: 0] += 1
                }
                guard !counts.isEmpty else { continue }
                var kinds = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value) × \($0.key)" }
                let conversations = results.filter { $0.agent == agent && $0.category == category && $0.turns != nil }
                if !conversations.isEmpty {
                    let right = conversations.reduce(0) { $0 + ($1.turnsRight ?? 0) }, all = conversations.reduce(0) { $0 + ($1.turns ?? 0) }
                    kinds.append("turns right before the first miss: \(right) of \(all)")
                }
                lines.append("| \(category) | \(agent.rawValue) | \(kinds.joined(separator: ", ")) |")
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

extension BFCLEvaluation.CaseResult {
    /// A result from its `json` (a results file, `BFCLResultsFile`).
    public init(json: GeneratedContent) throws(BFCLError) {
        guard let agentName = json["agent"]?.stringValue, let agent = BFCLEvaluation.Agent(rawValue: agentName), let id = json["id"]?.stringValue,
            let category = json["category"]?.stringValue, let valid = json["valid"]?.boolValue, let seconds = json["seconds"]?.doubleValue
        else { throw BFCLError("not a case's result: \(json.jsonString.prefix(200))") }
        func integer(_ key: String) -> Int? { json[key]?.doubleValue.map(Int.init) }
        self.init(
            agent: agent, id: id, category: category, valid: valid, error: json["error"]?.stringValue ?? "", kind: json["kind"]?.stringValue ?? "",
            seconds: seconds, promptTokens: integer("promptTokens"), completionTokens: integer("completionTokens"),
            calls: json["calls"]?.arrayValue ?? [], rates: BFCLEvaluation.ModelRates(json: json["rates"]), turnsRight: integer("turnsRight"), turns: integer("turns"))
    }
}
