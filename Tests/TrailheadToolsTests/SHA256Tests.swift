import TrailheadSupport
import Foundation
import Testing
import TrailheadTestSupport
import TrailheadTools

@Suite struct SHA256Tests {
    @Test func knownVectors() {
        #expect(SHA256.hex(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func streamingInOddChunksMatchesOneShot() {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var hasher = SHA256()
        var offset = 0
        for size in [1, 63, 64, 65, 127, 1000] + Array(repeating: 997, count: 20) where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            hasher.update(bytes[offset..<end])
            offset = end
        }
        hasher.update(bytes[offset...])
        #expect(hasher.finalize().map { String(format: "%02x", $0) }.joined() == SHA256.hex(of: bytes))
    }

    @Test func fileDigestMatchesCoreutils() throws {
        let library = try BuildProducts.path("libFixtureTool.so")
        let expected = try run("/usr/bin/sha256sum", [library]).split(separator: " ").first.map(String.init)
        #expect(try SHA256.hex(ofFileAt: library) == expected)
        // A file of a megabyte or more goes to sha256sum: check the in-process hasher on it too.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: library))
        #expect(bytes.count >= 1 << 20 && SHA256.hex(of: bytes) == expected)
    }
}
