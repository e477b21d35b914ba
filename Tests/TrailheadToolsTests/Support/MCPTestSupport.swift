import Foundation
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import TrailheadTools

/// The MCP fixtures in `Tests/Fixtures/mcp`, run by the project's Python (with the official MCP SDK).
enum MCPFixtures {
    /// `Tests/Fixtures/mcp/<name>`.
    static func path(_ name: String) -> String { Checkout.path("Tests/Fixtures/mcp/" + name) }

    /// The stdio command of a fixture server.
    static func command(_ server: String) throws -> [String] { [try TrailheadCache.python(), path(server)] }

    /// Runs `sdk_client.py` (the official SDK's client) with `arguments`; returns its JSON report.
    static func sdkClient(_ arguments: [String]) throws -> GeneratedContent {
        let output = try run(try TrailheadCache.python(), [path("sdk_client.py")] + arguments)
        return try GeneratedContent(json: output.split(separator: "\n").last.map(String.init) ?? "")
    }
}

/// A process started for a test and killed when the test is done; its stderr goes to a file.
final class BackgroundProcess: @unchecked Sendable {
    let process: ChildProcess
    private let stderrPath = NSTemporaryDirectory() + "trailhead-background-\(UUID().uuidString).stderr"

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        var changes: [String: String?] = ["SWIFT_BACKTRACE": "enable=no"]
        for (name, value) in environment { changes[name] = value }
        process = try ChildProcess(
            executable, arguments,
            options: .init(environment: ChildProcess.Options.environment(adding: changes), standardError: .file(stderrPath, append: false)))
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: stderrPath)
    }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits (up to 60 s) until stderr contains `text`; returns stderr.
    @discardableResult
    func waitForStderr(containing text: String) throws -> String {
        for _ in 0..<600 {
            if stderr.contains(text) { return stderr }
            guard process.isRunning else { break }
            usleep(100_000)
        }
        throw TestSetupError("the process never printed '\(text)'; stderr: \(stderr)")
    }

    /// SIGTERM, then SIGKILL after 5 s (uvicorn waits for its sessions to end on SIGTERM).
    func stop() {
        guard process.isRunning else { return }
        process.signal(SIGTERM)
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        if process.isRunning { process.signal(SIGKILL) }
        _ = process.wait()
    }
}

extension TestInstallation {
    /// Registers an MCP server (its stdio command, or its URL) the way `agent tools register --mcp` does.
    @discardableResult
    func registerMCP(_ server: MCPServerSpec.Transport, plugin: String? = nil, prefix: String? = nil, timeoutMs: Int = 10_000) throws -> Manifest {
        let manifest = try MCPServerRegistration.manifest(for: MCPServerSpec(transport: server, toolPrefix: prefix), plugin: plugin, timeoutMs: timeoutMs)
        try writeManifest("\(manifest.plugin).json", manifest.json)
        return manifest
    }
}
