import Foundation
import Testing
import TrailheadSchema
import TrailheadTools

/// One installation holding good plugins and every kind of bad one: each bad one is refused with
/// its reason, and the good ones keep working in the same registry.
@Suite struct RegistryRefusalTests {
    let registry: ToolRegistry

    /// Built once for the suite (Swift Testing makes a suite instance per test).
    private static let shared = Result { try makeRegistry() }

    init() throws { registry = try Self.shared.get().registry }

    private static func makeRegistry() throws -> (installation: TestInstallation, registry: ToolRegistry) {
        let i = try TestInstallation()
        // Good plugins: a Swift plugin in a worker, a C plugin in process, a plain C library bound natively.
        try i.install(product: "libFixtureTool.so")
        try i.writeManifest("fixture.json", manifest(plugin: "fixture", library: "libFixtureTool.so", sha256: try i.sha256("libFixtureTool.so"), tools: fixtureTools))
        try i.compile("plain_plugin.c", to: "libcplain.so")
        try i.writeManifest("cplain.json", manifest(plugin: "cplain", library: "libcplain.so", sha256: try i.sha256("libcplain.so"), isolation: "inProcess", tools: cPlainTools))
        try i.compile("native_lib.c", to: "libtripmath.so")
        try i.writeManifest("tripmath.json", manifest(plugin: "tripmath", library: "libtripmath.so", isolation: "inProcess", tools: [
            nativeTool("tripCost", symbol: "trip_cost_usd", parameters: [("distanceKm", "double"), ("travellers", "int32")], returns: "double"),
        ]))

        // A library path that leaves the plugins folder, directly or through a symbolic link.
        try i.writeManifest("escape.json", manifest(plugin: "escape", library: "../libcplain.so", tools: [jsonTool("esc")]))
        try FileManager.default.copyItem(atPath: i.plugins + "/libcplain.so", toPath: i.root + "/outside.so")
        try FileManager.default.createSymbolicLink(atPath: i.plugins + "/liblink.so", withDestinationPath: i.root + "/outside.so")
        try i.writeManifest("link.json", manifest(plugin: "link", library: "liblink.so", tools: [jsonTool("lnk")]))
        // A wrong pin, and a file changed after it was pinned.
        try i.compile("plain_plugin.c", to: "libbadsha.so")
        try i.writeManifest("badsha.json", manifest(plugin: "cplain", library: "libbadsha.so", sha256: String(repeating: "0", count: 64), tools: [jsonTool("bs")]))
        try i.compile("plain_plugin.c", to: "libchanged.so")
        try i.writeManifest("changed.json", manifest(plugin: "cplain", library: "libchanged.so", sha256: try i.sha256("libchanged.so"), tools: [jsonTool("ch")]))
        let handle = try #require(FileHandle(forWritingAtPath: i.plugins + "/libchanged.so"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("tampered".utf8))
        try handle.close()
        // Not a shared library at all.
        try "#!/bin/sh\necho hi\n".write(toFile: i.plugins + "/libnotelf.so", atomically: true, encoding: .utf8)
        try i.writeManifest("notelf.json", manifest(plugin: "notelf", library: "libnotelf.so", tools: [jsonTool("ne")]))
        // ELF but truncated: dlopen itself fails.
        let truncated = try Data(contentsOf: URL(fileURLWithPath: i.plugins + "/libcplain.so")).prefix(200)
        try truncated.write(to: URL(fileURLWithPath: i.plugins + "/libtruncated.so"))
        try i.writeManifest("truncated.json", manifest(plugin: "truncated", library: "libtruncated.so", isolation: "inProcess", tools: [jsonTool("tr")]))
        // ABI version 2, and no trailhead_plugin_v1 at all (in a worker and in process).
        try i.compile("wrong_abi.c", to: "libwrongabi.so")
        try i.writeManifest("wrongabi.json", manifest(plugin: "wrongabi", library: "libwrongabi.so", tools: [jsonTool("wa")]))
        try i.compile("no_symbol.c", to: "libnosymbol.so")
        try i.writeManifest("nosymbol.json", manifest(plugin: "nosymbol", library: "libnosymbol.so", tools: [jsonTool("ns")]))
        try i.writeManifest("nosymbol-inprocess.json", manifest(plugin: "nosymbol2", library: "libnosymbol.so", isolation: "inProcess", tools: [jsonTool("ns2")]))
        // A manifest whose plugin name is not the library's.
        try i.writeManifest("impostor.json", manifest(plugin: "impostor", library: "libcplain.so", tools: [jsonTool("imp")]))
        // Clashes with the good plugins (file names sort after theirs).
        try i.writeManifest("zz-plugin-clash.json", manifest(plugin: "fixture", library: "libFixtureTool.so", tools: [jsonTool("other")]))
        try i.writeManifest("zz-tool-clash.json", manifest(plugin: "cplainagain", library: "libcplain.so", tools: [jsonTool("echo")]))
        // Manifest-level errors.
        try i.writeManifest("badname.json", manifest(plugin: "badname", library: "libcplain.so", tools: [jsonTool("no spaces allowed")]))
        var orphan = nativeTool("orphan", symbol: "trip_cost_usd", parameters: [("distanceKm", "double")], returns: "double").objectValue!
        orphan["arguments"] = ["type": "object", "properties": ["km": ["type": "number"]], "required": ["km"]]
        try i.writeManifest("orphan.json", manifest(plugin: "orphan", library: "libtripmath.so", tools: [.object(orphan)]))
        try i.writeManifest("missing-symbol.json", manifest(plugin: "missing", library: "libtripmath.so", isolation: "inProcess", tools: [
            nativeTool("nothing", symbol: "no_such_function", parameters: [], returns: "void"),
        ]))
        try i.writeManifest("broken.json", text: "{\"manifestVersion\": 1, \"plugin\": ")
        return (i, try i.registry())
    }

