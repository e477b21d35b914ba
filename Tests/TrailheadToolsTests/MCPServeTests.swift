import Foundation
import Testing
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import TrailheadTools

/// `agent mcp serve`: Trailhead's tools for any MCP client. The official MCP Python SDK's client
/// lists and calls them over stdio and over Streamable HTTP; the protocol's edges are checked
/// message by message.
@Suite struct MCPServeTests {
    /// An installation with the FixtureTool plugin (in its worker) and the trail-conditions MCP
    /// server: `agent mcp serve` re-serves both, a library's tools and an MCP server's.
    private func installation() throws -> TestInstallation {
        let installation = try TestInstallation()
        try installation.install(product: "libFixtureTool.so")
        // A long timeout: a call stuck behind an uncancelled `hang` would wait ten minutes.
        try installation.writeManifest("fixture.json", manifest(plugin: "fixture", library: "libFixtureTool.so", timeoutMs: 600_000, tools: [
            jsonTool("echo", arguments: ["type": "object", "properties": ["text": ["type": "string"]], "required": ["text"]], output: ["type": "object"])
                .setting("annotations", ["readOnly": true, "idempotent": true]),
            jsonTool("fail"), jsonTool("hang"), jsonTool("crash"),
        ]))
        try installation.registerMCP(.stdio(command: try MCPFixtures.command("trail_server.py"), environment: [:], directory: nil))
        return installation
    }

    private func serve(_ installation: TestInstallation, _ extra: [String] = []) throws -> [String] {
        [try BuildProducts.path("agent"), "mcp", "serve", "--plugins", installation.plugins, "--manifests", installation.manifests] + extra
    }

    /// What the SDK client saw, checked the same way for both transports.
    private func expectListsAndCalls(_ report: GeneratedContent) throws {
        #expect(report["protocol_version"] == "2025-11-25")
        let steps = try #require(report["steps"]?.arrayValue)
        let tools = try #require(steps.first?["list"]?.arrayValue)
        #expect(Set(tools.compactMap { $0["name"]?.stringValue }) == ["echo", "fail", "hang", "crash", "trailConditions", "add", "shout", "refuse"])
        let echo = try #require(tools.first { $0["name"] == "echo" })
        #expect(echo["inputSchema"] == ["type": "object", "properties": ["text": ["type": "string"]], "required": ["text"]])
        #expect(echo["outputSchema"] == ["type": "object"])
        #expect(echo["annotations"] == ["readOnlyHint": true, "idempotentHint": true])
        #expect(tools.first { $0["name"] == "trailConditions" }?["inputSchema"]?["properties"]?["date"]?["pattern"] != nil)

        let calls = steps.filter { $0["call"] != nil }
        // A result: structured content and its text form.
        #expect(calls[0]["result"]?["structuredContent"] == ["text": "hi"])
        #expect(calls[0]["result"]?["content"]?.arrayValue?.first?["text"] == #"{"text":"hi"}"#)
        #expect(calls[0]["result"]?["isError"] == false)
        // A tool error and invalid arguments: isError, with a message a model can act on.
        #expect(calls[1]["result"]?["isError"] == true)
        #expect(calls[1]["result"]?["content"]?.arrayValue?.first?["text"] == "this tool always fails")
        #expect(calls[2]["result"]?["isError"] == true)
        #expect(calls[2]["result"]?["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("/text: expected string, got integer") == true)
        // An MCP server's tool, served again through the registry.
        #expect(calls[3]["result"]?["structuredContent"]?["surface"] == "dusty")
        // The abandoned call was cancelled: the next call into the same plugin answers at once
        // instead of waiting ten minutes behind it.
        #expect(steps.first { $0["abandon"] != nil }?["outcome"]?.stringValue?.hasPrefix("gave up") == true)
        #expect(calls[4]["result"]?["structuredContent"] == ["text": "after"])
        #expect(steps.last?["ping"] == "ok")
    }

    private let actions = [
        "--list", "--call", "echo", #"{"text":"hi"}"#, "--call", "fail", "{}", "--call", "echo", #"{"text":3}"#,
        "--call", "trailConditions", #"{"park":"Joshua Tree","date":"2026-12-19"}"#,
        "--abandon", "hang", "{}", "--call", "echo", #"{"text":"after"}"#, "--ping",
    ]

    @Test func theOfficialSDKClientListsAndCallsToolsOverStdio() throws {
        let installation = try installation()
        try expectListsAndCalls(try MCPFixtures.sdkClient(actions + ["--"] + serve(installation)))
    }

    @Test func theOfficialSDKClientListsAndCallsToolsOverStreamableHTTP() throws {
        let installation = try installation()
        defer { withExtendedLifetime(installation) {} }
        let command = try serve(installation, ["--http", "0"])
        let server = try BackgroundProcess(command[0], Array(command.dropFirst()))
        defer { server.stop() }
        let url = try #require(try server.waitForStderr(containing: "/mcp").split(separator: " ").last { $0.hasPrefix("http://") }).trimmingCharacters(in: .whitespacesAndNewlines)
        try expectListsAndCalls(try MCPFixtures.sdkClient(["--http", url] + actions))
    }

    @Test func registeringAPluginSendsListChangedOverBothTransports() throws {
        let installation = try installation()
        defer { withExtendedLifetime(installation) {} }
        // A second server's manifest, written while the client is connected.
        let other = try TestInstallation()
        let manifest = try other.registerMCP(.stdio(command: try MCPFixtures.command("crashing_server.py"), environment: [:], directory: nil))
        let write = ["--write", installation.manifests + "/crashing.json", manifest.json.prettyJSONString]

        let stdio = try MCPFixtures.sdkClient(write + ["--"] + serve(installation))
        #expect(stdio["steps"]?.arrayValue?.first?["changed"] == true, "\(stdio)")
        #expect(stdio["steps"]?.arrayValue?.first?["list"]?.arrayValue?.contains("explode") == true)
        #expect(stdio["notifications"]?.arrayValue?.contains("notifications/tools/list_changed") == true)

        try FileManager.default.removeItem(atPath: installation.manifests + "/crashing.json")
        let command = try serve(installation, ["--http", "0"])
        let server = try BackgroundProcess(command[0], Array(command.dropFirst()))
        defer { server.stop() }
        let url = try #require(try server.waitForStderr(containing: "/mcp").split(separator: " ").last { $0.hasPrefix("http://") }).trimmingCharacters(in: .whitespacesAndNewlines)
        let http = try MCPFixtures.sdkClient(["--http", url] + write)
        #expect(http["steps"]?.arrayValue?.first?["changed"] == true, "\(http)")
        #expect(http["steps"]?.arrayValue?.first?["list"]?.arrayValue?.contains("explode") == true)
    }
}
