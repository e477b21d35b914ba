import Foundation
import TrailheadSupport

/// Reads a gzip-compressed file (`.gz`) through `gzip -dc`: the shipped Wikipedia places are
/// gzip files, and Foundation on Linux has no decompression of its own.
enum GzipFile {
    static func contents(of path: String) throws -> Data {
        guard FileManager.default.fileExists(atPath: path) else { throw GeoIndexError("cannot read '\(path)': no such file") }
        let completed: ChildProcess.Completed
        do { completed = try ChildProcess.run("gzip", ["-dc", "--", path]) } catch {
            throw GeoIndexError("cannot run gzip to read '\(path)': \(error.reason)")
        }
        guard completed.status == 0 else {
            throw GeoIndexError("cannot decompress '\(path)': \(completed.stderr.trimmingWhitespace)")
        }
        return Data(completed.standardOutput)
    }
}
