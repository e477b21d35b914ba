import Foundation
import Testing
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport

@testable import TrailheadTools

/// Manifests' permissions hold: an isolated plugin reads and writes only what its manifest
/// grants and opens no socket unless `"network": true` (Landlock and seccomp, applied by
/// `agent-tool-host` before it loads the plugin). The plugin is `prying_plugin.c`, written the
/// way an untrusted plugin would be: it simply tries.
@Suite struct PluginSandboxTests {
    /// An installation with the prying plugin, a folder it may read, one it may write, and a
    /// secret beside them that no grant covers.
    private struct Setup {
        let installation: TestInstallation
        let readable: String
        let writable: String
        let secret: String

        init(network: Bool = false, extraTools: [GeneratedContent] = []) throws {
            installation = try TestInstallation()
            try installation.compile("prying_plugin.c", to: "libprying.so")
            readable = installation.root + "/data"
            writable = installation.root + "/out"
            for folder in [readable, writable, installation.root + "/private"] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try "trail notes".write(toFile: readable + "/notes.txt", atomically: true, encoding: .utf8)
            secret = installation.root + "/private/secret.txt"
            try "the user's secret".write(toFile: secret, atomically: true, encoding: .utf8)
            // One grant relative to the installation, one through $TMPDIR.
            let tmpdir = NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
            let writeGrant = "$TMPDIR" + writable.dropFirst(tmpdir.count)
            let tools = ["read_file", "write_file", "open_socket"].map { jsonTool(.string($0)) } + extraTools
            let document = manifest(plugin: "prying", library: "libprying.so", sha256: try installation.sha256("libprying.so"), tools: tools)
                .setting("permissions", ["read": ["data"], "write": [.string(writeGrant)], "network": .bool(network)])
            try installation.writeManifest("prying.json", document)
        }
    }

    @Test func anIsolatedPluginReadsAndWritesOnlyWhatItsManifestGrants() throws {
        let setup = try Setup()
        let registry = try setup.installation.registry()
        defer { registry.shutdown() }
        try #require(registry.plugin(named: "prying")?.status == .ok, "\(registry.plugin(named: "prying")?.status.description ?? "")")

        // What the manifest grants works…
        #expect(try registry.call("read_file", arguments: ["path": .string(setup.readable + "/notes.txt")])["start"] == "trail notes")
        #expect(try registry.call("write_file", arguments: ["path": .string(setup.writable + "/plan.txt"), "text": "day 1"])["written"] == 5)
        #expect(try registry.call("read_file", arguments: ["path": .string(setup.writable + "/plan.txt")])["start"] == "day 1")

        // …what it does not is denied, and the tool error says so.
        let secret = registry.result(of: "read_file", arguments: ["path": .string(setup.secret)]).errorDescription ?? ""
        #expect(secret.contains("cannot read \(setup.secret): Permission denied"), "\(secret)")
        let home = registry.result(of: "read_file", arguments: ["path": .string(NSHomeDirectory() + "/.bashrc")]).errorDescription ?? ""
        #expect(home.contains("Permission denied") || home.contains("No such file"), "\(home)")
        let overwrite = registry.result(of: "write_file", arguments: ["path": .string(setup.readable + "/notes.txt"), "text": "x"])
        #expect(overwrite.errorDescription?.contains("cannot write \(setup.readable)/notes.txt: Permission denied") == true, "\(overwrite)")
        let outside = registry.result(of: "write_file", arguments: ["path": .string(setup.installation.root + "/private/new.txt"), "text": "x"])
        #expect(outside.errorDescription?.contains("Permission denied") == true, "\(outside)")
        #expect(!FileManager.default.fileExists(atPath: setup.installation.root + "/private/new.txt"))
        #expect(try String(contentsOfFile: setup.readable + "/notes.txt", encoding: .utf8) == "trail notes")

        // The worker was not hurt: it answers the next call.
        #expect(try registry.call("read_file", arguments: ["path": .string(setup.readable + "/notes.txt")])["read"] == 11)
    }

