import TrailheadAgent
import TrailheadModels
import TrailheadSchema

/// The steps earlier executions of a background run recorded (`trailhead_run_steps`), decoded
/// once when an execution starts. A step's key says what it is (`Key`); each kind has a record
/// type with its stored shape, the one place its JSON keys are spelled: the same type writes the
/// step and reads it back, so a replay reads what was written.
struct RecordedSteps: Sendable {
    /// The model's turns, by number (`model:N`).
    private(set) var modelTurns: [Int: ModelTurn] = [:]
    /// The answers to the model's next-token probability queries, by number (`probabilities:N`).
    private(set) var probabilityQueries: [Int: Probabilities] = [:]
    /// The calls' outcomes, by call id (`CALL`).
    private(set) var outcomes: [String: ToolOutcome] = [:]
    /// The calls an execution started (`started:CALL`): one with no outcome may have had its effect.
    private(set) var started: Set<String> = []
    /// A person's decisions on calls, by call id (`approval:CALL`): true when approved.
    private(set) var approvals: [String: Bool] = [:]

    /// No steps: the run's first execution.
    init() {}

    /// The steps of run `run` as `PostgresRunStore.steps` gives them, decoded by key. A step whose
    /// key or content cannot be read is a `failed` store error naming it (the run cannot be
    /// replayed as it went).
    init(_ steps: [String: GeneratedContent], run: String) throws(SessionStoreError) {
        for (text, content) in steps {
            let what = "run \(run): the step \(text)"
            guard let key = Key(text) else { throw SessionStoreError(.failed, "\(what) has a key no execution writes") }
            switch key {
            case .modelTurn(let number): modelTurns[number] = try StoredRecord.decode(ModelTurn.self, from: content, what)
            case .probabilities(let number): probabilityQueries[number] = try StoredRecord.decode(Probabilities.self, from: content, what)
            case .outcome(let call): outcomes[call] = try StoredRecord.decode(ToolOutcome.self, from: content, what)
            case .started(let call): started.insert(call)  // its presence is what counts
            case .approval(let call): approvals[call] = try StoredRecord.decode(Approval.self, from: content, what).approved
            }
        }
    }

    /// A step's key: `model:N`, `probabilities:N`, `CALL` (a call's id, `call_<hash>_<n>`, which
    /// has no colon), `started:CALL` and `approval:CALL` (written by `PostgresRunStore.decide`).
    enum Key: Sendable, Equatable {
        case modelTurn(Int)
        case probabilities(Int)
        case outcome(call: String)
        case started(call: String)
        case approval(call: String)

        /// The key as stored.
        var text: String {
            switch self {
            case .modelTurn(let number): "model:\(number)"
            case .probabilities(let number): "probabilities:\(number)"
            case .outcome(let call): call
            case .started(let call): "started:" + call
            case .approval(let call): "approval:" + call
            }
        }

        /// The key stored as `text`; nil for a kind no execution writes, or a turn with no number.
        init?(_ text: String) {
            guard let colon = text.firstIndex(of: ":") else {
                self = .outcome(call: text)
                return
            }
            let rest = String(text[text.index(after: colon)...])
            switch text[..<colon] {
            case "model": guard let number = Int(rest) else { return nil }; self = .modelTurn(number)
            case "probabilities": guard let number = Int(rest) else { return nil }; self = .probabilities(number)
            case "started": self = .started(call: rest)
            case "approval": self = .approval(call: rest)
            default: return nil
            }
        }
    }

    /// A model turn (`model:N`): the response the loop read, less the backend's metadata.
    struct ModelTurn: Codable, Sendable {
        var text: String
        /// The id of the model that answered.
        var model: String
        /// The generation's wall-clock time.
        var seconds: Double
        /// With `completionTokens`, when the backend counted the tokens.
        var promptTokens: Int?
        var completionTokens: Int?
        var finishReason: String?

        init(_ response: ModelResponse) {
            text = response.text
            model = response.modelID
            seconds = response.timings.total
            promptTokens = response.usage?.promptTokens
            completionTokens = response.usage?.completionTokens
            finishReason = response.finishReason
        }

        /// The response a replay gives the loop in place of asking the model.
        var response: ModelResponse {
            ModelResponse(
                text: text, modelID: model, usage: promptTokens.map { TokenUsage(promptTokens: $0, completionTokens: completionTokens ?? 0) },
                timings: ModelTimings(total: seconds), finishReason: finishReason)
        }
    }

    /// The answer to a next-token probability query (`probabilities:N`): the candidates, or null
    /// when the model could not say (a replay says so again).
    struct Probabilities: Codable, Sendable {
        struct Candidate: Codable, Sendable {
            var token: String
            var probability: Double
        }
        var probabilities: [Candidate]?

        init(_ list: [TokenProbability]?) {
            probabilities = list?.map { Candidate(token: $0.token, probability: $0.probability) }
        }

        /// The candidates as the model gave them.
        var list: [TokenProbability]? { probabilities?.map { TokenProbability(token: $0.token, probability: $0.probability) } }

        /// `{"probabilities": null}` when there are none: the key is always written.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let probabilities { try container.encode(probabilities, forKey: .probabilities) } else { try container.encodeNil(forKey: .probabilities) }
        }
    }

    /// A call's outcome (`CALL`): its result and its error, each written as null when it has none.
    struct ToolOutcome: Codable, Sendable {
        var result: GeneratedContent?
        var error: String?

        init(_ outcome: ToolCallOutcome) {
            result = outcome.result
            error = outcome.error
        }

        /// The outcome a replay gives the model in place of running the call.
        var outcome: ToolCallOutcome { ToolCallOutcome(result: result, error: error) }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(result ?? .null, forKey: .result)
            if let error { try container.encode(error, forKey: .error) } else { try container.encodeNil(forKey: .error) }
        }
    }

    /// A call an execution started (`started:CALL`), written before the call runs.
    struct CallStart: Encodable, Sendable {
        var tool: String
    }

    /// A person's decision on a call (`approval:CALL`), as `PostgresRunStore.decide` writes it.
    struct Approval: Decodable, Sendable {
        var approved: Bool
    }
}
