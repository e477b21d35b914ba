import TrailheadSchema

/// A tool's argument schema with every object closed: keys exactly the declared properties.
///
/// A function schema without `additionalProperties` is open in JSON Schema, so the grammar let
/// the model write keys that are not parameters (`"age "` with a trailing space, `"director"` for
/// `"directed_by"`, a key that swallowed the next call's text) and validation accepted them. OpenAI's
/// strict mode closes every object for this reason; so does the session, by default, for the
/// grammar and for validation alike. An object that says `additionalProperties` (a schema, or
/// `true`) keeps what it says, and an object without `properties` (a free-form map) stays open;
/// one that lists none (`"properties": {}`, a function without parameters) takes none.
enum ClosedArguments {
    static func close(_ schema: GeneratedContent) -> GeneratedContent {
        guard case .object(var object) = schema else {
            if case .array(let items) = schema { return .array(items.map(close)) }
            return schema
        }
        if case .object(var properties)? = object["properties"] {
            for (name, property) in properties { properties[name] = close(property) }
            object["properties"] = .object(properties)
            if object["additionalProperties"] == nil, object["patternProperties"] == nil {
                object["additionalProperties"] = false
            }
        }
        for key in ["items", "additionalProperties", "not"] where object[key] != nil {
            object[key] = close(object[key]!)
        }
        for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
            if case .array(let branches)? = object[key] { object[key] = .array(branches.map(close)) }
        }
        for key in ["$defs", "definitions"] {
            if case .object(var definitions)? = object[key] {
                for (name, definition) in definitions { definitions[name] = close(definition) }
                object[key] = .object(definitions)
            }
        }
        return .object(object)
    }

    /// `schema` closed, or `schema` itself if the closed form does not compile (it always should).
    static func close(_ schema: GenerationSchema) -> GenerationSchema {
        let closed = close(schema.json)
        guard closed != schema.json, let compiled = try? GenerationSchema(json: closed) else { return schema }
        return compiled
    }
}
