import Foundation
import Testing
import TrailheadSchema
import TrailheadTestSupport

/// `agent-tool-host Plugins/libX.so` is an MCP stdio server: the official MCP Python SDK's client
/// (in the project's venv) initializes it, lists nothing special and calls a tool through it.
@Suite struct MCPInteropTests {
    @Test func theOfficialPythonSDKClientCallsAToolThroughTheWorker() throws {
        let python = try TrailheadCache.python()
        let installation = try TestInstallation()
        let library = try installation.install(product: "libFixtureTool.so")
        let output = try run(python, [
            Checkout.root + "/Scripts/bench/mcp_echo_client.py", "--calls", "5", "--warmup", "2", "--",
            try BuildProducts.path("agent-tool-host"), library,
        ])
        let report = try GeneratedContent(json: output.split(separator: "\n").last.map(String.init) ?? "")
        #expect(report["first_result"] == ["text": "hello"], "\(output)")
        #expect(report["calls"] == 5)
    }
}
