import Foundation
import Testing
import TrailheadSupport
import TrailheadTestSupport

/// Guides are keyed by the compiler's `CodingKeys`: a misspelt member is a compile error, not a
/// guide silently lost. Checked by type-checking a small client of the built `TrailheadSchema`
/// module (a second or two; no package to build).
@Suite struct GuideKeyCompileTests {
    func typecheck(_ source: String) throws -> ChildProcess.Completed {
        let modules = BuildProducts.folder + "/Modules"
        #expect(FileManager.default.fileExists(atPath: modules + "/TrailheadSchema.swiftmodule"), "build first: swift build --build-tests")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("guides-\(UUID().uuidString).swift")
        try source.write(toFile: file.path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try ChildProcess.run("swiftc", ["-typecheck", "-swift-version", "6", "-I", modules, file.path], timeLimit: 300)
    }

    static func client(key: String) -> String {
        """
        import TrailheadSchema

        struct Itinerary: Generable {
            let title: String
            let days: [String]
            static let guides = GuideTable(CodingKeys.self, [
                .\(key): [.description("An exciting name for the trip."), .words(2...8)],
                .days: [.count(3)],
            ])
        }
        """
    }

    @Test func aGuideForAMemberThatExistsCompiles() throws {
        let result = try typecheck(Self.client(key: "title"))
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aMisspeltGuideKeyFailsToCompile() throws {
        let result = try typecheck(Self.client(key: "titel"))
        #expect(result.status != 0)
        #expect(result.stderr.contains("type 'Itinerary.CodingKeys' has no member 'titel'"), "\(result.stderr)")
    }
}
