import TrailheadSchema

extension GBNFCompiler {
    /// `{…}` with the declared properties in order (required ones always, optional ones when
    /// present) and, when allowed, additional members after them.
    mutating func object(_ schema: JSONObject, at pointer: String) throws(GrammarError) -> String? {
        for keyword in ["minProperties", "maxProperties"] where schema[keyword] != nil {
            approximate(pointer + "/" + keyword, "\(keyword) is left to validation")
        }
        var declared: [(name: String, schema: GeneratedContent)] = []
        if let properties = schema["properties"] {
            guard case .object(let members) = properties else {
                throw GrammarError(pointer: pointer + "/properties", message: "properties must be an object")
            }
            declared = members.map { ($0.key, $0.value) }
        }
        let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let additional = schema["additionalProperties"] ?? .bool(true)
        // A required name without a declared schema is governed by additionalProperties.
        for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where !declared.contains(where: { $0.name == name }) {
            declared.append((name, additional))
        }
        if declared.isEmpty && additional == .bool(true) { return primitive(.object) }

        // Each member: its key literal and value expression (nil: it may not appear).
        var members: [(expression: String?, required: Bool)] = []
        for (name, propertySchema) in declared {
            let value = try expression(for: propertySchema, at: pointer + "/properties/" + name)
            let isRequired = required.contains(name)
            if value == nil && isRequired { return nil }
            members.append((value.map { GBNFText.literal(GeneratedContent.string(name).jsonString + ":") + " " + $0 }, isRequired))
        }
        var extra: String?
        if additional != .bool(false), let value = try expression(for: additional, at: pointer + "/additionalProperties") {
            var key = primitive(.string)
            if !declared.isEmpty {
                if let excluding = keyExcluding(declared.map(\.name), at: pointer) {
                    key = excluding
                } else {
                    approximate(pointer + "/additionalProperties", "an additional member may repeat a declared name that needs escaping")
                }
            }
            extra = addRule(pointer + "-additional", "\(key) \":\" \(value)")
        }
        members.removeAll { $0.expression == nil }

        // first(i): members i… when none was written yet (no comma); rest(i): after one was.
        var rest: [String] = Array(repeating: "", count: members.count + 1)
        var first: [String?] = Array(repeating: nil, count: members.count + 1)
        rest[members.count] = extra.map { "(\",\" \($0))*" } ?? ""
        first[members.count] = extra.map { "(\($0) (\",\" \($0))*)?" } ?? ""
        for i in stride(from: members.count - 1, through: 0, by: -1) {
            let member = members[i].expression!
            let after = rest[i + 1].isEmpty ? "" : " " + rest[i + 1]
            let withThis = member + after
            if members[i].required {
                rest[i] = "\",\" " + withThis
                first[i] = withThis
            } else {
                rest[i] = "(\",\" \(member))?" + after
                let skip = first[i + 1] ?? ""
                first[i] = skip.isEmpty ? "(\(withThis))?" : "(\(withThis) | \(skip))"
            }
            // Keep the grammar linear in the number of members: name long tails.
            if rest[i].count > 80 { rest[i] = addRule(pointer + "-rest-\(i)", rest[i]) }
            if let f = first[i], f.count > 80 { first[i] = addRule(pointer + "-members-\(i)", f) }
        }
        let inner = first[0] ?? ""
        return addRule(pointer + "-object", "\"{\" " + (inner.isEmpty ? "" : inner + " ") + "\"}\"")
    }

    /// `[…]` with `prefixItems` in place, then `items`, within `minItems…maxItems`.
    mutating func array(_ schema: JSONObject, at pointer: String) throws(GrammarError) -> String? {
        if schema["uniqueItems"] == .bool(true) { approximate(pointer + "/uniqueItems", "uniqueItems is left to validation") }
        var prefix: [String?] = []
        if let prefixItems = schema["prefixItems"] {
            guard case .array(let list) = prefixItems else {
                throw GrammarError(pointer: pointer + "/prefixItems", message: "prefixItems must be an array of schemas")
            }
            for (i, item) in list.enumerated() { prefix.append(try expression(for: item, at: pointer + "/prefixItems/\(i)")) }
        }
        let items = try expression(for: schema["items"] ?? .bool(true), at: pointer + "/items")
        let minItems = schema["minItems"]?.intValue ?? 0
        let maxItems = schema["maxItems"]?.intValue
        if schema["prefixItems"] == nil && minItems == 0 && maxItems == nil && schema["items"] == nil {
            return primitive(.array)
        }
        var options: [String] = []
        // Arrays that end inside the prefix: lengths 0…prefix.count-1.
        var elements: [String] = []
        for length in 0...prefix.count {
            let inRange = length >= minItems && maxItems.map { length <= $0 } ?? true
            if length < prefix.count {
                if inRange { options.append(list(elements)) }
                guard let element = prefix[length] else { break }
                elements.append(element)
                continue
            }
            // The whole prefix is there: then `items`, as many as the bounds allow.
            let low = max(0, minItems - prefix.count)
            let high = maxItems.map { $0 - prefix.count }
            if let high, high < low { break }
            guard let items else {
                if low == 0 { options.append(list(elements)) }
                break
            }
            options.append(list(elements, repeating: items, low: low, high: high))
        }
        guard let body = GBNFText.alternatives(options) else { return nil }
        return addRule(pointer + "-array", body)
    }

    /// `[e0,e1,…]` followed by `low…high` more of `repeating` (all comma-separated).
    private func list(_ elements: [String], repeating: String? = nil, low: Int = 0, high: Int? = 0) -> String {
        var parts = elements.enumerated().map { $0.offset == 0 ? $0.element : "\",\" " + $0.element }
        if let repeating, high != 0 {
            if elements.isEmpty {
                // The first repeated element has no comma before it.
                let tailHigh = high.map { $0 - 1 }
                let tail = tailHigh == 0 ? "" : " (\",\" \(repeating))" + Self.count(max(0, low - 1), tailHigh)
                let group = repeating + tail
                parts.append(low > 0 ? group : "(\(group))?")
            } else {
                parts.append("(\",\" \(repeating))" + Self.count(low, high))
            }
        }
        return (["\"[\""] + parts + ["\"]\""]).joined(separator: " ")
    }

    private static func count(_ low: Int, _ high: Int?) -> String {
        switch (low, high) {
        case (0, nil): "*"
        case (1, nil): "+"
        case (0, 1?): "?"
        case (let l, let h?) where l == h: "{\(l)}"
        case (let l, let h?): "{\(l),\(h)}"
        case (let l, nil): "{\(l),}"
        }
    }
}
