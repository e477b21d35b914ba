import Foundation
import Testing
import TrailheadSchema
import TrailheadTestSupport
import TrailheadTools

/// `agent tools …` end to end: the built `agent` executable on real plugin folders.
@Suite struct AgentToolsCommandTests {
    /// Runs `.build/<config>/agent` with the installation's folders appended.
    private func agent(_ arguments: [String], in installation: TestInstallation) throws -> AgentProcess.Result {
        try AgentProcess.run(arguments + ["--plugins", installation.plugins, "--manifests", installation.manifests])
    }

    @Test func aCPluginBuiltAgainstTheHeaderAloneRegistersAndAnswers() throws {
        // Given a folder holding nothing of this repository but the header and a plugin's source…
        let outsider = NSTemporaryDirectory() + "trailhead-outsider-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: outsider, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outsider) }
        try FileManager.default.copyItem(atPath: CPluginSources.headerFolder + "/trailhead_tool.h", toPath: outsider + "/trailhead_tool.h")
        try FileManager.default.copyItem(atPath: CPluginSources.folder + "/plain_plugin.c", toPath: outsider + "/plugin.c")
        let installation = try TestInstallation()
        // …compiled by plain gcc and dropped into the plugins folder…
        try run("/usr/bin/gcc", ["-shared", "-fPIC", "-o", installation.plugins + "/libcplain.so", outsider + "/plugin.c"])

        // …`register` writes its embedded manifest, pinned…
        let registered = try agent(["tools", "register", installation.plugins + "/libcplain.so"], in: installation)
        #expect(registered.status == 0, "\(registered.stderr)")
        let written = try Manifest(jsonText: String(contentsOfFile: installation.manifests + "/cplain.json", encoding: .utf8))
        #expect(written.library == "libcplain.so")
        #expect(written.sha256 == (try installation.sha256("libcplain.so")))

        // …and its tools answer through `agent tools call`.
        let called = try agent(["tools", "call", "c_echo", "--args", #"{"trip":"Joshua Tree","days":3}"#], in: installation)
        #expect(called.status == 0, "\(called.stderr)")
        #expect(try GeneratedContent(json: called.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == ["trip": "Joshua Tree", "days": 3])

        // Registering it again after a rebuild updates the pin and keeps what the user tuned.
        let tuned = written.json.setting("timeoutMs", 1234).setting("config", ["answer": 42])
        try installation.writeManifest("cplain.json", tuned)
        try FileManager.default.removeItem(atPath: installation.plugins + "/libcplain.so")
        try run("/usr/bin/gcc", ["-shared", "-fPIC", "-O2", "-o", installation.plugins + "/libcplain.so", outsider + "/plugin.c"])
        let again = try agent(["tools", "register", installation.plugins + "/libcplain.so"], in: installation)
        #expect(again.status == 0 && again.stdout.hasPrefix("updated plugin 'cplain'"), "\(again.stdout)\(again.stderr)")
        let updated = try Manifest(jsonText: String(contentsOfFile: installation.manifests + "/cplain.json", encoding: .utf8))
        #expect(updated.sha256 == (try installation.sha256("libcplain.so")))
        #expect(updated.sha256 != written.sha256)
        #expect(updated.timeoutMs == 1234)
        #expect(updated.config == ["answer": 42])

        // A manifest of another library under the same name is not overwritten without --force.
        try installation.writeManifest("cplain.json", tuned.setting("library", "libother.so"))
        let clash = try agent(["tools", "register", installation.plugins + "/libcplain.so"], in: installation)
        #expect(clash.status == 1 && clash.stderr.contains("--force"), "\(clash.stderr)")
        let forced = try agent(["tools", "register", "--force", installation.plugins + "/libcplain.so"], in: installation)
        #expect(forced.status == 0, "\(forced.stderr)")
    }

    @Test func aPlainCFunctionIsCalledThroughTheNativeBinding() throws {
        let installation = try TestInstallation()
        try run("/usr/bin/gcc", ["-shared", "-fPIC", "-o", installation.plugins + "/libtripmath.so", CPluginSources.folder + "/native_lib.c"])
        try installation.writeManifest("tripmath.json", manifest(plugin: "tripmath", library: "libtripmath.so", sha256: try installation.sha256("libtripmath.so"), tools: [
            nativeTool("tripCost", symbol: "trip_cost_usd", parameters: [("distanceKm", "double"), ("travellers", "int32")], returns: "double"),
            nativeTool("greet", symbol: "greeting", parameters: [("name", "string"), ("times", "int32")], returns: "string", free: "greeting_free"),
        ]))
        let cost = try agent(["tools", "call", "tripCost", "--args", #"{"distanceKm": 100, "travellers": 2}"#], in: installation)
        #expect(cost.status == 0, "\(cost.stderr)")
        #expect(cost.stdout == "{\"result\":54}\n")
        let greet = try agent(["tools", "call", "greet", "--args", #"{"name": "Ada", "times": 1}"#], in: installation)
        #expect(greet.stdout == "{\"result\":\"hello, Ada x1\"}\n", "\(greet.stderr)")
    }

    @Test func listShowsEveryToolWithItsStatusAndRefusals() throws {
        let installation = try TestInstallation()
        try installation.install(product: "libFixtureTool.so")
        try installation.writeManifest("fixture.json", manifest(plugin: "fixture", library: "libFixtureTool.so", tools: fixtureTools))
        try installation.writeManifest("escape.json", manifest(plugin: "escape", library: "../libFixtureTool.so", tools: [jsonTool("esc")]))
        let table = try agent(["tools", "list"], in: installation)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("echo"))
        #expect(table.stdout.contains("refused: library '../libFixtureTool.so' must be a plain file name"), "\(table.stdout)")

        let json = try agent(["tools", "list", "--json"], in: installation)
        let rows = try GeneratedContent(json: json.stdout)["tools"]?.arrayValue ?? []
        let echo = rows.first { $0["tool"] == "echo" }
        #expect(echo?["plugin"] == "fixture")
        #expect(echo?["isolation"] == "process")
        #expect(echo?["status"] == "ok")
        #expect(echo?["description"] == "the echo tool")
        #expect(rows.first { $0["tool"] == "esc" }?["status"]?.stringValue?.hasPrefix("refused: ") == true)
    }

    @Test func inspectDescribesOneTool() throws {
        let installation = try TestInstallation()
        try installation.install(product: "libFixtureTool.so")
        try installation.writeManifest("fixture.json", manifest(plugin: "fixture", library: "libFixtureTool.so", isolation: "inProcess", tools: fixtureTools))
        let inspected = try agent(["tools", "inspect", "echo", "--json"], in: installation)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        let document = try GeneratedContent(json: inspected.stdout)
        #expect(document["plugin"] == "fixture")
        #expect(document["isolation"] == "inProcess")
        #expect(document["arguments"] == ["type": "object"])
        #expect(document["status"] == "ok")
        let unknown = try agent(["tools", "inspect", "nope"], in: installation)
        #expect(unknown.status == 1 && unknown.stderr.contains("unknown tool 'nope'"))
    }

    @Test func callExitCodesForToolErrorsCrashesTimeoutsAndBadArguments() throws {
        let installation = try TestInstallation()
        try installation.install(product: "libFixtureTool.so")
        try installation.writeManifest("fixture.json", manifest(plugin: "fixture", library: "libFixtureTool.so", timeoutMs: 700, tools: fixtureTools))
        let failed = try agent(["tools", "call", "fail"], in: installation)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("this tool always fails"))
        let crashed = try agent(["tools", "call", "crash", "--args", #"{"how":"abort"}"#], in: installation)
        #expect(crashed.status == 1)
        #expect(crashed.stderr.contains("signal 6"), "\(crashed.stderr)")
        let hung = try agent(["tools", "call", "hang"], in: installation)
        #expect(hung.status == 1)
        #expect(hung.stderr.contains("timed out after 700 ms"), "\(hung.stderr)")
        let notJSON = try agent(["tools", "call", "echo", "--args", "{oops"], in: installation)
        #expect(notJSON.status == 2)
        #expect(notJSON.stderr.contains("--args is not JSON"))
    }

    @Test func invalidArgumentsExitWithTwoAndTheViolations() throws {
        let installation = try TestInstallation()
        try installation.install(product: "libFixtureTool.so")
        try installation.writeManifest("fixture.json", manifest(plugin: "fixture", library: "libFixtureTool.so", tools: [
            jsonTool("echo", arguments: ["type": "object", "properties": ["n": ["type": "integer"]], "required": ["n"]]),
        ]))
        let invalid = try agent(["tools", "call", "echo", "--args", #"{"n": "three"}"#], in: installation)
        #expect(invalid.status == 2, "GenerationSchema.validate found no violation (is TrailheadSchema still the contract stub?): \(invalid.stdout)\(invalid.stderr)")
        #expect(invalid.stderr.contains("/n"), "\(invalid.stderr)")
    }
}
