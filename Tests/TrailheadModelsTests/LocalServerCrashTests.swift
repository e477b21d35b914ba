import Foundation
import TrailheadSchema
import XCTest

@testable import TrailheadModels

/// A llama-server that dies is reported for what it is: an exit status, or a signal with its name
/// and, for SIGILL, the fix (rebuild for this CPU). A crash is never retried. The servers here are
/// stand-in executables that behave like a binary built for the wrong CPU.
final class LocalServerCrashTests: XCTestCase {
    private var folder = ""
    private var startsFile: String { folder + "/starts" }

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "trailhead-crash-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/models", withIntermediateDirectories: true)
        // The stand-ins never read the model: an empty file satisfies `locate`.
        FileManager.default.createFile(atPath: folder + "/models/" + ModelAssets.testModel.fileName, contents: Data())
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A stand-in `llama-server` running `body` (a shell script) after counting its start.
    private func standIn(_ body: String, interpreter: String = "/bin/sh") throws -> String {
        let path = folder + "/bin/llama-server"
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
        try "#!\(interpreter)\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    private func model(server: String) -> LocalModel {
        let assets = ModelAssets(environment: ["TRAILHEAD_CACHE": folder, "TRAILHEAD_LLAMA_SERVER": server])
        return LocalModel(
            configuration: .init(
                model: ModelAssets.testModel, assets: assets, idleShutdownSeconds: nil, startupTimeout: 20, verifiesModelFile: false))
    }

    private func starts() -> Int {
        ((try? String(contentsOfFile: startsFile, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    private func failure(of model: LocalModel) async -> String? {
        do {
            _ = try await model.respond(to: ModelRequest(messages: [.user("hello")], options: .init(maxTokens: 4)))
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testSIGILLWhileStartingNamesTheSignalAndTheFixAndIsNotRetried() async throws {
        // Given a binary the CPU cannot run: it dies with SIGILL as soon as it starts.
        let model = model(server: try standIn("echo start >> '\(startsFile)'\nkill -ILL $$"))

        // When a request needs it, twice.
        let firstFailure = await failure(of: model)
        let secondFailure = await failure(of: model)
        let first = try XCTUnwrap(firstFailure)
        let second = try XCTUnwrap(secondFailure)

        // Then the message names the signal and the fix, and it was started exactly once.
        XCTAssertTrue(first.contains("killed by signal 4 (SIGILL"), first)
        XCTAssertTrue(first.contains("does not suit this CPU"), first)
        XCTAssertTrue(first.contains("make model"), first)
        XCTAssertTrue(second.contains("SIGILL"), second)
        XCTAssertEqual(starts(), 1, "a server killed by a signal is not started again")
        // And availability says this CPU cannot run it, with the same fix.
        let availability = await model.availability
        guard case .unavailable(.cannotRunHere(let detail, let fix)) = availability else {
            return XCTFail("expected cannotRunHere, got \(availability)")
        }
        XCTAssertTrue(detail.contains("SIGILL"), detail)
        XCTAssertTrue(fix.contains("make model"), fix)
    }

    func testSIGILLAtTheFirstDecodeIsNotRetriedOnAFreshServer() async throws {
        // Given a server that loads and answers /health, then dies with SIGILL at its first
        // decode — as ggml's AMX code did on a VM that advertises AMX but faults on it.
        let script = """
            import http.server, os, signal, sys
            open(\(pythonString(startsFile)), "a").write("start\\n")
            port = int(sys.argv[sys.argv.index("--port") + 1])
            class Handler(http.server.BaseHTTPRequestHandler):
                def log_message(self, *args): pass
                def do_GET(self):
                    self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers()
                    self.wfile.write(b'{"status":"ok"}')
                def do_POST(self):
                    os.kill(os.getpid(), signal.SIGILL)
            http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
            """
        let model = model(server: try standIn(script, interpreter: "/usr/bin/env python3"))

        let failed = await failure(of: model)
        let message = try XCTUnwrap(failed)

        XCTAssertTrue(message.contains("killed by signal 4 (SIGILL"), message)
        XCTAssertTrue(message.contains("while answering a request"), message)
        XCTAssertTrue(message.contains("make model"), message)
        XCTAssertEqual(starts(), 1, "the request is not retried on a fresh server after a crash")
    }

    func testAnExitStatusIsReportedAsSuchAndDoesNotMarkTheCPU() async throws {
        // Given a server that exits with status 3 (its own verdict, not a signal).
        let model = model(server: try standIn("echo start >> '\(startsFile)'\necho 'error: bad argument' >&2\nexit 3"))

        let failed = await failure(of: model)
        let message = try XCTUnwrap(failed)

        XCTAssertTrue(message.contains("exited with status 3"), message)
        XCTAssertTrue(message.contains("bad argument"), "the log's tail is quoted: \(message)")
        XCTAssertFalse(message.contains("signal"), message)
        let availability = await model.availability
        XCTAssertEqual(availability, .available, "an exit status says nothing about the CPU")
    }

    func testARebuiltInstallationIsNoLongerHeldAgainstTheCPU() async throws {
        let server = try standIn("echo start >> '\(startsFile)'\nkill -ILL $$")
        let model = model(server: server)
        _ = await failure(of: model)
        let before = await model.availability
        guard case .unavailable = before else { return XCTFail("the crash is remembered") }

        // When the build replaces a CPU variant beside the binary (its smoke test pruned one).
        FileManager.default.createFile(atPath: folder + "/bin/libggml-cpu-haswell.so", contents: Data("x".utf8))

        let availability = await model.availability
        XCTAssertEqual(availability, .available)
    }

    func testSignalNames() {
        XCTAssertEqual(ProcessTermination.killed(signal: SIGILL).description, "was killed by signal 4 (SIGILL, illegal instruction)")
        XCTAssertEqual(ProcessTermination.killed(signal: SIGSEGV).description, "was killed by signal 11 (SIGSEGV, segmentation fault)")
        XCTAssertEqual(ProcessTermination.exited(status: 1).description, "exited with status 1")
        XCTAssertEqual(ProcessTermination(waitStatus: 132 << 8), .exited(status: 132), "a shell's 128+N is an exit status")
        XCTAssertEqual(ProcessTermination(waitStatus: 4), .killed(signal: 4))
        XCTAssertTrue(ProcessTermination.killed(signal: SIGILL).isCrash)
        XCTAssertFalse(ProcessTermination.killed(signal: SIGTERM).isCrash)
    }

    private func pythonString(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'" }
}