    @Test func aPlanGoesOnWhenThePluginIsDenied() throws {
        // Given a plan whose model asks the prying plugin for a secret and for a socket…
        let setup = try Setup()
        let final = #"{"answer":{"title":"Desert Days","description":"Rocks, trees and stars in the desert.","rationale":"A quiet weekend in the park.","days":["#
            + [("Hidden Valley Nature Trail", "Keys View"), ("Barker Dam Nature Trail", "Skull Rock")].map {
                #"{"activities":[{"place":"\#($0.0)"},{"place":"\#($0.1)"}]}"#
            }.joined(separator: ",") + "]}}"
        let script = try setup.installation.script([
            #"{"name":"read_file","arguments":{"path":"\#(setup.secret)"}}"#,
            #"{"name":"open_socket","arguments":{"family":"inet","port":9}}"#,
            #"{"name":"read_file","arguments":{"path":"\#(setup.readable)/notes.txt"}}"#,
            final,
        ])
        let transcript = setup.installation.root + "/run.jsonl"
        let plan = try ChildProcess.run(
            try BuildProducts.path("agent"), setup.installation.planArguments(tools: "prying", script: script, transcript: transcript),
            options: .init(environment: setup.installation.agentEnvironment), timeLimit: 120)

        // …both are denied, the tool errors say so, and the plan goes on to its answer.
        #expect(plan.status == 0, "\(plan.stderr)\n\((try? String(contentsOfFile: transcript, encoding: .utf8)) ?? "")")
        #expect(try GeneratedContent(json: plan.stdout)["days"]?.arrayValue?.count == 2, "\(plan.stdout)")
        let outputs = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n").map { try GeneratedContent(json: String($0)) }
            .filter { $0["kind"] == "toolOutput" }
        #expect(outputs.count == 3)
        #expect(outputs.first?["error"]?.stringValue?.contains("cannot read \(setup.secret): Permission denied") == true, "\(outputs)")
        #expect(outputs.dropFirst().first?["error"]?.stringValue?.contains("cannot open a socket of family inet: Permission denied") == true, "\(outputs)")
        #expect(outputs.last?["result"]?["start"] == "trail notes", "\(outputs)")
        #expect(!plan.stdout.contains("the user's secret"))
    }

    @Test func networkFalseDeniesEverySocket() throws {
        let setup = try Setup()
        let registry = try setup.installation.registry()
        defer { registry.shutdown() }
        let listener = try Listener()
        for family in ["inet", "inet6", "unix"] {
            let denied = registry.result(of: "open_socket", arguments: ["family": .string(family), "port": .number(Double(listener.port))])
            #expect(denied.errorDescription?.contains("cannot open a socket of family \(family): Permission denied") == true, "\(denied)")
        }
    }

    @Test func networkTrueLetsThePluginConnect() throws {
        let setup = try Setup(network: true)
        let registry = try setup.installation.registry()
        defer { registry.shutdown() }
        let listener = try Listener()
        #expect(try registry.call("open_socket", arguments: ["family": "inet", "port": .number(Double(listener.port))]) == ["connected": true])
        // Files stay confined.
        let secret = registry.result(of: "read_file", arguments: ["path": .string(setup.secret)]).errorDescription ?? ""
        #expect(secret.contains("Permission denied"), "\(secret)")
    }

