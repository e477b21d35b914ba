import Foundation
import XCTest

/// Runs the built `agent` executable as a subprocess, the way a user or a script does.
struct AgentProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `agent arguments…` with `input` on stdin and returns its status and outputs.
    /// `executable` runs another program the same way (an example agent).
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:], executable: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = try executable ?? locate()
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        env.merge(environment) { $1 }
        process.environment = env
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Drain both outputs while feeding input, so a large output never blocks the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var out = Data(), err = Data()
        DispatchQueue.global().async(group: group) { out = stdout.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { err = stderr.fileHandleForReading.readDataToEndOfFile() }
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// `.build/<config>/agent`, found next to the test bundle; a clear error when it is absent.
    private static func locate() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        for folder in candidates {
            let url = folder.appendingPathComponent("agent")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw AgentNotBuilt(searched: candidates.map(\.path))
    }

    struct AgentNotBuilt: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the agent executable is not built: run `swift build --product agent` first (looked in \(searched.joined(separator: ", ")))"
        }
    }
}

/// The test fixtures folder, beside this file.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let schema = folder.appendingPathComponent("itinerary.schema.json").path
    static let itineraries = folder.appendingPathComponent("itineraries.jsonl").path

    /// The lines of itineraries.jsonl.
    static func itineraryLines() throws -> [String] {
        try String(contentsOfFile: itineraries, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Writes `text` to a new temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String = "file.json") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
