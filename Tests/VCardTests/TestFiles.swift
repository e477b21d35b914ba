import Foundation
import Testing
import TrailheadTestSupport

/// Where the tests' real inputs live: the vobject sdist (in the test data), our fixtures and the
/// bundled sample contacts.
enum TestFiles {
    static var sampleContacts: String { Checkout.path("Data/sample/contacts.vcf") }

    static func fixture(_ name: String) -> String { Checkout.path("Tests/Fixtures/vcards/\(name)") }

    /// The unpacked vobject sdist; fails (never skips) when its test_files/ are not there.
    static func vobjectDirectory() throws -> URL {
        _ = try TrailheadCache.testData("vobject/test_files")
        return URL(fileURLWithPath: TrailheadCache.testData + "/vobject")
    }

    static func vobjectTestFile(_ name: String) throws -> String {
        try vobjectDirectory().appendingPathComponent("test_files/\(name)").path
    }
}
