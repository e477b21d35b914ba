import Foundation
import TrailheadSupport

/// `trailhead-bench sha256`: the in-process SHA-256 (used for small files, and where coreutils'
/// `sha256sum` is missing) next to `sha256sum` (used for files of a megabyte or more: the 1.1 GB
/// model, plugin libraries) on the same 256 MB file in the same run; median of the repetitions.
struct SHA256Bench: Benchmark {
    let name = "sha256"
    let megabytes = 256
    let repetitions = 3

    func run() throws {
        let path = NSTemporaryDirectory() + "trailhead-sha256-bench-\(getpid())"
        var random = SeededRandom(seed: 256)
        let chunk = (0..<(1 << 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        for _ in 0..<megabytes { try handle.write(contentsOf: chunk) }
        try handle.close()

        var ours = "", theirs = ""
        let oursSeconds = try cpuMedian(repetitions, warmUp: true) {
            let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? reader.close() }
            var hasher = SHA256()
            while let chunk = try reader.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
            ours = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        }
        var peerSamples: [Double] = []
        for _ in 0..<repetitions {
            let started = now()
            let completed = try ChildProcess.run("sha256sum", [path])
            peerSamples.append(now() - started)
            theirs = String(completed.stdout.prefix(64))
        }
        guard ours == theirs else { throw SHA256BenchError(message: "digests differ: \(ours) against sha256sum's \(theirs)") }
        let peerSeconds = percentile(peerSamples, 0.5)
        print("| \(megabytes) MB file | seconds | MB/s |")
        print("|---|---:|---:|")
        print("| SHA256, in process (CPU) | \(String(format: "%.2f", oursSeconds)) | \(String(format: "%.0f", Double(megabytes) / oursSeconds)) |")
        print("| sha256sum (peer, wall) | \(String(format: "%.2f", peerSeconds)) | \(String(format: "%.0f", Double(megabytes) / peerSeconds)) |")
        print()
        print("Ours ÷ sha256sum: \(String(format: "%.1f", oursSeconds / peerSeconds))×; load \(loadAverage()).")
    }
}

struct SHA256BenchError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
