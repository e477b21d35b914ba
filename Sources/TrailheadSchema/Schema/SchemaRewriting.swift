extension GenerationSchema {
    /// `schema` with `rewrite` applied to every schema object in it: the document first, then each
    /// subschema of what `rewrite` returned (under `properties`, `items`, `anyOf`, `$defs`, …).
    /// Other values (an `enum`'s members, a `default`) and boolean schemas are left as they are.
    /// The one walk over a schema's structure for those that rewrite it (closing objects, leaving
    /// keywords out).
    public static func rewritingEachSchema(_ schema: GeneratedContent, _ rewrite: (JSONObject) -> JSONObject) -> GeneratedContent {
        guard case .object(let object) = schema else { return schema }
        let rewritten = rewrite(object)
        var result = JSONObject()
        for (keyword, value) in rewritten {
            switch (keyword, value) {
            case ("properties", .object(let members)), ("patternProperties", .object(let members)), ("$defs", .object(let members)),
                ("definitions", .object(let members)), ("dependentSchemas", .object(let members)):
                result[keyword] = .object(JSONObject(members.map { ($0.key, rewritingEachSchema($0.value, rewrite)) }))
            case ("anyOf", .array(let branches)), ("oneOf", .array(let branches)), ("allOf", .array(let branches)),
                ("prefixItems", .array(let branches)), ("items", .array(let branches)):
                result[keyword] = .array(branches.map { rewritingEachSchema($0, rewrite) })
            case ("items", _), ("additionalProperties", _), ("not", _), ("if", _), ("then", _), ("else", _), ("contains", _),
                ("propertyNames", _), ("unevaluatedItems", _), ("unevaluatedProperties", _), ("additionalItems", _), ("contentSchema", _):
                result[keyword] = rewritingEachSchema(value, rewrite)
            default:
                result[keyword] = value
            }
        }
        return .object(result)
    }
}
