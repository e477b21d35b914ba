import XCTest

@testable import TrailheadModels

final class SHA256Tests: XCTestCase {
    func testKnownDigests() {
        XCTAssertEqual(SHA256.hex(of: Array("".utf8)), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        XCTAssertEqual(SHA256.hex(of: million), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testTheCPUTagMatchesTheBuildScript() throws {
        // Scripts/build-llama-server.sh: (grep -m1 'model name' /proc/cpuinfo || uname -m) | sha256sum | cut -c1-12
        let tag = ModelAssets.cpuTag()
        XCTAssertEqual(tag.count, 12)
        XCTAssertTrue(ModelAssets().llamaServerPath.contains("/llama-server/0.3.36-\(tag)/"))
    }
}
