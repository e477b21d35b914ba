import Foundation
import XCTest

@testable import TrailheadSchema

/// Where the unpacked test data lives: `$TRAILHEAD_TEST_DATA`, else ~/.cache/trailhead/testdata.
/// Missing data fails the test with a message saying how to get it; it is never skipped.
enum TestData {
    static var root: URL {
        if let env = ProcessInfo.processInfo.environment["TRAILHEAD_TEST_DATA"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/trailhead/testdata")
    }

    static func directory(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        let url = root.appendingPathComponent(relative)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            XCTFail("test data missing: \(url.path) — run `make setup` (Scripts/setup-python.sh) or set TRAILHEAD_TEST_DATA", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return url
    }

    static func json(_ url: URL) throws -> GeneratedContent {
        try GeneratedContent(json: try Data(contentsOf: url))
    }
}
