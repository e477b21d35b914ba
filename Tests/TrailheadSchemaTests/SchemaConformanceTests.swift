import Foundation
import XCTest

@testable import TrailheadSchema

/// The official JSON-Schema-Test-Suite, draft 2020-12 (top-level files). A group whose schema
/// uses a feature outside Trailhead's subset must be refused at load time; every other test's
/// validity must match the suite's.
final class SchemaConformanceTests: XCTestCase {
    /// Files of keywords in the subset: each of their tests passes, or its group is refused
    /// only because it also uses a keyword outside the subset (or a non-local `$ref`).
    static let supportedFiles: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "prefixItems", "minItems",
        "maxItems", "uniqueItems", "enum", "const", "anyOf", "oneOf", "allOf", "not", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern",
        "minProperties", "maxProperties", "ref", "defs", "boolean_schema", "default", "infinite-loop-detection",
    ]

    struct Tally {
        var passed = 0, refused = 0, failed = 0
        static func += (l: inout Tally, r: Tally) {
            l.passed += r.passed; l.refused += r.refused; l.failed += r.failed
        }
    }

    func testDraft2020_12Suite() throws {
        let dir = try TestData.directory("jsonschema/json/tests/draft2020-12")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThan(files.count, 40, "expected the whole draft 2020-12 suite in \(dir.path)")
        var total = Tally()
        var report = ["file | passed | refused | failed", "--- | --- | --- | ---"]
        var refusalNotes: [String] = []
        for file in files {
            let name = String(file.dropLast(5))
            let groups = try XCTUnwrap(TestData.json(dir.appendingPathComponent(file)).arrayValue)
            var tally = Tally()
            for group in groups {
                let description = group["description"]?.stringValue ?? "?"
                let tests = group["tests"]?.arrayValue ?? []
                let schemaJSON = try XCTUnwrap(group["schema"])
                let schema: GenerationSchema
                do {
                    schema = try GenerationSchema(json: schemaJSON)
                } catch {
                    if Self.isOutsideSubset(error, schema: schemaJSON) {
                        tally.refused += tests.count
                        if Self.supportedFiles.contains(name) {
                            refusalNotes.append("\(name): \"\(description)\" refused: \(error.keyword ?? "?") at \(error.pointer)")
                        }
                    } else {
                        tally.failed += tests.count
                        XCTFail("\(file): \"\(description)\": schema refused for a supported feature: \(error)")
                    }
                    continue
                }
                for test in tests {
                    let data = try XCTUnwrap(test["data"])
                    let expected = try XCTUnwrap(test["valid"]?.boolValue)
                    let violations = schema.validate(data)
                    let quick = schema.isValid(data)
                    if violations.isEmpty == expected, quick == expected {
                        tally.passed += 1
                    } else {
                        tally.failed += 1
                        XCTFail("\(file): \"\(description)\" / \"\(test["description"]?.stringValue ?? "?")\": expected \(expected ? "valid" : "invalid"), got \(violations) (isValid \(quick))")
                    }
                }
            }
            report.append("\(name) | \(tally.passed) | \(tally.refused) | \(tally.failed)")
            total += tally
        }
        report.append("TOTAL | \(total.passed) | \(total.refused) | \(total.failed)")
        print(report.joined(separator: "\n"))
        print("Refusals in files of supported keywords (each for a feature outside the subset):")
        print(refusalNotes.map { "  " + $0 }.joined(separator: "\n"))
        print("JSON-Schema-Test-Suite draft2020-12: \(total.passed) passed / \(total.refused) refused / \(total.failed) failed")
        XCTAssertEqual(total.failed, 0)
        XCTAssertGreaterThan(total.passed, 700)
    }

    /// A refusal is right when it names a keyword outside the subset, a `$schema` other than
    /// draft 2020-12, or a `$ref` that is not local (remote documents are outside the subset too).
    static func isOutsideSubset(_ error: SchemaError, schema: GeneratedContent) -> Bool {
        guard let keyword = error.keyword else { return false }
        if !GenerationSchema.supportedKeywords.contains(keyword) { return true }
        if keyword == "$schema" { return true }  // another dialect or vocabulary
        if keyword == "$ref", let ref = JSONPointer.resolve(error.pointer, in: schema)?.stringValue {
            return !ref.hasPrefix("#")
        }
        return false
    }
}
