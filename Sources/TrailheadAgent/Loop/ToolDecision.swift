import Foundation
import TrailheadModels

/// How a response's first decision — call a tool, or answer — is made: from the model's
/// probabilities rather than from its one greedy token.
///
/// Without instructions that tell it to use its tools, the embedded 1.5B model offered the answer
/// beside the tools answers directly most of the time, and invents what a tool would have said
/// ("Ana lives in New York"; the address book says Los Angeles). Yet its probability of writing a
/// call is rarely small when a tool serves the request, and close to nothing when none does
/// ("translate 'hello' into French"). So at the first turn of a response the session asks the
/// model for its next-token probabilities after `{"` (`LanguageModel.nextTokenProbabilities`),
/// adds up the mass of the call key (`"name"`) against the answer key (`"answer"`), and when the
/// call's share reaches the threshold it commits to a call: that turn's step schema leaves the
/// answer out (the model still chooses which tool and its arguments).
///
/// The threshold depends on what a call costs. A read-only tool (`Tool.isReadOnly`, a plugin's
/// `readOnly: true` annotation) costs a lookup, and answering without it invents facts: a low
/// threshold (0.2) is right. A tool with side effects keeps the model's own choice (`nil`). When
/// both kinds are offered (the calendar plugin reads and adds events), a call the model would
/// not make on its own (a share below one half) but that reaches the read-only threshold commits
/// the turn to the read-only tools alone; a call it would make anyway is left to it.
/// Measured on the bundled plugins in docs/TOOL-CALLING.md.
public struct ToolDecision: Sendable, Hashable {
    /// Commit to a call when every tool offered is read-only and the call's share of the
    /// probability is at least this; `nil`: the model's own choice.
    public var readOnlyThreshold: Double?
    /// The same when a tool offered has side effects; `nil` (the default): the model's own choice.
    public var threshold: Double?

    public init(readOnlyThreshold: Double? = 0.2, threshold: Double? = nil) {
        self.readOnlyThreshold = readOnlyThreshold
        self.threshold = threshold
    }

    /// Read-only tools at 0.2, others by the model's own choice.
    public static let standard = ToolDecision()
    /// Always the model's own (greedy) choice.
    public static let modelsChoice = ToolDecision(readOnlyThreshold: nil, threshold: nil)

    /// The variable that overrides `readOnlyThreshold` for experiments: a number between 0 and 1,
    /// or `off` for the model's own choice.
    public static let environmentVariable = "TRAILHEAD_READ_ONLY_CALL_THRESHOLD"

    /// `standard`, with `environmentVariable` applied when it is set and valid.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ToolDecision {
        var decision = ToolDecision.standard
        guard let value = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return decision }
        if value.lowercased() == "off" {
            decision.readOnlyThreshold = nil
        } else if let number = Double(value), (0...1).contains(number) {
            decision.readOnlyThreshold = number
        }
        return decision
    }

    /// The threshold that applies to a turn offering these tools.
    public func threshold(allReadOnly: Bool) -> Double? { allReadOnly ? readOnlyThreshold : threshold }

    /// The share of a call in the probability of a call or the answer, from the candidates for the
    /// token after `{"`: a candidate counts for a key when one of them begins the other ("n",
    /// "name", `name"`). `nil` when no candidate begins either.
    public static func callProbability(_ candidates: [TokenProbability], callKey: String, answerKey: String) -> Double? {
        func counts(_ token: String, for key: String) -> Bool { !token.isEmpty && (key.hasPrefix(token) || token.hasPrefix(key)) }
        var call = 0.0, answer = 0.0
        for candidate in candidates {
            let token = candidate.token
            if counts(token, for: callKey) {
                call += candidate.probability
            } else if counts(token, for: answerKey) {
                answer += candidate.probability
            }
        }
        guard call + answer > 0 else { return nil }
        return call / (call + answer)
    }

    /// What the first decision comes to.
    public enum Outcome: Sendable, Equatable {
        /// The step schema is left as it is: the model chooses.
        case modelsChoice
        /// A call: the turn offers no answer, and only `tools` when given (else every tool offered).
        case call(only: [String]?)
    }

    /// The first decision for a turn that offers `readOnly` of the tools `offered`, given the
    /// call's share of the probability.
    public func decide(callProbability: Double, offered: [String], readOnly: [String]) -> Outcome {
        let allReadOnly = !offered.isEmpty && readOnly.count == offered.count
        if let threshold = threshold(allReadOnly: allReadOnly), callProbability >= threshold { return .call(only: nil) }
        // Mixed: the read-only tools alone, for a call the model would not make on its own.
        if !allReadOnly, !readOnly.isEmpty, let readOnlyThreshold, callProbability >= readOnlyThreshold, callProbability < 0.5 {
            return .call(only: readOnly)
        }
        return .modelsChoice
    }

    /// Whether any decision could go to a call for these tools (else the probabilities are not asked).
    public func mayCommit(offered: [String], readOnly: [String]) -> Bool {
        guard !offered.isEmpty else { return false }
        return threshold != nil || (readOnlyThreshold != nil && !readOnly.isEmpty)
    }
}
