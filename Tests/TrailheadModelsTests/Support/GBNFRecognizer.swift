import Foundation

/// A GBNF recogniser of our own, for tests: parses grammar text (llama.cpp's GBNF: literals,
/// classes, rule references, groups, `* + ? {m} {m,} {m,n}`, alternation) and decides with an
/// Earley parser whether a text is in the language of `root`. Independent of the compiler:
/// it reads only the text the compiler produced.
struct GBNFRecognizer {
    struct ParseError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// A terminal: one Unicode scalar in (or, negated, outside) some ranges.
    struct CharSet {
        var ranges: [ClosedRange<UInt32>]
        var negated: Bool
        func matches(_ s: UInt32) -> Bool { ranges.contains { $0.contains(s) } != negated }
    }

    enum Symbol {
        case nonterminal(Int)
        case terminal(CharSet)
    }

    private(set) var productions: [(lhs: Int, rhs: [Symbol])] = []
    private var byLHS: [Int: [Int]] = [:]
    private var ruleIDs: [String: Int] = [:]
    private var nonterminalCount = 0
    private var nullable: Set<Int> = []
    private let start: Int

    init(_ text: String) throws {
        var definitions: [(String, String)] = []
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let range = line.range(of: " ::= ") else { throw ParseError(message: "not a rule: \(line)") }
            definitions.append((String(line[..<range.lowerBound]), String(line[range.upperBound...])))
        }
        for (name, _) in definitions {
            guard ruleIDs[name] == nil else { throw ParseError(message: "rule \(name) defined twice") }
            ruleIDs[name] = nonterminalCount
            nonterminalCount += 1
        }
        guard let root = ruleIDs["root"] else { throw ParseError(message: "no root rule") }
        start = root
        for (name, body) in definitions {
            var parser = BodyParser(scalars: Array(body.unicodeScalars))
            let alternatives = try parser.alternatives(&self)
            guard parser.atEnd else { throw ParseError(message: "rule \(name): trailing text at \(parser.index): \(body)") }
            for alternative in alternatives { add(ruleIDs[name]!, alternative) }
        }
        computeNullable()
    }

    fileprivate mutating func newNonterminal() -> Int {
        nonterminalCount += 1
        return nonterminalCount - 1
    }

    fileprivate mutating func add(_ lhs: Int, _ rhs: [Symbol]) {
        byLHS[lhs, default: []].append(productions.count)
        productions.append((lhs, rhs))
    }

    fileprivate func rule(_ name: String) throws -> Int {
        guard let id = ruleIDs[name] else { throw ParseError(message: "undefined rule \(name)") }
        return id
    }

    private mutating func computeNullable() {
        var changed = true
        while changed {
            changed = false
            for (lhs, rhs) in productions where !nullable.contains(lhs) {
                if rhs.allSatisfy({ if case .nonterminal(let n) = $0 { nullable.contains(n) } else { false } }) {
                    nullable.insert(lhs)
                    changed = true
                }
            }
        }
    }

    /// Whether `text` is in the language of `root`.
    func accepts(_ text: String) -> Bool {
        let input = text.unicodeScalars.map(\.value)
        let n = input.count
        // An item is (production, dot, origin), packed into one Int for the sets.
        struct Item: Hashable { var production: Int; var dot: Int; var origin: Int }
        var chart: [[Item]] = Array(repeating: [], count: n + 1)
        var seen: [Set<Item>] = Array(repeating: [], count: n + 1)
        func add(_ item: Item, _ i: Int) {
            if seen[i].insert(item).inserted { chart[i].append(item) }
        }
        for p in byLHS[start] ?? [] { add(Item(production: p, dot: 0, origin: 0), 0) }
        for i in 0...n {
            var k = 0
            while k < chart[i].count {
                let item = chart[i][k]
                k += 1
                let rhs = productions[item.production].rhs
                if item.dot < rhs.count {
                    switch rhs[item.dot] {
                    case .nonterminal(let nt):
                        for p in byLHS[nt] ?? [] { add(Item(production: p, dot: 0, origin: i), i) }
                        if nullable.contains(nt) { add(Item(production: item.production, dot: item.dot + 1, origin: item.origin), i) }
                    case .terminal(let set):
                        if i < n, set.matches(input[i]) {
                            add(Item(production: item.production, dot: item.dot + 1, origin: item.origin), i + 1)
                        }
                    }
                } else {
                    let lhs = productions[item.production].lhs
                    for waiting in chart[item.origin] {
                        let wrhs = productions[waiting.production].rhs
                        if waiting.dot < wrhs.count, case .nonterminal(let nt) = wrhs[waiting.dot], nt == lhs {
                            add(Item(production: waiting.production, dot: waiting.dot + 1, origin: waiting.origin), i)
                        }
                    }
                }
            }
            if i < n && chart[i + 1].isEmpty { return false }
        }
        return chart[n].contains { $0.origin == 0 && productions[$0.production].lhs == start && $0.dot == productions[$0.production].rhs.count }
    }
}

