import Foundation
import TrailheadModels

/// How the decision between calling a tool and answering is made: from the model's
/// probabilities rather than from its one greedy token.
///
/// Without instructions that tell it to use its tools, the embedded 1.5B model offered the answer
/// beside the tools answers directly most of the time, and invents what a tool would have said
/// ("Ana lives in New York"; the address book says Los Angeles). Yet its probability of writing a
/// call is rarely small when a tool serves the request, and close to nothing when none does
/// ("what is 17 times 3?"). So before a turn that offers both, the session asks the model for its
/// next-token probabilities after `{"` (`LanguageModel.nextTokenProbabilities`), adds up the mass
/// of the call key (`"name"`) against the answer key (`"answer"`), and when the call's share
/// reaches the threshold it commits to a call: that turn's step schema leaves the answer out (the
/// model still chooses which tool and its arguments).
///
/// The threshold depends on what a call costs. A read-only tool (`Tool.isReadOnly`, a plugin's
/// `readOnly: true` annotation) costs a lookup, and answering without it invents facts: a low
/// threshold (0.2) is right. With a tool that has side effects the call must be the more probable
/// choice (0.5): the model's own decision, read from its whole distribution — its greedy token
/// can be the answer key while the call's mass is split over several tokens ("name", "n"…; the
/// calendar question with a call share of 0.73 was answered). When both kinds are offered (the
/// calendar plugin reads and adds events), a share from 0.2 to one half commits the turn to the
/// read-only tools alone. After a tool has answered, the read-only tools are committed to again at
/// 0.3, once in a response (the model looked a landmark up and then named museums from its own
/// head). Right after a turn whose calls all failed the turn is decided as a first turn is (read-only
/// tools at 0.3, tools with side effects at 0.5), once in a response: the model answered with the
/// error where the error said how to mend the call. And at the end of a turn's chain of calls,
/// where the grammar lets the model close the chain or add a call, a share of another call of 0.99
/// or more asks the turn again one call longer (`chainContinuation`), and so does one of a half or
/// more, whose added call is kept only when it uses a value of the conversation's that no call
/// before it used (`AddedCallGrounding`). Measured on the bundled plugins and BFCL in
/// docs/TOOL-CALLING.md.
public struct ToolDecision: Sendable, Hashable {
    /// Commit to a call when every tool offered is read-only and the call's share of the
    /// probability is at least this; `nil`: the model's own choice.
    public var readOnlyThreshold: Double?
    /// The same when a tool offered has side effects; `nil`: the greedy token's choice.
    public var threshold: Double?
    /// The read-only threshold at a later turn of the response, once a tool has answered (a tool
    /// with side effects is the model's own choice there); `nil`: the model's own choice.
    public var laterReadOnlyThreshold: Double?

    /// Ask a turn again with one call more when, at the end of its chain, the share of another
    /// call in the model's probabilities is at least this (`chainContinuation`), and keep the call
    /// the model adds; `nil`: the chain ends where the model ended it under the grammar.
    public var chainThreshold: Double?

    /// Below `chainThreshold`, ask again at this share or more, and keep the added call only when
    /// it uses a value of the conversation's that no call before it used (`AddedCallGrounding`): a
    /// lean towards another call is not a call, the call the model adds shows whether it was one.
    /// `nil`: only `chainThreshold` asks again.
    public var checkedChainThreshold: Double?

    /// The turn right after one whose every call failed (the model read only errors) is decided
    /// as a response's first turn is, once in a response: read-only tools are committed to at
    /// this share, tools with side effects at `threshold`, and when both are offered a share from
    /// this one to `threshold` commits the turn to the read-only tools alone. The model mends the
    /// call or looks for what was missing instead of answering with the error; a call with side
    /// effects stays what the model itself most wants. `nil`: the later turns' rules.
    public var afterFailureThreshold: Double?

