import Foundation

/// SHA-256 (FIPS 180-4), for pinning model files and naming caches. Foundation on Linux has
/// no digest API and no outside package may be fetched, so it lives here.
struct SHA256 {
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, bytes.count)
            buffer.append(contentsOf: bytes[0..<take])
            offset = take
            if buffer.count == 64 {
                buffer.withUnsafeBytes { compress($0.baseAddress!) }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        while bytes.count - offset >= 64 {
            compress(bytes.baseAddress! + offset)
            offset += 64
        }
        if offset < bytes.count { buffer.append(contentsOf: bytes[offset...]) }
    }

    mutating func update(_ data: some DataProtocol) {
        for region in data.regions { region.withUnsafeBytes { update($0) } }
    }

    mutating func finalize() -> String {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        while (buffer.count + tail.count) % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBytes { update($0) }
        return state.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    static func hex(of data: some DataProtocol) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalize()
    }

    /// The digest of a file: by coreutils' `sha256sum` when present (several hundred MB/s;
    /// model files are 0.1–1.1 GB), else here, in 4 MB blocks.
    static func hex(ofFile path: String) throws -> String {
        if let (status, output) = try? ProcessSpawner.output(of: "sha256sum", ["--", path]), status == 0,
            let digest = output.split(separator: " ").first, digest.count == 64
        {
            return String(digest)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ModelError.localServer(message: "cannot read \(path)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let block = try handle.read(upToCount: 4 << 20), !block.isEmpty { hasher.update(block) }
        return hasher.finalize()
    }

    private mutating func compress(_ block: UnsafeRawPointer) {
        var w = [UInt32](repeating: 0, count: 64)
        for i in 0..<16 {
            let p = block + i * 4
            w[i] = UInt32(p.load(as: UInt8.self)) << 24 | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 16
                | UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 8 | UInt32(p.load(fromByteOffset: 3, as: UInt8.self))
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for i in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let ch = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ ch &+ Self.k[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }

    @inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
