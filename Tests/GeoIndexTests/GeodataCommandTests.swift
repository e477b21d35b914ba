import Foundation
import TrailheadSupport
import TrailheadTestSupport
import XCTest
@testable import GeoIndex

/// `agent geodata build | import | info`, run as the built executable.
final class GeodataCommandTests: XCTestCase {
    private func agent(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let completed = try AgentProcess.run(arguments)
        return (completed.status, completed.stdout + completed.stderr)
    }

    func testBuildThenImportThenInfo() throws {
        let index = try Scratch.newFolder("geoindex", removedAfter: self) + "/poi.sqlite"
        let build = try agent(["geodata", "build", "--out", index, "--landmarks", Fixtures.landmarks, "--geojson", Fixtures.desert])
        XCTAssertEqual(build.status, 0, build.output)
        XCTAssertTrue(build.output.contains("imported 24 places"), build.output)

        let imported = try agent(["geodata", "import", Fixtures.antimeridian, "--index", index])
        XCTAssertEqual(imported.status, 0, imported.output)
        XCTAssertTrue(imported.output.contains("imported 2 places (beach 1, marina 1)"), imported.output)

        let info = try agent(["geodata", "info", "--index", index])
        XCTAssertEqual(info.status, 0, info.output)
        XCTAssertTrue(info.output.contains("landmarks: 3\n"), info.output)
        XCTAssertTrue(info.output.contains("hike: 8\n"), info.output)
        XCTAssertTrue(info.output.contains("marina: 1\n"), info.output)
    }

    func testBadInputFailsWithItsLocation() throws {
        let index = try Scratch.newFolder("geoindex", removedAfter: self) + "/poi.sqlite"
        let broken = try agent(["geodata", "build", "--out", index, "--geojson", Fixtures.broken])
        XCTAssertEqual(broken.status, 1, broken.output)
        XCTAssertTrue(broken.output.contains("broken.geojsonseq:2: invalid JSON"), broken.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: index), "a failed build leaves no index")

        let usage = try agent(["geodata", "build"])
        XCTAssertEqual(usage.status, 2, usage.output)
        XCTAssertTrue(usage.output.contains("missing --out PATH"), usage.output)
    }
}
