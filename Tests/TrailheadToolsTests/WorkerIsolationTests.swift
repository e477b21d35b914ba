import Foundation
import Testing
import TrailheadSchema
import TrailheadTools

/// Plugins in `agent-tool-host` workers: crashes, hangs and garbage become tool errors, the worker
/// restarts, and a plugin that keeps crashing is quarantined until its library changes.
@Suite(.serialized) struct WorkerIsolationTests {
    private func fixtureInstallation(timeoutMs: Int = 1500, config: GeneratedContent? = nil) throws -> (TestInstallation, ToolRegistry) {
        let i = try TestInstallation()
        try i.install(product: "libFixtureTool.so")
        var document = manifest(plugin: "fixture", library: "libFixtureTool.so", sha256: try i.sha256("libFixtureTool.so"), timeoutMs: timeoutMs, tools: fixtureTools)
        if let config { document = document.setting("config", config) }
        try i.writeManifest("fixture.json", document)
        let registry = try i.registry()
        try #require(registry.plugins.first?.status == .ok, "\(registry.plugins.first?.status.description ?? "no plugin")")
        return (i, registry)
    }

    @Test func echoAndToolErrorsThroughTheWorker() throws {
        let (installation, registry) = try fixtureInstallation()
        defer { registry.shutdown(); withExtendedLifetime(installation) {} }
        let arguments: GeneratedContent = ["text": "héllo \"quoted\"\n", "n": [1, 2.5, -3e-7], "nested": ["ok": true, "none": nil]]
        #expect(try registry.call("echo", arguments: arguments) == arguments)
        #expect(throws: ToolCallError.failed(tool: "fail", message: "this tool always fails")) { try registry.call("fail", arguments: [:]) }
    }

    @Test func aPluginPrintingToStdoutCannotCorruptTheProtocol() throws {
        let (installation, registry) = try fixtureInstallation()
        defer { registry.shutdown(); withExtendedLifetime(installation) {} }
        #expect(try registry.call("garbage", arguments: [:]) == ["ok": true])
        #expect(try registry.call("echo", arguments: ["after": "garbage"]) == ["after": "garbage"])
    }

    @Test func aCrashIsAToolErrorAndTheWorkerRestarts() throws {
        let (installation, registry) = try fixtureInstallation()
        defer { registry.shutdown(); withExtendedLifetime(installation) {} }
        let segfault = registry.result(of: "crash", arguments: ["how": "segfault"]).errorDescription ?? ""
        #expect(segfault.contains("tool 'crash' crashed"), "\(segfault)")
        #expect(segfault.contains("signal 11"), "\(segfault)")
        #expect(segfault.contains("fixture: crashing on purpose"), "the crash report quotes the worker's stderr: \(segfault)")
        #expect(try registry.call("echo", arguments: ["again": 1]) == ["again": 1])
        let abort = registry.result(of: "crash", arguments: ["how": "abort"]).errorDescription ?? ""
        #expect(abort.contains("signal 6"), "\(abort)")
        #expect(try registry.call("echo", arguments: ["again": 2]) == ["again": 2])
    }

    @Test func aHangTimesOutAndTheWorkerIsReplaced() throws {
        let (installation, registry) = try fixtureInstallation(timeoutMs: 500)
        defer { registry.shutdown(); withExtendedLifetime(installation) {} }
        #expect(throws: ToolCallError.timedOut(tool: "hang", plugin: "fixture", timeoutMs: 500)) { try registry.call("hang", arguments: [:]) }
        #expect(try registry.call("echo", arguments: ["alive": true]) == ["alive": true])
    }

    @Test func thePluginIsOpenedWithItsConfigAndHome() throws {
        let (installation, registry) = try fixtureInstallation(config: ["calendar": "Data/sample/calendar.ics"])
        defer { registry.shutdown(); withExtendedLifetime(installation) {} }
        let config = try registry.call("config", arguments: [:])
        #expect(config["calendar"] == "Data/sample/calendar.ics")
        #expect(config["$home"]?.stringValue == installation.root)
    }

