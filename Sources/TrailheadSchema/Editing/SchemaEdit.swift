/// Narrows a schema for one request: fewer allowed values, a fixed count, members left out or made
/// required. The one way Trailhead edits a schema after it is declared (a request's number of days,
/// the places a tool returned, the arguments an agent decides itself), instead of JSON edited by
/// hand at each place:
///
///     let schema = try Itinerary.generationSchema.narrowed { edit in
///         edit.count(request.days, at: JSONPath("/days")!)
///         edit.allow(places, at: JSONPath("/days/*/activities/*/place")!)
///     }
///
/// A path reaches a value's schemas through `properties`, `items`, local `$ref`s (the referenced
/// schema is copied into place, so only this use of it narrows) and every alternative of
/// `anyOf`/`oneOf`/`allOf` that has it. Each edit returns how many schemas it changed: none means
/// the path names no value of the schema.
public struct SchemaEdit: Sendable {
    /// The schema document as edited so far.
    public private(set) var json: GeneratedContent
    private let original: GeneratedContent

    public init(_ schema: GeneratedContent) {
        json = schema
        original = schema
    }

    /// The value at `path` may only be one of `values` (an `enum`; a `pattern` it had goes, as the
    /// values are stricter and keep the grammar small).
    @discardableResult
    public mutating func allow(_ values: [GeneratedContent], at path: JSONPath) -> Int {
        edit(at: path) { object in
            object["enum"] = .array(values)
            object["pattern"] = nil
        }
    }

    /// The array at `path` holds exactly `count` items.
    @discardableResult
    public mutating func count(_ count: Int, at path: JSONPath) -> Int { self.count(count...count, at: path) }

    /// The array at `path` holds `range` items.
    @discardableResult
    public mutating func count(_ range: ClosedRange<Int>, at path: JSONPath) -> Int {
        edit(at: path) { object in
            object["minItems"] = .number(Double(range.lowerBound))
            object["maxItems"] = .number(Double(range.upperBound))
        }
    }

    /// The object at `path` without these members (nor their place in `required`).
    @discardableResult
    public mutating func remove(_ members: Set<String>, at path: JSONPath = .root) -> Int {
        edit(at: path) { object in
            if var properties = object["properties"]?.objectValue {
                for name in members { properties[name] = nil }
                object["properties"] = .object(properties)
            }
            if let required = object["required"]?.arrayValue {
                object["required"] = .array(required.filter { !members.contains($0.stringValue ?? "") })
            }
        }
    }

    /// The object at `path` must have these members (those it declares), after those it required.
    @discardableResult
    public mutating func require(_ members: [String], at path: JSONPath = .root) -> Int {
        edit(at: path) { object in
            let declared = object["properties"]?.objectValue ?? [:]
            var required = object["required"]?.arrayValue ?? []
            for name in members where declared[name] != nil && !required.contains(.string(name)) { required.append(.string(name)) }
            object["required"] = .array(required)
        }
    }

    /// Changes each schema of the value at `path` (see the type's discussion); returns how many.
    @discardableResult
    public mutating func edit(at path: JSONPath, _ change: (inout JSONObject) -> Void) -> Int {
        var changed = 0
        json = edit(json, path.tokens[...], depth: 0, changed: &changed, change)
        return changed
    }

    /// The edited schema, loaded.
    public func schema() throws(SchemaError) -> GenerationSchema { try GenerationSchema(json: json) }

    private func edit(
        _ node: GeneratedContent, _ path: ArraySlice<String>, depth: Int, changed: inout Int, _ change: (inout JSONObject) -> Void
    ) -> GeneratedContent {
        // References nest at most as deep as the path (each step follows at most a chain of them).
        guard depth < 64, case .object(var object) = node else { return node }
        if let reference = object["$ref"]?.stringValue, let target = resolve(reference)?.objectValue {
            // This use of the referenced schema, copied into place with the keywords beside `$ref`.
            var copy = target
            copy["$defs"] = nil
            for (key, value) in object where key != "$ref" { copy[key] = value }
            let before = changed
            let edited = edit(.object(copy), path, depth: depth + 1, changed: &changed, change)
            return changed > before ? edited : node
        }
        let alternatives = ["anyOf", "oneOf", "allOf"].filter { object[$0]?.arrayValue != nil }
        for keyword in alternatives {
            object[keyword] = .array(object[keyword]!.arrayValue!.map { edit($0, path, depth: depth + 1, changed: &changed, change) })
        }
        guard let head = path.first else {
            // A value that is one of several schemas is changed in each of them, not around them.
            if alternatives.isEmpty || object["type"] != nil {
                change(&object)
                changed += 1
            }
            return .object(object)
        }
        if head == "*" {
            if let items = object["items"] { object["items"] = edit(items, path.dropFirst(), depth: depth + 1, changed: &changed, change) }
        } else if var properties = object["properties"]?.objectValue, let property = properties[head] {
            properties[head] = edit(property, path.dropFirst(), depth: depth + 1, changed: &changed, change)
            object["properties"] = .object(properties)
        }
        return .object(object)
    }

    /// A local reference, resolved against the schema as declared ("#", "#/$defs/Note").
    private func resolve(_ reference: String) -> GeneratedContent? {
        guard reference.hasPrefix("#") else { return nil }
        return JSONPointer.resolve(String(reference.dropFirst()), in: original)
    }
}

extension GenerationSchema {
    /// This schema narrowed by `edits` (see `SchemaEdit`).
    public func narrowed(_ edits: (inout SchemaEdit) -> Void) throws(SchemaError) -> GenerationSchema {
        var edit = SchemaEdit(json)
        edits(&edit)
        return try edit.schema()
    }
}
