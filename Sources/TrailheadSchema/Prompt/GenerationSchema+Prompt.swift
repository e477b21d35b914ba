extension GenerationSchema {
    /// The schema in a compact form for a prompt, not raw JSON Schema: objects as
    /// `{name: type}` (`?` marks optional members), arrays as `[type]` with their counts,
    /// constants quoted, alternatives joined by `|`, bounds and patterns in words, and
    /// descriptions as `/* … */`. A definition that is recursive or used more than once is
    /// written once, after the body, as `where name := …`, and referred to by its name.
    ///
    ///     {title: string, days: [{date: string matching /^\d{4}-\d{2}-\d{2}$/,
    ///      activities: [{name: string, category: "hike" | "viewpoint"}] 1 to 3 items}] exactly 3 items}
    public var promptDescription: String { promptDescription(describing: true) }

    /// `promptDescription`, with the schema's descriptions (`describing`) or only its shape.
    public func promptDescription(describing: Bool) -> String {
        let nodes = compiled.nodes
        var referenceCounts: [Int: Int] = [:]
        for node in nodes { if let ref = node.ref { referenceCounts[ref, default: 0] += 1 } }
        let shared = Set(referenceCounts.filter { $0.value > 1 && $0.key != 0 }.keys)
        var firstPass = PromptRenderer(nodes: nodes, named: shared, describing: describing)
        _ = firstPass.renderDocument()
        var renderer = PromptRenderer(nodes: nodes, named: shared.union(firstPass.recursive), describing: describing)
        return renderer.renderDocument()
    }
}

/// Renders compiled nodes as text. Recursion is found in a first pass (a `$ref` to a node that
/// is being rendered); the second pass names those nodes so references can refer to them.
struct PromptRenderer {
    let nodes: [SchemaNode]
    /// Nodes written once as `name := …` and referred to by name.
    let named: Set<Int>
    private(set) var recursive: Set<Int> = []
    private var stack: [Int] = []
    private var definitionQueue: [Int] = []
    /// Whether descriptions are written (as `/* … */`).
    let describing: Bool
    private static let descriptionLimit = 100

    init(nodes: [SchemaNode], named: Set<Int>, describing: Bool = true) {
        self.nodes = nodes
        self.named = named
        self.describing = describing
    }

    func label(_ index: Int) -> String {
        let pointer = nodes[index].pointer
        guard let last = JSONPointer.tokens(pointer)?.last, !last.isEmpty else { return "Root" }
        return last
    }

    mutating func renderDocument() -> String {
        var text = render(0)
        if recursive.contains(0) { text = "Root := " + text }
        var defined: Set<Int> = [0]
        var definitions: [String] = []
        while let next = definitionQueue.first {
            definitionQueue.removeFirst()
            guard defined.insert(next).inserted else { continue }
            definitions.append("\(label(next)) := \(render(next))")
        }
        return definitions.isEmpty ? text : text + "\nwhere " + definitions.joined(separator: "\nand ")
    }

    mutating func render(_ index: Int) -> String {
        if stack.contains(index) {
            recursive.insert(index)
            return label(index)
        }
        stack.append(index)
        defer { stack.removeLast() }
        return renderBody(nodes[index])
    }

    /// Past this many nested schemas a reference is written by name and defined afterwards,
    /// so a long chain of `$ref`s cannot exhaust the stack.
    static let maximumInlineDepth = 64

    /// A `$ref`: by name when the target is named (or the nesting is deep), else inline.
    private mutating func renderReference(_ target: Int) -> String {
        let inline = !named.contains(target) && !stack.contains(target) && stack.count < Self.maximumInlineDepth
        guard !inline else { return render(target) }
        if target != 0 { definitionQueue.append(target) }
        if stack.contains(target) { recursive.insert(target) }
        return label(target)
    }

    private mutating func renderBody(_ node: SchemaNode) -> String {
        if let constant = node.constant { return constant ? "any" : "nothing" }
        var parts: [String] = []
        if let ref = node.ref { parts.append(renderReference(ref)) }
        if let constValue = node.constValue {
            parts.append(Describe.brief(constValue))
        } else if let options = node.enumValues {
            parts.append(options.map { Describe.brief($0, limit: 40) }.joined(separator: " | "))
        } else if let typed = renderTypes(node) {
            parts.append(typed)
        }
        if !node.anyOf.isEmpty { parts.append(alternatives(node.anyOf, "|")) }
        if !node.oneOf.isEmpty { parts.append(alternatives(node.oneOf, "|")) }
        for branch in node.allOf { parts.append(render(branch)) }
        if let not = node.not { parts.append("not " + render(not)) }
        var text = parts.isEmpty ? "any" : parts.joined(separator: " & ")
        if let defaultValue = node.defaultValue { text += " (default \(Describe.brief(defaultValue, limit: 30)))" }
        if describing, let description = node.description ?? node.title, !description.isEmpty {
            let short = description.count > Self.descriptionLimit ? description.prefix(Self.descriptionLimit) + "…" : Substring(description)
            text += " /* \(short.replacingOccurrences(of: "*/", with: "* /")) */"
        }
        return text
    }

