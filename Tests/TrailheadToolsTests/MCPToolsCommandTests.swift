import Foundation
import Testing
import TrailheadSchema
import TrailheadTestSupport
import TrailheadTools

/// `agent tools register --mcp`, then `list`, `inspect` and `call` on an MCP server's tools,
/// end to end with the built `agent`.
@Suite struct MCPToolsCommandTests {
    /// Runs `agent` on the installation's folders (given before `--`: what follows is a server's command).
    private func agent(_ arguments: [String], in installation: TestInstallation) throws -> AgentProcess.Result {
        let split = arguments.firstIndex(of: "--") ?? arguments.endIndex
        return try AgentProcess.run(
            arguments[..<split] + ["--plugins", installation.plugins, "--manifests", installation.manifests] + arguments[split...])
    }

    @Test func aServerRegisteredFromTheCommandLineIsListedInspectedAndCalled() throws {
        let installation = try TestInstallation()
        let registered = try agent(["tools", "register", "--mcp", "--timeout-ms", "8000", "--"] + MCPFixtures.command("trail_server.py"), in: installation)
        #expect(registered.status == 0, "\(registered.stderr)")
        #expect(registered.stdout.hasPrefix("registered MCP server 'trail-conditions' (5 tools, 1 refused)"), "\(registered.stdout)")
        #expect(registered.stdout.contains("refused tagged:") && registered.stdout.contains("'propertyNames'"))
        let written = try Manifest(jsonText: String(contentsOfFile: installation.manifests + "/trail-conditions.json", encoding: .utf8))
        #expect(written.timeoutMs == 8000)
        #expect(written.server?.summary.hasSuffix("trail_server.py") == true)

        let rows = try GeneratedContent(json: try agent(["tools", "list", "--json"], in: installation).stdout)["tools"]?.arrayValue ?? []
        #expect(rows.first { $0["tool"] == "trailConditions" }?["status"] == "ok")
        #expect(rows.first { $0["tool"] == "trailConditions" }?["isolation"] == "mcp stdio")
        #expect(rows.first { $0["tool"] == "tagged" }?["status"]?.stringValue?.contains("unsupported keyword \"propertyNames\"") == true)

        let inspected = try GeneratedContent(json: try agent(["tools", "inspect", "trailConditions", "--json"], in: installation).stdout)
        #expect(inspected["plugin"] == "trail-conditions")
        #expect(inspected["server"]?.stringValue?.hasSuffix("trail_server.py") == true)
        #expect(inspected["annotations"]?["readOnly"] == true)
        #expect(inspected["arguments"]?["required"] == ["park", "date"])

        let called = try agent(["tools", "call", "trailConditions", "--args", #"{"park":"Zion","date":"2026-12-21"}"#], in: installation)
        #expect(called.status == 0, "\(called.stderr)")
        #expect(try GeneratedContent(json: called.stdout)["surface"] == "dry")
        let invalid = try agent(["tools", "call", "trailConditions", "--args", #"{"park":"Zion"}"#], in: installation)
        #expect(invalid.status == 2 && invalid.stderr.contains("missing required property \"date\""), "\(invalid.stderr)")
        let failed = try agent(["tools", "call", "refuse", "--args", #"{"reason":"snow"}"#], in: installation)
        #expect(failed.status == 1 && failed.stderr.contains("refused: snow"), "\(failed.stderr)")
    }

    @Test func aClashIsRefusedNamingBothAndAPrefixResolvesIt() throws {
        let installation = try TestInstallation()
        #expect(try agent(["tools", "register", "--mcp", "--"] + MCPFixtures.command("crashing_server.py"), in: installation).status == 0)
        let clash = try agent(["tools", "register", "--mcp", "--"] + MCPFixtures.command("hanging_server.py"), in: installation)
        #expect(clash.status == 1)
        #expect(clash.stderr.contains("tool 'pid' of MCP server 'hanging' clashes with tool 'pid' of plugin 'crashing'"), "\(clash.stderr)")
        #expect(clash.stderr.contains("--prefix"))
        #expect(!FileManager.default.fileExists(atPath: installation.manifests + "/hanging.json"))

        let prefixed = try agent(["tools", "register", "--mcp", "--prefix", "slow_", "--timeout-ms", "1000", "--"] + MCPFixtures.command("hanging_server.py"), in: installation)
        #expect(prefixed.status == 0, "\(prefixed.stderr)")
        let hung = try agent(["tools", "call", "slow_wait"], in: installation)
        #expect(hung.status == 1 && hung.stderr.contains("tool 'slow_wait' timed out after 1000 ms"), "\(hung.stderr)")
        let crashed = try agent(["tools", "call", "explode"], in: installation)
        #expect(crashed.status == 1 && crashed.stderr.contains("exploding on purpose"), "\(crashed.stderr)")
    }

    @Test func usageMistakesAreRefusedBeforeAnythingStarts() throws {
        let installation = try TestInstallation()
        for (arguments, message) in [
            (["tools", "register", "--mcp"], "--mcp needs the server's command after -- or its --url"),
            (["tools", "register", "--mcp", "--url", "http://127.0.0.1:9/mcp", "--", "x"], "not both"),
            (["tools", "register", "--prefix", "p_", "Plugins/libX.so"], "--prefix applies to --mcp only"),
            (["tools", "register", "--mcp", "--prefix", "bad prefix", "--", "x"], "--prefix 'bad prefix' must match"),
            (["mcp", "serve", "--http", "70000"], "--http must be a port"),
            (["mcp", "serve", "--tools", "weather"], "no tool plugin named 'weather'"),
        ] {
            let outcome = try agent(arguments, in: installation)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
        let unreachable = try agent(["tools", "register", "--mcp", "--url", "http://127.0.0.1:9/mcp"], in: installation)
        #expect(unreachable.status == 1 && unreachable.stderr.contains("127.0.0.1:9"), "\(unreachable.stderr)")
    }
}