    @Test func sandboxOffRunsThePluginUnconfinedAndSaysSo() throws {
        // Given the worker run by hand with TRAILHEAD_SANDBOX=off…
        let setup = try Setup()
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"\#(setup.secret)"}}}"#,
        ]
        let completed = try ChildProcess.run(
            try BuildProducts.path("agent-tool-host"),
            [setup.installation.plugins + "/libprying.so", "--manifest", setup.installation.manifests + "/prying.json"],
            input: Array((requests.joined(separator: "\n") + "\n").utf8),
            options: .init(environment: ChildProcess.Options.environment(adding: ["TRAILHEAD_SANDBOX": "off"])), timeLimit: 60)
        // …the secret is read, and its stderr says the permissions were not enforced.
        #expect(completed.stdout.contains(#"\"start\":\"the user's secret\""#), "\(completed.stdout)")
        #expect(completed.stderr.contains("libprying.so runs unconfined (TRAILHEAD_SANDBOX=off)"), "\(completed.stderr)")
    }

    @Test func withoutLandlockOrSeccompTheRefusalSaysWhyAndWhatToDo() throws {
        let policy = SandboxPolicy(readable: ["/usr"], network: false)
        let none = SandboxSupport(landlockABI: nil, landlockMissing: "this kernel was built without Landlock (Linux 5.13 or later…)", seccomp: false)
        #expect(throws: SandboxError.self) { try Sandbox.check(policy, support: none) }
        do { try Sandbox.check(policy, support: none) } catch {
            let message = PluginSandbox.refusal("libprying.so", error)
            #expect(message == "libprying.so: cannot enforce the plugin's file permissions: this kernel was built without Landlock "
                + "(Linux 5.13 or later…); set TRAILHEAD_SANDBOX=off to run plugins unconfined")
        }
        let noSeccomp = SandboxSupport(landlockABI: 3, seccomp: false)
        do { try Sandbox.check(policy, support: noSeccomp) } catch {
            #expect(error.message == #"cannot enforce "network": false: this kernel takes no seccomp filters (CONFIG_SECCOMP_FILTER)"#)
        }
        // A plugin allowed the network needs no seccomp; this kernel has what both need.
        try Sandbox.check(SandboxPolicy(network: true), support: noSeccomp)
        try Sandbox.check(policy, support: .probe())
        #expect(SandboxSupport.probe().summary.hasPrefix("Landlock ABI "), "\(SandboxSupport.probe().summary)")
    }

    @Test func grantsResolveAgainstTheInstallationHomeAndKnownVariables() {
        let home = "/srv/trailhead"
        #expect(PluginSandbox.resolve("Data/sample/calendar.ics", home: home) == "/srv/trailhead/Data/sample/calendar.ics")
        #expect(PluginSandbox.resolve("/etc/hosts", home: home) == "/etc/hosts")
        #expect(PluginSandbox.resolve("~/trips", home: home) == NSHomeDirectory() + "/trips")
        #expect(PluginSandbox.resolve("$TMPDIR/x", home: home)?.hasSuffix("/x") == true)
        #expect(PluginSandbox.resolve("$TRAILHEAD_CACHE/geo/poi.sqlite", home: home)?.hasSuffix("/geo/poi.sqlite") == true)
        #expect(PluginSandbox.resolve("$HOME/x", home: home) == nil)
        #expect(PluginSandbox.resolve("~bob/x", home: home) == nil)
    }

    @Test func aGrantNamingAnUnknownVariableRefusesThePlugin() throws {
        let setup = try Setup()
        let text = try String(contentsOfFile: setup.installation.manifests + "/prying.json", encoding: .utf8)
        let document = try GeneratedContent(json: text).setting("permissions", ["read": ["$SECRETS/keys"]])
        try setup.installation.writeManifest("prying.json", document)
        let registry = try setup.installation.registry()
        defer { registry.shutdown() }
        let status = registry.plugin(named: "prying")?.status.description ?? ""
        #expect(status.contains("permissions.read[0] '$SECRETS/keys'"), "\(status)")
    }

    @Test func aManifestToolTheLibraryDoesNotExportIsRefusedNamingBoth() throws {
        // Given a manifest promising a tool the library has never heard of…
        let setup = try Setup(extraTools: [jsonTool("delete_everything")])
        for isolation in ["process", "inProcess"] {
            let text = try String(contentsOfFile: setup.installation.manifests + "/prying.json", encoding: .utf8)
            try setup.installation.writeManifest("prying.json", try GeneratedContent(json: text).setting("isolation", .string(isolation)))
            let registry = try setup.installation.registry()
            defer { registry.shutdown() }
            // …the plugin is refused at load, not "ok" with a tool that fails on every call.
            let status = registry.plugin(named: "prying")?.status.description ?? ""
            #expect(
                status.contains("the manifest's tool 'delete_everything' is not exported by libprying.so "
                    + "(it exports 'read_file', 'write_file', 'open_socket')"), "\(isolation): \(status)")
            #expect(registry.tool(named: "read_file") == nil)
        }
    }
}

/// A TCP listener on 127.0.0.1 (a port the kernel picks), for a plugin to connect to.
private final class Listener {
    let fd: Int32
    let port: Int

    init() throws {
        (fd, port) = try LoopbackSocket.listen(port: 0)
    }

    deinit { close(fd) }
}
