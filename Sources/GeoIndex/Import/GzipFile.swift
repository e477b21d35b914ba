import Foundation

/// Reads a gzip-compressed file (`.gz`) through `gzip -dc`: the shipped Wikipedia places are
/// gzip files, and Foundation on Linux has no decompression of its own.
enum GzipFile {
    static func contents(of path: String) throws -> Data {
        guard FileManager.default.fileExists(atPath: path) else { throw GeoIndexError("cannot read '\(path)': no such file") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec gzip -dc -- \"$0\"", path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            throw GeoIndexError("cannot run gzip to read '\(path)': \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GeoIndexError("cannot decompress '\(path)': \(message.trimmingWhitespace)")
        }
        return data
    }
}
