/// Wording of validation messages: one line, what was expected and what came instead, with
/// values quoted as JSON and cut short so a message stays readable for a model.
enum Describe {
    static func brief(_ value: GeneratedContent, limit: Int = 60) -> String {
        let text = value.jsonString
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }

    static func number(_ n: Double) -> String { GeneratedContent.format(n) }

    /// "1 item", "3 items"
    static func count(_ n: Int, _ singular: String, _ plural: String) -> String {
        "\(n) \(n == 1 ? singular : plural)"
    }

    static func typeMismatch(_ types: JSONTypeSet, _ value: GeneratedContent) -> String {
        let expected = types.names.joined(separator: " or ")
        if case .number(let n) = value, types.contains(.integer) {
            return "expected \(expected), got \(number(n))"
        }
        return "expected \(expected), got \(value.typeName)"
    }

    static func enumMismatch(_ options: [GeneratedContent], _ value: GeneratedContent) -> String {
        if options.count == 1 { return "expected \(brief(options[0])), got \(brief(value))" }
        if options.isEmpty { return "no value is allowed (the enum is empty), got \(brief(value))" }
        let shown = options.prefix(20).map { brief($0, limit: 40) }.joined(separator: ", ")
        let more = options.count > 20 ? ", … (\(options.count) values)" : ""
        return "expected one of \(shown)\(more), got \(brief(value))"
    }

    static func itemCount(min: Int?, max: Int?, got: Int) -> String {
        let expected: String
        switch (min, max) {
        case (let lo?, let hi?) where lo == hi: expected = "exactly \(count(lo, "item", "items"))"
        case (let lo?, let hi?): expected = "\(lo) to \(hi) items"
        case (let lo?, nil): expected = "at least \(count(lo, "item", "items"))"
        case (nil, let hi?): expected = "at most \(count(hi, "item", "items"))"
        case (nil, nil): expected = "a different number of items"
        }
        return "expected \(expected), got \(got)"
    }

    static func unexpectedProperty(_ key: String, allowed: [String]) -> String {
        let quotedKey = brief(.string(key))
        if allowed.isEmpty { return "unexpected property \(quotedKey); no properties are allowed" }
        let list = allowed.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ")
        return "unexpected property \(quotedKey); allowed: \(list)\(allowed.count > 20 ? ", …" : "")"
    }
}

/// Picks the alternative of a failed `anyOf`/`oneOf` to blame. An alternative whose type does
/// not fit the value, or whose `const`/`enum` fails on the value or one of its members (a
/// discriminator such as `"tool": "calendar"`), is probably not the one meant. Among the others,
/// the one missing fewest required members of the value itself, then with fewest violations,
/// wins, if it is alone; otherwise nobody is blamed and the caller summarises.
enum AlternativeRanking {
    static func closest(_ outcomes: [[SchemaViolation]], at here: String) -> Int? {
        func depth(_ v: SchemaViolation) -> Int? {
            guard v.instancePointer.hasPrefix(here) else { return nil }
            return v.instancePointer.dropFirst(here.count).filter { $0 == "/" }.count
        }
        func keyword(_ v: SchemaViolation) -> Substring { v.schemaPointer.split(separator: "/").last ?? "" }
        func disqualifies(_ v: SchemaViolation) -> Bool {
            guard let depth = depth(v) else { return false }
            switch keyword(v) {
            case "type": return depth == 0
            case "const", "enum": return depth <= 1
            default: return false
            }
        }
        func score(_ i: Int) -> (missing: Int, total: Int) {
            (outcomes[i].filter { keyword($0) == "required" && depth($0) == 0 }.count, outcomes[i].count)
        }
        let plausible = outcomes.indices.filter { !outcomes[$0].contains(where: disqualifies) }
        guard let best = plausible.min(by: { score($0) < score($1) }) else { return nil }
        let ties = plausible.filter { score($0) == score(best) }
        return ties.count == 1 ? best : nil
    }
}
