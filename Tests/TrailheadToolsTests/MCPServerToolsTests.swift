import Foundation
import Synchronization
import Testing
import TrailheadSchema
import TrailheadTestSupport
@testable import TrailheadTools

/// MCP servers as tools: servers written with the official MCP Python SDK (Tests/Fixtures/mcp),
/// declared by a manifest, loaded by the registry and called like any other tool.
@Suite struct MCPServerToolsTests {
    @Test func aServerIsRegisteredPinnedAndItsToolsCalledLikeAnyOther() throws {
        // Given the trail-conditions server, registered from what it lists…
        let installation = try TestInstallation()
        let manifest = try installation.registerMCP(.stdio(command: try MCPFixtures.command("trail_server.py"), environment: [:], directory: nil))
        #expect(manifest.plugin == "trail-conditions")
        #expect(manifest.sha256?.count == 64)
        #expect(manifest.tools.map(\.name) == ["echo", "trailConditions", "add", "shout", "refuse"])
        // …the tool whose schema uses a keyword outside the subset is refused alone, the keyword named…
        #expect(manifest.refusedTools.map(\.name) == ["tagged"])
        #expect(manifest.refusedTools.first?.reason.contains("'propertyNames'") == true)

        let registry = try installation.registry()
        defer { registry.shutdown() }
        let record = try #require(registry.plugin(named: "trail-conditions"))
        #expect(record.status == .ok)
        #expect(record.status(ofTool: "tagged").description.contains("unsupported keyword \"propertyNames\""))
        // …and the others are ordinary registered tools: schemas, hints, calls, validation, errors.
        #expect(registry.tools.map(\.name) == ["echo", "trailConditions", "add", "shout", "refuse"])
        let conditions = try #require(registry.tool(named: "trailConditions"))
        #expect(conditions.manifest.annotations["readOnly"] == true)
        #expect(conditions.manifest.arguments.json["required"] == ["park", "date"])
        let result = try registry.call("trailConditions", arguments: ["park": "Joshua Tree", "date": "2026-12-19"])
        #expect(result["surface"] == "dusty")
        #expect(result["advice"] == "Carry two litres of water per person.")
        #expect(try registry.call("add", arguments: ["a": 2, "b": 40]) == ["result": 42])
        #expect(try registry.call("shout", arguments: ["text": "trail"]) == ["result": "TRAIL"])
        #expect(throws: ToolCallError.failed(tool: "refuse", message: "Error executing tool refuse: refused: too steep")) {
            try registry.call("refuse", arguments: ["reason": "too steep"])
        }
        // Arguments are checked against the server's schema before the server sees them.
        guard case .failure(.invalidArguments(_, let violations)) = registry.result(of: "trailConditions", arguments: ["park": "x", "date": "19 Dec"]) else {
            Issue.record("a date against the pattern was not refused")
            return
        }
        #expect(violations.map(\.instancePointer) == ["/date"])
        guard case .failure(.unavailable(_, _, let reason)) = registry.result(of: "tagged", arguments: ["tags": [:]]) else {
            Issue.record("the refused tool was callable")
            return
        }
        #expect(reason.contains("propertyNames"))
    }

    @Test func aServerWhoseToolsChangedIsRefusedUntilRegisteredAgain() throws {
        let installation = try TestInstallation()
        let command = try MCPFixtures.command("trail_server.py")
        try installation.registerMCP(.stdio(command: command, environment: [:], directory: nil))
        // The server is updated: one tool's schema changes (TRAIL_SERVER_VARIANT=2 adds an argument).
        let changed = MCPServerSpec.Transport.stdio(command: command, environment: ["TRAIL_SERVER_VARIANT": "2"], directory: nil)
        let text = try String(contentsOfFile: installation.manifests + "/trail-conditions.json", encoding: .utf8)
        var document = try GeneratedContent(json: text)
        document = document.setting("server", MCPServerSpec(transport: changed).json)
        try installation.writeManifest("trail-conditions.json", document)

        let refused = try installation.registry()
        let status = refused.plugin(named: "trail-conditions")?.status.description ?? ""
        #expect(status.contains("its tools changed since it was registered (changed trailConditions)"), "\(status)")
        #expect(refused.tools.isEmpty)
        refused.shutdown()

        // Registered again, it loads with its new schema.
        try installation.registerMCP(changed)
        let registry = try installation.registry()
        defer { registry.shutdown() }
        #expect(registry.plugin(named: "trail-conditions")?.status == .ok)
        #expect(registry.tool(named: "trailConditions")?.manifest.arguments.json["properties"]?["units"] != nil)
    }

    @Test func aCrashIsAToolErrorTheServerRestartsAndRepeatedCrashesQuarantineIt() throws {
        let installation = try TestInstallation()
        try installation.registerMCP(.stdio(command: try MCPFixtures.command("crashing_server.py"), environment: [:], directory: nil))
        let registry = try installation.registry()
        defer { registry.shutdown() }
        let changes = Mutex(0)
        registry.onToolsChanged { changes.withLock { $0 += 1 } }

        let first = try registry.call("pid", arguments: [:])["pid"]
        guard case .failure(.crashed(_, let plugin, let detail)) = registry.result(of: "explode", arguments: [:]) else {
            Issue.record("the crash was not reported as one")
            return
        }
        #expect(plugin == "crashing")
        #expect(detail.contains("exited with status 3"), "\(detail)")
        #expect(detail.contains("exploding on purpose"), "\(detail)")
        // The next call starts a new server.
        let second = try registry.call("pid", arguments: [:])["pid"]
        #expect(first != nil && second != nil && first != second)

        // Three crashes in a row quarantine it: its tools leave the list, and observers hear of it.
        for _ in 0..<3 { _ = registry.result(of: "explode", arguments: ["how": "segfault"]) }
        #expect(registry.tools.isEmpty)
        #expect(registry.plugin(named: "crashing")?.status.description.contains("quarantined") == true)
        #expect(changes.withLock { $0 } == 1)
        guard case .failure(.unavailable(_, _, let reason)) = registry.result(of: "pid", arguments: [:]) else {
            Issue.record("a quarantined server was called")
            return
        }
        #expect(reason.contains("quarantined after 3 crashes in a row"), "\(reason)")
    }

    @Test func aHangTimesOutAndTheServerIsReplaced() throws {
        let installation = try TestInstallation()
        try installation.registerMCP(.stdio(command: try MCPFixtures.command("hanging_server.py"), environment: [:], directory: nil), timeoutMs: 1500)
        let registry = try installation.registry()
        defer { registry.shutdown() }
        let first = try registry.call("pid", arguments: [:])["pid"]
        #expect(throws: ToolCallError.timedOut(tool: "wait", plugin: "hanging", timeoutMs: 1500)) { try registry.call("wait", arguments: [:]) }
        let second = try registry.call("pid", arguments: [:])["pid"]
        #expect(first != second)
    }

    @Test func aCancelledCallStopsTheServerAndTheNextCallStartsAnother() throws {
        let installation = try TestInstallation()
        try installation.registerMCP(.stdio(command: try MCPFixtures.command("hanging_server.py"), environment: [:], directory: nil), timeoutMs: 600_000)
        let registry = try installation.registry()
        defer { registry.shutdown() }
        let first = try registry.call("pid", arguments: [:])["pid"]
        let cancellation = ToolCallCancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { cancellation.cancel() }
        #expect(throws: ToolCallError.cancelled(tool: "wait")) { try registry.result(of: "wait", arguments: [:], cancellation: cancellation).get() }
        let second = try registry.call("pid", arguments: [:])["pid"]
        #expect(first != second)
    }

    @Test func clashingToolNamesAreRefusedNamingBothUnlessPrefixed() throws {
        // Both servers have a tool called `pid`.
        let installation = try TestInstallation()
        try installation.registerMCP(.stdio(command: try MCPFixtures.command("crashing_server.py"), environment: [:], directory: nil))
        try installation.registerMCP(.stdio(command: try MCPFixtures.command("hanging_server.py"), environment: [:], directory: nil))
        let clashing = try installation.registry()
        let status = clashing.plugin(named: "hanging")?.status(ofTool: "pid").description ?? ""
        #expect(status.contains("tool name 'pid' of plugin 'hanging' clashes with tool 'pid' of plugin 'crashing'"), "\(status)")
        #expect(clashing.tool(named: "pid")?.plugin == "crashing")
        #expect(clashing.tool(named: "wait")?.plugin == "hanging")
        clashing.shutdown()

        try installation.registerMCP(.stdio(command: try MCPFixtures.command("hanging_server.py"), environment: [:], directory: nil), prefix: "hanging_")
        let registry = try installation.registry()
        defer { registry.shutdown() }
        #expect(registry.tools.map(\.name) == ["pid", "explode", "hanging_pid", "hanging_wait"])
        let crashing = try registry.call("pid", arguments: [:])["pid"]
        let hanging = try registry.call("hanging_pid", arguments: [:])["pid"]
        #expect(crashing != hanging)
    }

    @Test func aStreamableHTTPServerIsReachedByItsURL() throws {
        let port = try freeLoopbackPort()
        let server = try BackgroundProcess(try TrailheadCache.python(), [MCPFixtures.path("trail_server.py"), "--http", String(port)])
        defer { server.stop() }
        try server.waitForStderr(containing: "Uvicorn running")
        let installation = try TestInstallation()
        let manifest = try installation.registerMCP(.http(url: "http://127.0.0.1:\(port)/mcp"), plugin: "trail-http")
        #expect(manifest.tools.count == 5)
        let registry = try installation.registry()
        defer { registry.shutdown() }
        #expect(registry.plugin(named: "trail-http")?.status == .ok)
        let result = try registry.call("trailConditions", arguments: ["park": "Zion", "date": "2026-12-20"])
        #expect(result["surface"] == "muddy")
        #expect(throws: ToolCallError.failed(tool: "refuse", message: "Error executing tool refuse: refused: closed")) {
            try registry.call("refuse", arguments: ["reason": "closed"])
        }
    }

    @Test func newManifestsAreLoadedByRefreshAndRemovedOnesUnloaded() throws {
        let installation = try TestInstallation()
        let registry = try installation.registry()
        defer { registry.shutdown() }
        #expect(registry.tools.isEmpty)
        let changes = Mutex(0)
        registry.onToolsChanged { changes.withLock { $0 += 1 } }
        #expect(registry.refresh() == false)

        try installation.registerMCP(.stdio(command: try MCPFixtures.command("crashing_server.py"), environment: [:], directory: nil))
        #expect(registry.refresh())
        #expect(registry.tools.map(\.name) == ["pid", "explode"])
        #expect(try registry.call("pid", arguments: [:])["pid"] != nil)

        try FileManager.default.removeItem(atPath: installation.manifests + "/crashing.json")
        #expect(registry.refresh())
        #expect(registry.tools.isEmpty)
        #expect(changes.withLock { $0 } == 2)
    }
}
