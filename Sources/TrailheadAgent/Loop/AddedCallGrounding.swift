import Foundation
import TrailheadSchema

/// Whether the calls a turn added when it was asked again one call longer
/// (`ToolDecision.checkedChainThreshold`) bring something the conversation asked for.
///
/// Asked for one call more, the model writes one, wanted or not, and what it writes shows
/// whether one was wanted. After "a change in time of 4 seconds, then repeat with 10 seconds"
/// (BFCL's `parallel_1`) it added a third call with 14 seconds, a value nobody gave: the pattern of
/// the two calls before, extended. After "money laundering in San Francisco in 2019 and in Texas in
/// 2018" (`parallel_21`) it added San Francisco in 2018, and after "the GCD of 96 and 128 and the
/// LCM of 15 and 25" (`parallel_multiple_5`) the GCD of 15 and 25: every value given, but each
/// already used — the calls before it, mixed. So an added call is kept when it uses a value no
/// earlier call of the chain used, and each such value is one the conversation holds (the user's
/// words, the tools' results): a number written there (or its hundredth, for "5 %" written 0.05),
/// a string found there, folded as grounding folds (`Grounding.fold`). Booleans and nulls bring nothing. Otherwise the chain was
/// complete, and the turn keeps the calls the model made before it was asked again.
enum AddedCallGrounding {
    /// Why the added calls are not kept, one reason each (`tool.path: value is not in the
    /// conversation`, `tool only uses values of the calls before it`); empty when each uses a
    /// value of the conversation's that no call before it used.
    static func reasons(against added: [ToolCallRequest], after earlier: [ToolCallRequest], in conversation: String) -> [String] {
        var used: Set<GeneratedContent> = []
        for call in earlier { leaves(of: call.arguments, at: "") { used.insert($1) } }
        let text = Grounding.fold(conversation)
        let numbers = Self.numbers(in: conversation)
        func said(_ value: GeneratedContent) -> Bool {
            switch value {
            case .number(let number):
                let size = abs(number)
                return numbers.contains(size) || numbers.contains((size * 100 * 1e9).rounded() / 1e9)
            case .string(let string):
                let folded = Grounding.fold(string)
                return folded.isEmpty || text.contains(folded)
            default:
                return true
            }
        }
        var reasons: [String] = []
        for call in added {
            var new = false
            leaves(of: call.arguments, at: "") { path, value in
                switch value {
                case .bool, .null: return
                default: break
                }
                guard used.insert(value).inserted else { return }
                new = true
                if !said(value) { reasons.append("\(call.tool)\(path): \(value.jsonString) is not in the conversation") }
            }
            if !new { reasons.append("\(call.tool) only uses values of the calls before it") }
        }
        return reasons
    }

    /// What the user and the tools have said in `history`: where an added call's values must come from.
    static func conversation(_ history: [HistoryEntry]) -> String {
        history.filter {
            switch $0.source {
            case .prompt, .toolOutputs: true
            default: false
            }
        }.map(\.message.content).joined(separator: "\n")
    }

    /// Calls `body` with each scalar of `value` and its path (`.key`, `[]` for any element).
    static func leaves(of value: GeneratedContent, at path: String, _ body: (String, GeneratedContent) -> Void) {
        switch value {
        case .object(let members):
            for (key, member) in members { leaves(of: member, at: path + "." + key, body) }
        case .array(let elements):
            for element in elements { leaves(of: element, at: path + "[]", body) }
        default:
            body(path, value)
        }
    }

    /// The numbers written in `text`: digits with an optional fraction; digits grouped by commas
    /// are read both as one number ("1,000") and as a list ("5,10").
    static func numbers(in text: String) -> Set<Double> {
        var found: Set<Double> = []
        for run in text.split(whereSeparator: { !($0.isASCII && ($0.isNumber || $0 == "." || $0 == ",")) }) {
            // A sentence's full stop or comma after the number is not part of it.
            var written = run.drop { $0 == "," }
            while let last = written.last, last == "." || last == "," { written = written.dropLast() }
            if let number = Double(written.replacingOccurrences(of: ",", with: "")) { found.insert(number) }
            for part in written.split(separator: ",") { if let number = Double(part) { found.insert(number) } }
        }
        return found
    }
}