    @Test func asyncCallsOverlapAcrossToolsAndStaySerialisedPerPlugin() async throws {
        let (installation, registry) = try fixtureInstallation()
        defer { registry.shutdown(); withExtendedLifetime(installation) {} }
        let results = try await withThrowingTaskGroup(of: GeneratedContent.self) { group in
            for index in 0..<20 { group.addTask { try await registry.call("echo", arguments: ["i": .number(Double(index))]) } }
            return try await group.reduce(into: [GeneratedContent]()) { $0.append($1) }
        }
        #expect(Set(results.compactMap { $0["i"]?.intValue }) == Set(0..<20))
    }

    @Test func repeatedCrashesQuarantineUntilTheLibraryChanges() throws {
        let i = try TestInstallation()
        try i.compile("plain_plugin.c", to: "libcplain.so")
        try i.writeManifest("cplain.json", manifest(plugin: "cplain", library: "libcplain.so", tools: cPlainTools + [jsonTool("c_segfault")]))
        let registry = try i.registry(crashLimit: 3)
        defer { registry.shutdown() }
        try #require(registry.plugins.first?.status == .ok)
        for attempt in 1...3 {
            let message = registry.result(of: "c_segfault", arguments: [:]).errorDescription ?? ""
            #expect(message.contains("signal 11"), "attempt \(attempt): \(message)")
            #expect(message.contains("quarantined") == (attempt == 3), "attempt \(attempt): \(message)")
        }
        let refused = registry.result(of: "c_echo", arguments: [:]).errorDescription ?? ""
        #expect(refused.contains("quarantined after 3 crashes in a row"), "\(refused)")

        // A rebuilt library (new file, new mtime) lifts the quarantine.
        try FileManager.default.removeItem(atPath: i.plugins + "/libcplain.so")
        try i.compile("plain_plugin.c", to: "libcplain.so", flags: ["-O2"])
        #expect(try registry.call("c_echo", arguments: ["back": true]) == ["back": true])
    }

    @Test func aPinnedLibraryReplacedAfterLoadingIsNotRestarted() throws {
        let i = try TestInstallation()
        try i.compile("plain_plugin.c", to: "libcplain.so")
        try i.writeManifest("cplain.json", manifest(plugin: "cplain", library: "libcplain.so", sha256: try i.sha256("libcplain.so"), tools: cPlainTools + [jsonTool("c_segfault")]))
        let registry = try i.registry()
        defer { registry.shutdown() }
        #expect(try registry.call("c_echo", arguments: [:]) == [:])
        _ = registry.result(of: "c_segfault", arguments: [:])
        try FileManager.default.removeItem(atPath: i.plugins + "/libcplain.so")
        try i.compile("plain_plugin.c", to: "libcplain.so", flags: ["-O2", "-DSWAPPED=1"])
        let message = registry.result(of: "c_echo", arguments: [:]).errorDescription ?? ""
        #expect(message.contains("sha256 mismatch"), "\(message)")
    }

    @Test func nativeBindingThroughTheWorker() throws {
        let i = try TestInstallation()
        try i.compile("native_lib.c", to: "libtripmath.so")
        try i.writeManifest("tripmath.json", manifest(plugin: "tripmath", library: "libtripmath.so", tools: [
            nativeTool("tripCost", symbol: "trip_cost_usd", parameters: [("distanceKm", "double"), ("travellers", "int32")], returns: "double"),
            nativeTool("greet", symbol: "greeting", parameters: [("name", "string"), ("times", "int32")], returns: "string", free: "greeting_free"),
        ]))
        let registry = try i.registry()
        defer { registry.shutdown() }
        #expect(registry.tool(named: "tripCost")?.isolation == .process)
        #expect(try registry.call("tripCost", arguments: ["distanceKm": 10, "travellers": 1]) == ["result": 16.2])
        #expect(try registry.call("greet", arguments: ["name": "Ada", "times": 2]) == ["result": "hello, Ada x2"])
    }
}
