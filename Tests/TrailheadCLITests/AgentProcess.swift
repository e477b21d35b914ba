import Foundation
import XCTest
import TrailheadSupport

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
        var changes: [String: String?] = ["SWIFT_BACKTRACE": "enable=no"]
        for (name, value) in environment { changes[name] = value }
        let completed = try ChildProcess.run(
            try (executable ?? locate()).path, arguments, input: Array(input.utf8),
            options: .init(environment: ChildProcess.Options.environment(adding: changes)))
        return Result(status: completed.status, stdout: completed.stdout, stderr: completed.stderr)
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

    /// Where this test process's temporary files go; removed when the process exits.
    static let scratch: URL = {
        atexit { try? FileManager.default.removeItem(at: Fixtures.scratch) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-cli-tests-\(getpid())")
    }()

    /// Writes `text` to a new temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String = "file.json") throws -> String {
        let folder = scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try text.write(toFile: url.path, atomically: true, encoding: .utf8)
        return url.path
    }
}
