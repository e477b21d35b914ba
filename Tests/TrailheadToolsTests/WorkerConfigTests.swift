import Foundation
import Testing
import TrailheadSchema
import TrailheadTools

/// A manifest's config reaches the plugin whole, however large: it is handed to the worker on a
/// descriptor (one command-line argument may not exceed 128 KB), and read by the linear parser
/// (a 25,000-element array in a config used to take 13.7 s and get the plugin refused).
@Suite struct WorkerConfigTests {
    @Test func aConfigHoldingA25000ElementArrayReachesThePlugin() throws {
        let installation = try TestInstallation()
        try installation.install(product: "libFixtureTool.so")
        let table = GeneratedContent.array((0..<25_000).map { .number(Double($0 * 7)) })
        let names = GeneratedContent.object(JSONObject((0..<5_000).map { ("place \($0)", .string("landmark number \($0)")) }))
        try installation.writeManifest(
            "fixture.json",
            manifest(plugin: "fixture", library: "libFixtureTool.so", sha256: try installation.sha256("libFixtureTool.so"), tools: fixtureTools)
                .setting("config", ["table": table, "names": names]))
        #expect(GeneratedContent.object(["table": table, "names": names]).jsonString.utf8.count > 200_000, "more than one argument may hold")

        let registry = try installation.registry()
        defer { registry.shutdown() }
        try #require(registry.plugin(named: "fixture")?.status == .ok, "\(registry.plugin(named: "fixture")?.status.description ?? "")")
        let config = try registry.call("config", arguments: [:])
        #expect(config["table"] == table)
        #expect(config["names"] == names)
        #expect(config["$home"]?.stringValue == installation.root)
    }
}
