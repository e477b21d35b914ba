import Foundation
import XCTest

@testable import TrailheadEvaluation

/// The tables `agent eval --bfcl` prints from its results.
final class BFCLReportTests: XCTestCase {
    private func result(_ agent: BFCLEvaluation.Agent, _ id: String, seconds: Double, valid: Bool = true) -> BFCLEvaluation.CaseResult {
        .init(agent: agent, id: id, category: "simple_python", valid: valid, error: "", seconds: seconds, promptTokens: nil, completionTokens: nil, calls: [])
    }

    /// The endpoint 1.1 × as slow as the session on every case, the second of the two 5 × faster
    /// (the prompt in the cache), the order alternating: the medians say what order the middle
    /// cases ran in; the paired geometric mean says 1.10.
    func testTheEndpointsTimeAgainstTheSessionsIsFreeOfWhichWentFirst() {
        let cold: [Double] = [10, 30, 12, 40, 9, 50]
        var results: [BFCLEvaluation.CaseResult] = []
        for (number, seconds) in cold.enumerated() {
            let id = "simple_python_\(number)"
            let serveFirst = number % 2 == 1
            results.append(result(.trailhead, id, seconds: serveFirst ? seconds / 5 : seconds))
            results.append(result(.endpoint, id, seconds: (serveFirst ? seconds : seconds / 5) * 1.1, valid: number != 2))
        }
        let table = BFCLEvaluation.servedAgainstSession(results, categories: ["simple_python"])
        let row = table.split(separator: "\n").first { $0.hasPrefix("| simple_python |") }.map(String.init) ?? ""
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(cells.count, 6, table)
        XCTAssertEqual(Array(cells.prefix(3)), ["simple_python", "6", "5"], "six pairs, one verdict differs")
        XCTAssertNotEqual(cells[3], "1.10", "the medians' ratio is the order's: \(table)")
        XCTAssertEqual(cells[4], "1.10", table)
        XCTAssertTrue(table.contains("| all | 6 | 5 |"), table)
        XCTAssertEqual(BFCLEvaluation.servedAgainstSession(results.filter { $0.agent == .trailhead }, categories: ["simple_python"]), "", "no endpoint, no table")
    }
}
