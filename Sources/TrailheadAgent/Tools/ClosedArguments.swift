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
        GenerationSchema.rewritingEachSchema(schema) { object in
            var object = object
            if object["properties"]?.objectValue != nil, object["additionalProperties"] == nil, object["patternProperties"] == nil {
                object["additionalProperties"] = false
            }
            return object
        }
    }

    /// `schema` closed, or `schema` itself if the closed form does not compile (it always should).
    static func close(_ schema: GenerationSchema) -> GenerationSchema {
        let closed = close(schema.json)
        guard closed != schema.json, let compiled = try? GenerationSchema(json: closed) else { return schema }
        return compiled
    }
}
