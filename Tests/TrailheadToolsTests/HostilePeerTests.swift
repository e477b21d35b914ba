import Foundation
import Testing
import TrailheadSupport
import TrailheadTestSupport

/// A hostile or broken server on the other end of Trailhead's HTTP clients — an MCP server over
/// HTTP, an OpenAI-compatible model — answers with negative lengths, truncated chunks, endless
/// headers, invalid UTF-8 or silence. The agent says what went wrong, naming the server, and exits
/// 1: it never traps. (`Tests/Fixtures/hostile/hostile_http.py` is the server.)
@Suite(.serialized) final class HostilePeerTests {
    let server: BackgroundProcess
    let port: Int

    init() throws {
        port = try freeLoopbackPort()
        server = try BackgroundProcess(try TrailheadCache.python(), [Checkout.root + "/Tests/Fixtures/hostile/hostile_http.py", String(port)])
        let deadline = monotonicSeconds() + 30
        while true {
            if let fd = try? LoopbackSocket.connect(host: "127.0.0.1", port: port) {
                close(fd)
                break
            }
            guard monotonicSeconds() < deadline, server.process.isRunning else { throw TestSetupError("the hostile server did not start: \(server.stderr)") }
            usleep(50_000)
        }
    }

    static let modes = [
        "negative-length", "negative-chunk", "huge-chunk", "truncated-chunk", "two-lengths", "endless-headers", "endless-event",
        "invalid-utf8", "not-http", "silence",
    ]

    @Test(arguments: modes) func anMCPServerCannotTakeTheAgentDown(mode: String) throws {
        let installation = try TestInstallation()
        let url = "http://127.0.0.1:\(port)/\(mode)/mcp"
        let outcome = try AgentProcess.run(
            ["tools", "register", "--mcp", "--url", url, "--timeout-ms", "3000", "--plugins", installation.plugins, "--manifests", installation.manifests])
        #expect(outcome.status == 1, "\(mode): status \(outcome.status), \(outcome.stderr)")
        #expect(outcome.stderr.contains("127.0.0.1:\(port)"), "\(mode): the error names the server: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("Fatal error"), "\(mode): \(outcome.stderr)")
    }

    @Test(arguments: modes.filter { $0 != "silence" }) func aModelServerCannotTakeTheAgentDown(mode: String) throws {
        let installation = try TestInstallation()
        let outcome = try AgentProcess.run(
            ["run", "Where does Ana live?", "--model", "http://127.0.0.1:\(port)/\(mode)/v1#hostile", "--plugins", installation.plugins,
             "--manifests", installation.manifests])
        // 3: the model is unavailable (its probe failed), 1: a response failed.
        #expect(outcome.status == 1 || outcome.status == 3, "\(mode): status \(outcome.status), \(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stderr.contains("127.0.0.1:\(port)") || outcome.stderr.contains("hostile"), "\(mode): the error names the model: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("Fatal error"), "\(mode): \(outcome.stderr)")
    }
}