    private mutating func alternatives(_ branches: [Int], _ separator: String) -> String {
        let rendered = branches.map { render($0) }
        return rendered.count == 1 ? rendered[0] : "(" + rendered.joined(separator: " \(separator) ") + ")"
    }

    /// The type(s), or what the keywords imply when `type` is absent; nil when nothing constrains it.
    private mutating func renderTypes(_ node: SchemaNode) -> String? {
        var types = node.types ?? []
        if node.types == nil {
            if !node.properties.isEmpty || !node.required.isEmpty || node.additionalProperties != nil { types.insert(.object) }
            if node.items != nil || !node.prefixItems.isEmpty || node.minItems != nil || node.maxItems != nil { types.insert(.array) }
            if node.pattern != nil || node.minLength != nil || node.maxLength != nil { types.insert(.string) }
            if node.minimum != nil || node.maximum != nil || node.multipleOf != nil
                || node.exclusiveMinimum != nil || node.exclusiveMaximum != nil { types.insert(.number) }
        }
        if types.isEmpty { return nil }
        var rendered: [String] = []
        for (name, type) in JSONTypeSet.named where types.contains(type) {
            if type == .integer, types.contains(.number) { continue }
            switch type {
            case .object: rendered.append(renderObject(node))
            case .array: rendered.append(renderArray(node))
            case .string: rendered.append(renderString(node))
            case .integer, .number: rendered.append(name + Self.numericBounds(node))
            default: rendered.append(name)
            }
        }
        return rendered.joined(separator: " | ")
    }

    private mutating func renderObject(_ node: SchemaNode) -> String {
        let required = Set(node.required)
        var members = node.properties.map { name, child in
            "\(Self.key(name))\(required.contains(name) ? "" : "?"): \(render(child))"
        }
        for name in node.required where node.memberRules[name]?.child == nil { members.append("\(Self.key(name)): any") }
        if let additional = node.additionalProperties, nodes[additional].constant != false {
            members.append("...: \(render(additional))")
        }
        var text = members.isEmpty ? "object" : "{" + members.joined(separator: ", ") + "}"
        text += Self.countBounds(node.minProperties, node.maxProperties, "property", "properties")
        return text
    }

    private mutating func renderArray(_ node: SchemaNode) -> String {
        var text: String
        if node.prefixItems.isEmpty {
            text = "[" + (node.items.map { render($0) } ?? "any") + "]"
        } else {
            var elements = node.prefixItems.map { render($0) }
            if let items = node.items {
                if nodes[items].constant != false { elements.append("..." + render(items)) }
            } else {
                elements.append("...")
            }
            text = "[" + elements.joined(separator: ", ") + "]"
        }
        text += Self.countBounds(node.minItems, node.maxItems, "item", "items")
        if node.uniqueItems { text += " unique" }
        return text
    }

    private func renderString(_ node: SchemaNode) -> String {
        var text = "string"
        if let format = node.format { text += " (\(format))" }
        if let pattern = node.pattern {
            text += pattern.textShape.map { ": " + $0.description } ?? " matching /\(pattern.source)/"
        }
        text += Self.countBounds(node.minLength, node.maxLength, "char", "chars")
        return text
    }

    /// " exactly 3 items", " 1 to 3 items", " at least 1 item", " at most 5 items", or "".
    static func countBounds(_ min: Int?, _ max: Int?, _ singular: String, _ plural: String) -> String {
        switch (min, max) {
        case (let lo?, let hi?) where lo == hi: " exactly " + Describe.count(lo, singular, plural)
        case (let lo?, let hi?): " \(lo) to \(hi) \(plural)"
        case (let lo?, nil) where lo > 0: " at least " + Describe.count(lo, singular, plural)
        case (_, let hi?): " at most " + Describe.count(hi, singular, plural)
        default: ""
        }
    }

    static func numericBounds(_ node: SchemaNode) -> String {
        var bounds: [String] = []
        if let v = node.minimum { bounds.append(">= " + Describe.number(v)) }
        if let v = node.exclusiveMinimum { bounds.append("> " + Describe.number(v)) }
        if let v = node.maximum { bounds.append("<= " + Describe.number(v)) }
        if let v = node.exclusiveMaximum { bounds.append("< " + Describe.number(v)) }
        if let v = node.multipleOf { bounds.append("multiple of " + Describe.number(v)) }
        return bounds.isEmpty ? "" : " " + bounds.joined(separator: ", ")
    }

    /// Member names that are plain identifiers go bare; others are quoted as JSON strings.
    static func key(_ name: String) -> String {
        let plain = !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_") }
            && !(name.first!.isNumber)
        return plain ? name : Describe.brief(.string(name), limit: 80)
    }
}
