import TrailheadSchema
import TrailheadSupport

/// Random schemas of the grammar's exact subset, valid instances of them, and mutations.
struct RandomSchemas {
    var rng: SeededRandom

    /// Patterns we use, each with a generator of matching strings.
    static let patterns: [(String, @Sendable (inout SeededRandom) -> String)] = [
        (#"^\d{4}-\d{2}-\d{2}$"#, { r in "\(Int.random(in: 1000...9999, using: &r))-\(Int.random(in: 10...99, using: &r))-0\(Int.random(in: 1...9, using: &r))" }),
        ("^[a-z]{1,5}$", { r in String((0..<Int.random(in: 1...5, using: &r)).map { _ in "abcxyz".randomElement(using: &r)! }) }),
        ("^(am|pm)$", { r in Bool.random(using: &r) ? "am" : "pm" }),
        ("^[A-Z][a-z]*$", { r in "Q" + String(repeating: "u", count: Int.random(in: 0...3, using: &r)) }),
        ("[0-9]", { r in "x\(Int.random(in: 0...9, using: &r))y" }),
    ]

    static let alphabet: [Character] = ["a", "b", " ", "\"", "\\", "\n", "é", "😀", "Z", "/"]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    mutating func string(length: ClosedRange<Int>) -> String {
        String((0..<int(length)).map { _ in Self.alphabet.randomElement(using: &rng)! })
    }

    /// A schema; `depth` bounds nesting. `defs` names available `$defs`.
    mutating func schema(depth: Int, defs: [String] = []) -> GeneratedContent {
        let leafKinds = ["null", "boolean", "string", "stringLength", "pattern", "integer", "range", "number", "enum", "const"]
        let kinds = depth <= 0 ? leafKinds : leafKinds + ["array", "tuple", "object", "object", "anyOf"] + (defs.isEmpty ? [] : ["ref"])
        switch kinds.randomElement(using: &rng)! {
        case "null": return ["type": "null"]
        case "boolean": return ["type": "boolean"]
        case "string": return ["type": "string"]
        case "stringLength":
            let low = int(0...3)
            return ["type": "string", "minLength": .number(Double(low)), "maxLength": .number(Double(low + int(0...4)))]
        case "pattern": return ["type": "string", "pattern": .string(Self.patterns.randomElement(using: &rng)!.0)]
        case "integer": return ["type": "integer"]
        case "range":
            let low = int(-300...300)
            var s: JSONObject = ["type": "integer"]
            if chance(0.8) { s["minimum"] = .number(Double(low)) }
            if chance(0.8) { s["maximum"] = .number(Double(low + int(0...2000))) }
            return .object(s)
        case "number": return ["type": "number"]
        case "enum": return ["enum": .array((0..<int(1...4)).map { _ in constant() })]
        case "const": return ["const": constant()]
        case "array":
            var s: JSONObject = ["type": "array", "items": schema(depth: depth - 1, defs: defs)]
            let low = int(0...2)
            if chance(0.5) { s["minItems"] = .number(Double(low)) }
            if chance(0.5) { s["maxItems"] = .number(Double(low + int(0...3))) }
            return .object(s)
        case "tuple":
            var s: JSONObject = ["type": "array", "prefixItems": .array((0..<int(1...3)).map { _ in schema(depth: depth - 1, defs: defs) })]
            s["items"] = chance(0.5) ? false : schema(depth: depth - 1, defs: defs)
            if chance(0.5) { s["minItems"] = .number(Double(int(0...2))) }
            return .object(s)
        case "object":
            var properties = JSONObject()
            var required: [GeneratedContent] = []
            // Additional members: none, any, or of a schema (names needing escapes only when none).
            let additional: GeneratedContent = [false, false, true, schema(depth: 0)][int(0...3)]
            let names = ["id", "name", "days", "x y", "zz", "n", "é"] + (additional == false ? ["quote\"d"] : [])
            for i in 0..<int(0...4) {
                let name = names.randomElement(using: &rng)! + (chance(0.7) ? "\(i)" : "")
                if properties[name] != nil { continue }
                properties[name] = schema(depth: depth - 1, defs: defs)
                if chance(0.5) { required.append(.string(name)) }
            }
            return ["type": "object", "properties": .object(properties), "required": .array(required), "additionalProperties": additional]
        case "anyOf":
            return ["anyOf": .array((0..<int(1...3)).map { _ in schema(depth: depth - 1, defs: defs) })]
        case "ref": return ["$ref": .string("#/$defs/" + defs.randomElement(using: &rng)!)]
        default: fatalError()
        }
    }

    mutating func constant() -> GeneratedContent {
        switch int(0...5) {
        case 0: return .string(string(length: 0...4))
        case 1: return .number(Double(int(-50...50)))
        case 2: return .bool(chance(0.5))
        case 3: return .null
        case 4: return .array([.number(Double(int(0...3))), .string("k")])
        default: return ["k": .number(Double(int(0...3)))]
        }
    }

    /// A root schema with one `$def` used by references.
    mutating func rootSchema() -> GeneratedContent {
        let def = schema(depth: 1)
        guard case .object(var root) = schema(depth: 3, defs: ["d0"]) else { return def }
        root["$defs"] = ["d0": def]
        return .object(root)
    }

    /// A valid instance of `schema` (nil when the schema happens to be unsatisfiable).
    mutating func instance(of schema: GeneratedContent, root: GeneratedContent) -> GeneratedContent? {
        guard case .object(let s) = schema else { return schema == true ? .null : nil }
        if case .string(let ref)? = s["$ref"] {
            return instance(of: root["$defs"]?[String(ref.split(separator: "/").last!)] ?? true, root: root)
        }
        if let c = s["const"] { return c }
        if case .array(let values)? = s["enum"] { return values.randomElement(using: &rng) }
        if case .array(let branches)? = s["anyOf"] {
            for branch in branches.shuffled(using: &rng) { if let v = instance(of: branch, root: root) { return v } }
            return nil
        }
        switch s["type"]?.stringValue {
        case "null": return .null
        case "boolean": return .bool(chance(0.5))
        case "string":
            if case .string(let pattern)? = s["pattern"] { return .string(Self.patterns.first { $0.0 == pattern }!.1(&rng)) }
            let low = s["minLength"]?.intValue ?? 0
            return .string(string(length: low...(s["maxLength"]?.intValue ?? low + 6)))
        case "integer":
            let low = s["minimum"]?.intValue ?? (s["maximum"]?.intValue.map { $0 - 500 } ?? -500)
            let high = s["maximum"]?.intValue ?? low + 1000
            return .number(Double(int(low...high)))
        case "number": return .number([0.5, -2.25, 3, 1e-05, 1.5e20, 0][int(0...5)])
        case "array":
            var out: [GeneratedContent] = []
            let prefix = s["prefixItems"]?.arrayValue ?? []
            let low = s["minItems"]?.intValue ?? 0
            let high = s["maxItems"]?.intValue ?? max(low, prefix.count) + 2
            var count = int(low...max(low, high))
            if s["items"] == false { count = min(count, prefix.count) }
            for i in 0..<count {
                guard let v = instance(of: i < prefix.count ? prefix[i] : (s["items"] ?? true), root: root) else { return nil }
                out.append(v)
            }
            return out.count >= low ? .array(out) : nil
        case "object":
            var out = JSONObject()
            let required = Set(s["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            for (name, propertySchema) in s["properties"]?.objectValue ?? [:] where required.contains(name) || chance(0.6) {
                guard let v = instance(of: propertySchema, root: root) else {
                    if required.contains(name) { return nil }
                    continue
                }
                out[name] = v
            }
            if let additional = s["additionalProperties"], additional != false, chance(0.5) {
                let name = ["extra", "zz", "id", "n"].randomElement(using: &rng)!
                if out[name] == nil, s["properties"]?[name] == nil, let v = instance(of: additional, root: root) { out[name] = v }
            }
            return .object(out)
        default: return .null
        }
    }

    /// `value` with one random change somewhere inside (it may or may not still be valid).
    mutating func mutate(_ value: GeneratedContent) -> GeneratedContent {
        switch value {
        case .array(var a) where !a.isEmpty && chance(0.6):
            switch int(0...2) {
            case 0: let i = int(0...(a.count - 1)); a[i] = mutate(a[i])
            case 1: a.removeLast()
            default: a.append(a[0])
            }
            return .array(a)
        case .object(var o) where !o.isEmpty && chance(0.6):
            let key = o.keys[int(0...(o.count - 1))]
            switch int(0...2) {
            case 0: o[key] = mutate(o[key]!)
            case 1: o[key] = nil
            default: o["zz"] = 1
            }
            return .object(o)
        case .string(let s) where chance(0.5):
            return .string(chance(0.5) ? s + "a" : String(s.dropFirst()))
        case .number(let n) where chance(0.5):
            return .number([n + 1, n - 1, n * 10, n + 0.5, -n][int(0...4)])
        default:
            return [.null, .bool(true), .number(7), .string("x"), .array([]), .object([:]), constant()][int(0...6)]
        }
    }
}
