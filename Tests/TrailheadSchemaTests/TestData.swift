import Foundation
import TrailheadTestSupport
import XCTest

@testable import TrailheadSchema

/// The unpacked test data (see `TrailheadCache.testData`), read as JSON.
enum TestData {
    static func directory(_ relative: String) throws -> URL {
        URL(fileURLWithPath: try TrailheadCache.testData(relative))
    }

    static func json(_ url: URL) throws -> GeneratedContent {
        try GeneratedContent(json: try Data(contentsOf: url))
    }
}