    private func reason(_ file: String) -> String? {
        guard let record = registry.plugins.first(where: { ($0.manifestFile as NSString).lastPathComponent == file }) else { return "no record" }
        if case .refused(let reason) = record.status { return reason }
        return nil
    }

    private func expectRefused(_ file: String, _ fragments: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        let reason = reason(file)
        #expect(reason != nil, "\(file) was loaded", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(reason?.contains(fragment) == true, "\(file): \(reason ?? "ok") lacks '\(fragment)'", sourceLocation: sourceLocation)
        }
    }

    @Test func goodPluginsLoad() {
        for file in ["fixture.json", "cplain.json", "tripmath.json"] { #expect(reason(file) == nil, "\(file): \(reason(file) ?? "")") }
        #expect(Set(registry.tools.map(\.name)) == ["echo", "crash", "hang", "garbage", "fail", "config", "c_echo", "c_fail", "c_not_json", "c_huge", "tripCost"])
    }

    @Test func everyBadPluginIsRefusedWithItsReason() {
        expectRefused("escape.json", "'../libcplain.so'", "no path separators")
        expectRefused("link.json", "resolves outside the plugins folder")
        expectRefused("badsha.json", "sha256 mismatch", String(repeating: "0", count: 64))
        expectRefused("changed.json", "sha256 mismatch")
        expectRefused("notelf.json", "libnotelf.so", "not a shared library")
        expectRefused("truncated.json", "dlopen failed")
        expectRefused("wrongabi.json", "ABI version 2", "supports ABI version 1")
        expectRefused("nosymbol.json", "no symbol 'trailhead_plugin_v1'")
        expectRefused("nosymbol-inprocess.json", "no symbol 'trailhead_plugin_v1'")
        expectRefused("impostor.json", "plugin name is 'cplain'", "says 'impostor'")
        expectRefused("zz-plugin-clash.json", "'fixture' is already used by fixture.json")
        expectRefused("zz-tool-clash.json", "tool name 'echo' is already provided by plugin 'fixture'")
        expectRefused("badname.json", "/tools/0/name", "no spaces allowed")
        expectRefused("orphan.json", "/tools/0/binding/parameters/0/argument", "'distanceKm' has no matching argument")
        expectRefused("missing-symbol.json", "no symbol 'no_such_function'")
        expectRefused("broken.json", "not valid JSON")
    }

    @Test func goodPluginsWorkBesideTheRefusedOnes() throws {
        #expect(try registry.call("echo", arguments: ["from": "worker"]) == ["from": "worker"])
        #expect(try registry.call("c_echo", arguments: ["from": "c"]) == ["from": "c"])
        #expect(try registry.call("tripCost", arguments: ["distanceKm": 100, "travellers": 2]) == ["result": 54])
    }

    @Test func toolsOfRefusedPluginsAreUnavailableWithTheReason() {
        let message = registry.result(of: "wa", arguments: [:]).errorDescription ?? ""
        #expect(message.hasPrefix("tool 'wa' is unavailable: plugin 'wrongabi' was refused: "), "\(message)")
        #expect(message.contains("ABI version 2"), "\(message)")
        #expect(throws: ToolCallError.unknownTool("nonexistent")) { try registry.call("nonexistent", arguments: [:]) }
    }

    @Test func inProcessToolErrorsAndBadResults() {
        #expect(throws: ToolCallError.failed(tool: "c_fail", message: "c_fail always fails")) { try registry.call("c_fail", arguments: [:]) }
        #expect(registry.result(of: "c_not_json", arguments: [:]).errorDescription?.contains("not JSON") == true)
        #expect(registry.result(of: "c_huge", arguments: [:]).errorDescription?.contains("more than the 1048576 allowed") == true)
    }
}

extension Result where Failure == ToolCallError {
    var errorDescription: String? {
        if case .failure(let error) = self { error.description } else { nil }
    }
}