    public init(
        readOnlyThreshold: Double? = 0.2, threshold: Double? = 0.5, laterReadOnlyThreshold: Double? = 0.3, chainThreshold: Double? = 0.99,
        checkedChainThreshold: Double? = 0.5, afterFailureThreshold: Double? = 0.3
    ) {
        self.readOnlyThreshold = readOnlyThreshold
        self.threshold = threshold
        self.laterReadOnlyThreshold = laterReadOnlyThreshold
        self.chainThreshold = chainThreshold
        self.checkedChainThreshold = checkedChainThreshold
        self.afterFailureThreshold = afterFailureThreshold
    }

    /// Where in a response a decision is made: the tools the turn offers (and those of them that
    /// only read), whether a tool has answered already (`later`), and whether every call of the
    /// turn before failed (`afterFailure`).
    public struct Moment: Sendable, Hashable {
        public var offered: [String]
        public var readOnly: [String]
        public var later: Bool
        public var afterFailure: Bool

        public init(offered: [String], readOnly: [String], later: Bool = false, afterFailure: Bool = false) {
            self.offered = offered
            self.readOnly = readOnly
            self.later = later
            self.afterFailure = afterFailure && later
        }

        var allReadOnly: Bool { !offered.isEmpty && readOnly.count == offered.count }
    }

    /// Read-only tools at 0.2 (0.3 at a later turn), others at 0.5.
    public static let standard = ToolDecision()
    /// Always the model's own (greedy) choice.
    public static let modelsChoice = ToolDecision(
        readOnlyThreshold: nil, threshold: nil, laterReadOnlyThreshold: nil, chainThreshold: nil, checkedChainThreshold: nil,
        afterFailureThreshold: nil)

    /// The variables that override the thresholds for experiments: a number between 0 and 1, or
    /// `off` for the model's own choice.
    public static let environmentVariable = "TRAILHEAD_READ_ONLY_CALL_THRESHOLD"
    public static let sideEffectsVariable = "TRAILHEAD_CALL_THRESHOLD"
    public static let laterVariable = "TRAILHEAD_LATER_CALL_THRESHOLD"
    public static let chainVariable = "TRAILHEAD_CHAIN_THRESHOLD"
    public static let checkedChainVariable = "TRAILHEAD_CHECKED_CHAIN_THRESHOLD"
    public static let afterFailureVariable = "TRAILHEAD_AFTER_FAILURE_CALL_THRESHOLD"

