import Testing

@testable import TrailheadSchema

/// Narrowing a schema for one request, through every way a path can reach a value's schema.
@Suite struct SchemaEditTests {
    struct Stop: Generable {
        var city: String
        var detours: [Stop]
    }

    struct Route: Generable {
        var name: String?
        var stops: [Stop]
        var kind: String
    }

    @Test func countsAllowedValuesAndMembersNarrowInPlace() throws {
        let schema = try Route.generationSchema.narrowed { edit in
            #expect(edit.count(2, at: ["stops"]) == 1)
            #expect(edit.allow(["coach", "rail"], at: ["kind"]) == 1)
            #expect(edit.remove(["name"]) == 1)
            #expect(edit.require(["name", "kind"]) == 1, "a member left out is not required back")
        }
        #expect(schema.json["properties"]?["stops"]?["minItems"] == 2)
        #expect(schema.json["properties"]?["stops"]?["maxItems"] == 2)
        #expect(schema.json["properties"]?["kind"]?["enum"] == ["coach", "rail"])
        #expect(schema.json["properties"]?["name"] == nil)
        #expect(schema.json["required"] == ["stops", "kind"])
    }

    @Test func aPathThroughAReferenceNarrowsACopyOfItsTarget() throws {
        #expect(Route.generationSchema.json["$defs"]?["Stop"] != nil, "Stop is recursive: a definition")
        var edit = SchemaEdit(Route.generationSchema.json)
        #expect(edit.allow(["Lisbon", "Porto"], at: JSONPath("/stops/*/city")!) == 1)
        #expect(edit.allow(["Braga"], at: JSONPath("/stops/*/detours/*/city")!) == 1)
        let schema = try edit.schema()
        let valid: GeneratedContent = ["kind": "x", "stops": [["city": "Porto", "detours": [["city": "Braga", "detours": [["city": "Anywhere", "detours": []]]]]]]]
        #expect(schema.validate(valid) == [], "deeper uses of the definition are left as they were")
        let invalid: GeneratedContent = ["kind": "x", "stops": [["city": "Faro", "detours": [["city": "Lisbon", "detours": []]]]]]
        #expect(schema.validate(invalid).map(\.instancePointer) == ["/stops/0/city", "/stops/0/detours/0/city"])
        #expect(schema.json["$defs"] == Route.generationSchema.json["$defs"], "the definition itself is untouched")
    }

    @Test func aPathThroughAlternativesNarrowsEachOneThatHasIt() throws {
        let json: GeneratedContent = [
            "type": "object",
            "properties": ["place": ["anyOf": [["type": "string", "pattern": "^[A-Z]"], ["type": "object", "properties": ["name": ["type": "string"]]]]]],
        ]
        var names = SchemaEdit(json)
        #expect(names.allow(["Hidden Valley"], at: JSONPath("/place/name")!) == 1, "only the object alternative has a name")
        let byName = try names.schema()
        #expect(byName.isValid(["place": ["name": "Hidden Valley"]]))
        #expect(!byName.isValid(["place": ["name": "Keys View"]]))
        #expect(byName.isValid(["place": "Arch Rock"]), "the string alternative is as it was")
        var places = SchemaEdit(json)
        #expect(places.allow(["Keys View"], at: ["place"]) == 2, "the value is one of the allowed ones, whichever alternative it takes")
        let byValue = try places.schema()
        #expect(byValue.isValid(["place": "Keys View"]))
        #expect(!byValue.isValid(["place": "Arch Rock"]))
        #expect(!byValue.isValid(["place": ["name": "Hidden Valley"]]))
        #expect(byValue.json["properties"]?["place"]?["anyOf"]?.arrayValue?.first == ["type": "string", "enum": ["Keys View"]], "the pattern gives way to the values")
    }

    @Test func aPathNoValueHasChangesNothing() throws {
        var edit = SchemaEdit(Route.generationSchema.json)
        #expect(edit.allow(["x"], at: JSONPath("/stops/*/country")!) == 0)
        #expect(edit.count(1, at: ["kind", "*"]) == 0)
        #expect(edit.json == Route.generationSchema.json)
        #expect(JSONPath("/stops/*/detours/*/city")!.schemas(in: Route.generationSchema.json) == [["type": "string"]])
    }
}
