import Foundation
import Testing

/// Where the tests' real inputs live: the vobject sdist (through `TRAILHEAD_TEST_DATA`), our
/// fixtures and the bundled sample contacts.
enum TestFiles {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var sampleContacts: String { packageRoot.appendingPathComponent("Data/sample/contacts.vcf").path }

    static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/Fixtures/vcards/\(name)").path
    }

    /// The unpacked vobject sdist; fails (never skips) when it is not there.
    static func vobjectDirectory() throws -> URL {
        let base = ProcessInfo.processInfo.environment["TRAILHEAD_TEST_DATA"]
            ?? NSHomeDirectory() + "/.cache/trailhead/testdata"
        let directory = URL(fileURLWithPath: base).appendingPathComponent("vobject")
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("test_files").path) else {
            throw Missing(description: """
                vobject test data not found at \(directory.path) (test_files/ missing). \
                Run Scripts/fetch-test-data.sh or set TRAILHEAD_TEST_DATA.
                """)
        }
        return directory
    }

    static func vobjectTestFile(_ name: String) throws -> String {
        try vobjectDirectory().appendingPathComponent("test_files/\(name)").path
    }
}