    /// `standard`, with the variables applied when they are set and valid.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ToolDecision {
        var decision = ToolDecision.standard
        func read(_ name: String, into threshold: WritableKeyPath<ToolDecision, Double?>) {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return }
            if value.lowercased() == "off" {
                decision[keyPath: threshold] = nil
            } else if let number = Double(value), (0...1).contains(number) {
                decision[keyPath: threshold] = number
            }
        }
        read(environmentVariable, into: \.readOnlyThreshold)
        read(sideEffectsVariable, into: \.threshold)
        read(laterVariable, into: \.laterReadOnlyThreshold)
        read(chainVariable, into: \.chainThreshold)
        read(checkedChainVariable, into: \.checkedChainThreshold)
        read(afterFailureVariable, into: \.afterFailureThreshold)
        return decision
    }

    /// The threshold for a call of any tool offered at a moment: at a response's first turn, at a
    /// later one (read-only tools only; a tool with side effects is the model's choice there), or
    /// right after a turn whose calls all failed (as at the first turn, read-only tools at
    /// `afterFailureThreshold`).
    public func threshold(at moment: Moment) -> Double? {
        if moment.afterFailure, let afterFailureThreshold { return moment.allReadOnly ? afterFailureThreshold : threshold }
        guard moment.later else { return moment.allReadOnly ? readOnlyThreshold : threshold }
        return moment.allReadOnly ? laterReadOnlyThreshold : nil
    }

    /// The threshold for a call of the read-only tools alone when tools with side effects are
    /// offered beside them: at the first turn, and right after a failed one.
    func readOnlyAloneThreshold(at moment: Moment) -> Double? {
        if moment.afterFailure, let afterFailureThreshold { return afterFailureThreshold }
        return moment.later ? nil : readOnlyThreshold
    }

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

    /// The text of a chain of `links` calls up to the end of the last call's arguments: where the
    /// model chooses between closing the chain (`}`) and another call. `nil` when the text does
    /// not end in the chain's closing braces.
    public static func chainEnd(_ text: String, links: Int) -> String? {
        var end = Substring(text)
        for _ in 0..<links {
            while end.last?.isWhitespace == true { end = end.dropLast() }
            guard end.hasSuffix("}") else { return nil }
            end = end.dropLast()
        }
        return String(end)
    }

    /// The share of another call, from the candidates for the token after a call's arguments: a
    /// token that begins with `,` (`,"and"`) or `},` (the model's own habit, a list of calls:
    /// `},{"name"…`) continues; one that begins with `}` otherwise closes. `nil` when no
    /// candidate does either.
    ///
    /// On BFCL's `parallel` and `parallel_multiple` cases that ended after one call under the
    /// grammar and needed more, the model's share of continuing was 0.99 or more in 24 of 30 (it
    /// wanted `},{"` — another call in a list — which the chain's grammar does not allow), and
    /// 0.25–0.96 in most of the rest; on `simple_python` cases right with one call, 0.01–0.40.
    public static func chainContinuation(_ candidates: [TokenProbability]) -> Double? {
        var more = 0.0, close = 0.0
        for candidate in candidates {
            let token = candidate.token.drop { $0 == " " }
            if token.hasPrefix(",") || token.hasPrefix("},") {
                more += candidate.probability
            } else if token.hasPrefix("}") {
                close += candidate.probability
            }
        }
        guard more + close > 0 else { return nil }
        return more / (more + close)
    }

    /// How a chain whose end had a share of another call is continued.
    public enum ChainContinuation: Sendable, Equatable {
        /// The chain ends as the model ended it.
        case ends
        /// The turn is asked again one call longer; `checked`: the added call is kept only when
        /// `AddedCallGrounding` finds it brings a new value of the conversation's.
        case askAgain(checked: Bool)
    }

    /// How a chain whose end had this share of another call is continued.
    public func continuesChain(_ continuation: Double?) -> ChainContinuation {
        guard let continuation else { return .ends }
        if let chainThreshold, continuation >= chainThreshold { return .askAgain(checked: false) }
        if let checkedChainThreshold, continuation >= checkedChainThreshold { return .askAgain(checked: true) }
        return .ends
    }

    /// Whether any chain end is asked about (else its probabilities are not asked).
    var asksAboutChainEnds: Bool { chainThreshold != nil || checkedChainThreshold != nil }

    /// What the first decision comes to.
    public enum Outcome: Sendable, Equatable {
        /// The step schema is left as it is: the model chooses.
        case modelsChoice
        /// A call: the turn offers no answer, and only `tools` when given (else every tool offered).
        case call(only: [String]?)
    }

    /// What the decision at `moment` comes to, given the call's share of the probability.
    public func decide(callProbability: Double, at moment: Moment) -> Outcome {
        if let threshold = threshold(at: moment), callProbability >= threshold { return .call(only: nil) }
        // Mixed: the read-only tools alone, for a call the model would not make on its own.
        if !moment.allReadOnly, !moment.readOnly.isEmpty, let alone = readOnlyAloneThreshold(at: moment), callProbability >= alone,
            callProbability < threshold ?? 0.5
        {
            return .call(only: moment.readOnly)
        }
        return .modelsChoice
    }

    /// Whether any decision at `moment` could go to a call (else the probabilities are not asked).
    public func mayCommit(at moment: Moment) -> Bool {
        guard !moment.offered.isEmpty else { return false }
        return threshold(at: moment) != nil || (readOnlyAloneThreshold(at: moment) != nil && !moment.readOnly.isEmpty)
    }
}
