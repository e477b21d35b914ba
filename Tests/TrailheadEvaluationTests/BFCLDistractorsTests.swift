import TrailheadSchema
import XCTest

@testable import TrailheadEvaluation

/// `agent eval --bfcl --distractors N`: a case's own functions among N of other cases, the same
/// every run.
final class BFCLDistractorsTests: XCTestCase {
    private func item(_ id: String, functions: [String]) throws -> BFCLCase {
        try BFCLCase(
            [
                "id": .string(id), "category": "simple_python", "question": [[["role": "user", "content": "Do it."]]],
                "tools": .array(functions.map { ["function": ["name": .string($0), "description": .string("Does \($0)."), "parameters": ["type": "object"]]] }),
            ], instructions: "Call functions.")
    }

    func testACasesFunctionsAreAmongDistractorsOfOtherCasesTheSameEachTime() throws {
        let cases = try (0..<30).map { try item("simple_python_\($0)", functions: ["f\($0)", "shared"]) }
        let distractors = BFCLDistractors(cases: cases)
        XCTAssertEqual(distractors.pool.count, 31, "each name once")

        let tools = distractors.tools(for: cases[7], count: 10).map(\.name)
        XCTAssertEqual(tools.count, 12)
        XCTAssertEqual(Set(tools).count, 12, "no function twice")
        XCTAssertTrue(tools.contains("f7") && tools.contains("shared"))
        XCTAssertEqual(tools, BFCLDistractors(cases: cases).tools(for: cases[7], count: 10).map(\.name), "deterministic")
        XCTAssertEqual(distractors.tools(for: cases[7], count: 0).map(\.name), ["f7", "shared"])
        XCTAssertEqual(distractors.tools(for: cases[7], count: 1_000).count, 31, "at most the pool")
    }
}
