import TrailheadSchema
import TrailheadSupport
import XCTest

@testable import TrailheadModels

/// Random schemas of the exact subset and random documents: the compiled grammar accepts a
/// document's compact text exactly when the validator accepts the document.
final class GBNFPropertyTests: XCTestCase {
    static let schemaCount = 300

    /// Whether `GenerationSchema.validate` is the real validator (the `schema` branch) or the
    /// stub that accepts everything.
    private var validatorIsReal: Bool {
        guard let schema = try? GenerationSchema(json: ["type": "string"]) else { return false }
        return !schema.validate(1).isEmpty
    }

    /// The grammar, or nil when the compiler proves the schema unsatisfiable.
    static func grammarIfSatisfiable(_ schema: GeneratedContent) throws -> GBNFGrammar? {
        do { return try GBNFGrammar(schemaJSON: schema) } catch where error.message.contains("accepts no value") { return nil }
    }

    func testValidInstancesAreAcceptedAndTheGrammarIsExact() throws {
        var random = RandomSchemas(rng: SeededRandom(seed: 20_261_129))
        var checked = 0
        for n in 0..<Self.schemaCount {
            let schemaJSON = random.rootSchema()
            guard let grammar = try Self.grammarIfSatisfiable(schemaJSON) else {
                XCTAssertNil(random.instance(of: schemaJSON, root: schemaJSON), "schema #\(n) has instances but no grammar")
                continue
            }
            XCTAssertTrue(grammar.isExact, "schema #\(n) \(schemaJSON): \(grammar.approximations)")
            let recognizer = try GBNFRecognizer(grammar.text)
            for _ in 0..<3 {
                guard let instance = random.instance(of: schemaJSON, root: schemaJSON) else { continue }
                checked += 1
                XCTAssertTrue(
                    recognizer.accepts(instance.jsonString),
                    "schema #\(n) \(schemaJSON)\ninstance \(instance.jsonString)\ngrammar:\n\(grammar.text)")
            }
        }
        XCTAssertGreaterThan(checked, Self.schemaCount)
    }

    func testGrammarAgreesWithTheValidatorOnMutatedInstances() throws {
        try XCTSkipUnless(
            validatorIsReal,
            "GenerationSchema.validate is still the contract stub in this branch; this property becomes meaningful once branch `schema` is merged")
        var random = RandomSchemas(rng: SeededRandom(seed: 7))
        var agreements = (accepted: 0, rejected: 0)
        for n in 0..<Self.schemaCount {
            let schemaJSON = random.rootSchema()
            let schema = try GenerationSchema(json: schemaJSON)
            guard let grammar = try Self.grammarIfSatisfiable(schemaJSON) else { continue }
            let recognizer = try GBNFRecognizer(grammar.text)
            guard var instance = random.instance(of: schemaJSON, root: schemaJSON) else { continue }
            for _ in 0..<6 {
                instance = random.mutate(instance)
                let valid = schema.validate(instance).isEmpty
                let accepted = recognizer.accepts(instance.jsonString)
                XCTAssertEqual(
                    accepted, valid,
                    "schema #\(n) \(schemaJSON.jsonString)\ninstance \(instance.jsonString)\nviolations: \(schema.validate(instance))")
                if accepted { agreements.accepted += 1 } else { agreements.rejected += 1 }
            }
        }
        // Both sides of the property were exercised.
        XCTAssertGreaterThan(agreements.accepted, 50)
        XCTAssertGreaterThan(agreements.rejected, 50)
    }
}