/// Reads one rule body into productions, adding helper nonterminals for groups and repetition.
private struct BodyParser {
    let scalars: [Unicode.Scalar]
    var index = 0
    var atEnd: Bool {
        mutating get {
            skipSpace()
            return index == scalars.count
        }
    }

    mutating func skipSpace() { while index < scalars.count, scalars[index] == " " { index += 1 } }

    mutating func alternatives(_ g: inout GBNFRecognizer) throws -> [[GBNFRecognizer.Symbol]] {
        var result = [try sequence(&g)]
        skipSpace()
        while index < scalars.count, scalars[index] == "|" {
            index += 1
            result.append(try sequence(&g))
            skipSpace()
        }
        return result
    }

    mutating func sequence(_ g: inout GBNFRecognizer) throws -> [GBNFRecognizer.Symbol] {
        var symbols: [GBNFRecognizer.Symbol] = []
        while true {
            skipSpace()
            guard index < scalars.count, scalars[index] != "|", scalars[index] != ")" else { return symbols }
            let atom = try self.atom(&g)
            symbols += try repeated(atom, &g)
        }
    }

    private mutating func repeated(_ atom: [GBNFRecognizer.Symbol], _ g: inout GBNFRecognizer) throws -> [GBNFRecognizer.Symbol] {
        guard index < scalars.count else { return atom }
        var low = 1, high: Int? = 1
        switch scalars[index] {
        case "*": (low, high) = (0, nil); index += 1
        case "+": (low, high) = (1, nil); index += 1
        case "?": (low, high) = (0, 1); index += 1
        case "{":
            let close = scalars[index...].firstIndex(of: "}")!
            let inside = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
            let parts = inside.split(separator: ",", omittingEmptySubsequences: false)
            low = Int(parts[0])!
            high = parts.count == 1 ? low : (parts[1].isEmpty ? nil : Int(parts[1])!)
            index = close + 1
        default: return atom
        }
        var out: [GBNFRecognizer.Symbol] = []
        for _ in 0..<low { out += atom }
        if let high {
            // Nested optionals: O_k → ε | atom O_{k-1}.
            var tail: Int? = nil
            for _ in 0..<(high - low) {
                let o = g.newNonterminal()
                g.add(o, [])
                g.add(o, atom + (tail.map { [.nonterminal($0)] } ?? []))
                tail = o
            }
            if let tail { out.append(.nonterminal(tail)) }
        } else {
            let r = g.newNonterminal()
            g.add(r, [])
            g.add(r, atom + [.nonterminal(r)])
            out.append(.nonterminal(r))
        }
        return out
    }

    private mutating func atom(_ g: inout GBNFRecognizer) throws -> [GBNFRecognizer.Symbol] {
        let c = scalars[index]
        switch c {
        case "\"":
            index += 1
            var out: [GBNFRecognizer.Symbol] = []
            while scalars[index] != "\"" {
                let s = try escapedScalar()
                out.append(.terminal(.init(ranges: [s...s], negated: false)))
            }
            index += 1
            return out
        case "[":
            index += 1
            var negated = false
            if scalars[index] == "^" { negated = true; index += 1 }
            var ranges: [ClosedRange<UInt32>] = []
            while scalars[index] != "]" {
                let low = try escapedScalar()
                var high = low
                if scalars[index] == "-", scalars[index + 1] != "]" {
                    index += 1
                    high = try escapedScalar()
                }
                ranges.append(low...high)
            }
            index += 1
            return [.terminal(.init(ranges: ranges, negated: negated))]
        case "(":
            index += 1
            let alternatives = try self.alternatives(&g)
            guard index < scalars.count, scalars[index] == ")" else { throw GBNFRecognizer.ParseError(message: "unclosed (") }
            index += 1
            let nt = g.newNonterminal()
            for a in alternatives { g.add(nt, a) }
            return [.nonterminal(nt)]
        default:
            var name = ""
            while index < scalars.count, scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) || scalars[index] == "-" {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            guard !name.isEmpty else { throw GBNFRecognizer.ParseError(message: "unexpected '\(c)' at \(index)") }
            return [.nonterminal(try g.rule(name))]
        }
    }

    private mutating func escapedScalar() throws -> UInt32 {
        let c = scalars[index]
        index += 1
        guard c == "\\" else { return c.value }
        let e = scalars[index]
        index += 1
        switch e {
        case "n": return 10
        case "r": return 13
        case "t": return 9
        case "x", "u", "U":
            let count = e == "x" ? 2 : (e == "u" ? 4 : 8)
            let hex = String(String.UnicodeScalarView(scalars[index..<(index + count)]))
            index += count
            guard let v = UInt32(hex, radix: 16) else { throw GBNFRecognizer.ParseError(message: "bad escape \\\(e)\(hex)") }
            return v
        case "\\", "\"", "[", "]", "-": return e.value
        default:
            // llama.cpp refuses any other escape: so do we, to catch grammars it would reject.
            throw GBNFRecognizer.ParseError(message: "unknown escape \\\(e)")
        }
    }
}
