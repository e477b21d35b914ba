import Foundation
import TrailheadCLI
import XCTest

/// Where `--plugins` and `--manifests` point when they are not given.
final class CommonOptionsTests: XCTestCase {
    private func context(executable: String, environment: [String: String] = [:], cwd: String = "/work/somewhere") -> CommandContext {
        CommandContext(
            stdout: TextOutput { _ in }, stderr: TextOutput { _ in }, readStandardInput: { [] },
            environment: environment, executablePath: executable, currentDirectory: cwd)
    }

    private func makeCheckout() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-home-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/Plugins", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: root + "/.build/x86_64-unknown-linux-gnu/debug", withIntermediateDirectories: true)
        return root
    }

    func testTrailheadHomeWins() throws {
        let checkout = try makeCheckout()
        let ctx = context(executable: checkout + "/.build/x86_64-unknown-linux-gnu/debug/agent", environment: ["TRAILHEAD_HOME": "/srv/th"])
        XCTAssertEqual(
            PluginFolderOptions().resolved(ctx),
            PluginFolders(plugins: "/srv/th/Plugins", manifests: "/srv/th/Manifests"))
    }

    func testCheckoutAboveTheBuiltExecutable() throws {
        let checkout = try makeCheckout()
        let ctx = context(executable: checkout + "/.build/x86_64-unknown-linux-gnu/debug/agent")
        XCTAssertEqual(CommonOptions.home(context: ctx), checkout)
        XCTAssertEqual(PluginFolderOptions().resolved(ctx).manifests, checkout + "/Manifests")
    }

    func testCurrentDirectoryOtherwise() {
        let ctx = context(executable: "/nonexistent/bin/agent", cwd: "/home/me")
        XCTAssertEqual(CommonOptions.home(context: ctx), "/home/me")
    }

    func testOptionsAreResolvedAgainstTheCurrentDirectory() throws {
        let out = CapturedText()
        let ctx = CommandContext(
            stdout: .capturing(into: out), stderr: TextOutput { _ in }, readStandardInput: { [] },
            environment: ["TRAILHEAD_HOME": "/srv/th"], executablePath: "/x/agent", currentDirectory: "/home/me")
        let status = FoldersProbe.main(["probe", "--plugins", "my/plugins"], version: "0", context: ctx)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(out.text, "/home/me/my/plugins /srv/th/Manifests\n")
    }
}

private struct FoldersProbe: Command {
    static let configuration = CommandConfiguration(name: "probe", summary: "Prints the plugin folders.")

    @OptionGroup var pluginFolders: PluginFolderOptions

    func run(context: CommandContext) async throws -> ExitCode {
        let folders = pluginFolders.resolved(context)
        context.stdout.line("\(folders.plugins) \(folders.manifests)")
        return .success
    }
}
