/// Puts a member's guides into its recorded schema, refusing a guide that does not fit the member.
struct GuideApplication {
    let site: SchemaRecorder.Site
    let recorder: SchemaRecorder

    func apply(_ guides: [Guide], to node: JSONObject) throws -> JSONObject {
        var node = node
        for guide in guides { node = try apply(guide, to: node) }
        return node
    }

    private func apply(_ guide: Guide, to node: JSONObject) throws -> JSONObject {
        // A member decoded as an explicit Optional (`anyOf` it or null): the guide is about its value.
        if let alternatives = node["anyOf"]?.arrayValue, alternatives.count == 2, alternatives[1] == ["type": "null"],
            let value = alternatives[0].objectValue
        {
            var node = node
            node["anyOf"] = [.object(try apply(guide, to: value)), ["type": "null"]]
            return node
        }
        var node = node
        let type = node["type"]?.stringValue
        switch guide.kind {
        case .description(let text):
            return Self.described(node, text)
        case .schema:
            return node  // already the member's schema (see NodeCollector)
        case .anyOf(let values):
            try expect(type == "string", guide, "a string", node)
            if let cases = node["enum"]?.arrayValue {
                let unknown = values.filter { !cases.contains(.string($0)) }
                guard unknown.isEmpty else {
                    throw recorder.refuse(site, ".anyOf names values the enum does not have: \(unknown.joined(separator: ", "))")
                }
            }
            node["enum"] = .array(values.map { .string($0) })
        case .pattern(let regex):
            try expect(type == "string" && node["enum"] == nil, guide, "a string", node)
            node["pattern"] = .string(regex)
        case .words(let words, let wordLength, let sentence):
            try expect(type == "string" && node["enum"] == nil, guide, "a string", node)
            node["pattern"] = .string(SchemaBuilder.textPattern(words: words, wordLength: wordLength, endsSentence: sentence))
        case .count(let minimum, let maximum):
            try expect(type == "array", guide, "an array", node)
            if let minimum { node["minItems"] = .number(Double(minimum)) }
            if let maximum { node["maxItems"] = .number(Double(maximum)) }
        case .range(let minimum, let maximum):
            try expect(type == "integer" || type == "number", guide, "a number", node)
            if type == "integer", [minimum, maximum].contains(where: { $0.map { !$0.isWholeNumber } ?? false }) {
                throw recorder.refuse(site, "an integer's range needs whole bounds")
            }
            if let minimum { node["minimum"] = .number(minimum) }
            if let maximum { node["maximum"] = .number(maximum) }
        case .exclusiveRange(let minimum, let maximum):
            try expect(type == "integer" || type == "number", guide, "a number", node)
            if let minimum { node["exclusiveMinimum"] = .number(minimum) }
            if let maximum { node["exclusiveMaximum"] = .number(maximum) }
        case .length(let minimum, let maximum):
            try expect(type == "string" && node["enum"] == nil, guide, "a string", node)
            if let minimum { node["minLength"] = .number(Double(minimum)) }
            if let maximum { node["maxLength"] = .number(Double(maximum)) }
        case .defaultValue(let value):
            node["default"] = value
        case .element(let guides):
            try expect(type == "array", guide, "an array", node)
            let items = node["items"]?.objectValue ?? [:]
            node["items"] = .object(try GuideApplication(site: .init(owner: site.owner, member: site.member + "[]"), recorder: recorder)
                .apply(guides, to: items))
        }
        return node
    }

    private func expect(_ fits: Bool, _ guide: Guide, _ needed: String, _ node: JSONObject) throws {
        guard !fits else { return }
        throw recorder.refuse(site, "a \(guide.name) guide needs \(needed), but the member is \(Self.kind(of: node))")
    }

    /// What a recorded node holds, in words ("an array", "an enum").
    private static func kind(of node: JSONObject) -> String {
        if node["$ref"] != nil { return "a reference to a recursive type" }
        if node["enum"] != nil { return "an enum" }
        switch node["type"]?.stringValue {
        case "array"?: return "an array"
        case "object"?: return "an object"
        case "integer"?: return "an integer"
        case let type?: return "a \(type)"
        case nil: return "of no one type"
        }
    }

    /// `node` with a description, placed after its type as `SchemaBuilder` writes it.
    static func described(_ node: JSONObject, _ text: String) -> JSONObject {
        var result = JSONObject()
        if let type = node["type"] { result["type"] = type }
        result["description"] = .string(text)
        for (key, value) in node where key != "type" && key != "description" { result[key] = value }
        return result
    }
}

extension Guide {
    /// How the guide is written, for messages (".count").
    var name: String {
        switch kind {
        case .description: ".description"
        case .anyOf: ".anyOf"
        case .count: ".count"
        case .range: ".range"
        case .exclusiveRange: ".exclusiveMinimum"
        case .length: ".maximumLength"
        case .defaultValue: ".defaultValue"
        case .pattern: ".pattern"
        case .words(_, _, let sentence): sentence ? ".sentence" : ".words"
        case .element: ".element"
        case .schema: ".schema"
        }
    }
}
