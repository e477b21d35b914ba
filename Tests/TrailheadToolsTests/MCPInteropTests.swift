import Foundation
import Testing
import TrailheadSchema

/// `agent-tool-host Plugins/libX.so` is an MCP stdio server: the official MCP Python SDK's client
/// (in the project's venv) initializes it, lists nothing special and calls a tool through it.
@Suite struct MCPInteropTests {
    @Test func theOfficialPythonSDKClientCallsAToolThroughTheWorker() throws {
        let cache = ProcessInfo.processInfo.environment["TRAILHEAD_CACHE"] ?? NSHomeDirectory() + "/.cache/trailhead"
        let python = cache + "/venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestSetupError("no Python venv at \(python): run `make setup` (Scripts/setup-python.sh installs the mcp SDK)")
        }
        let installation = try TestInstallation()
        let library = try installation.install(product: "libFixtureTool.so")
        let output = try run(python, [
            Repository.root + "/Scripts/bench/mcp_echo_client.py", "--calls", "5", "--warmup", "2", "--",
            try BuildProducts.path("agent-tool-host"), library,
        ])
        let report = try GeneratedContent(json: output.split(separator: "\n").last.map(String.init) ?? "")
        #expect(report["first_result"] == ["text": "hello"], "\(output)")
        #expect(report["calls"] == 5)
    }
}
