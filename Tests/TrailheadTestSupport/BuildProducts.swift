import Foundation

/// What `swift build` made (`agent`, `agent-tool-host`, the plugins' `lib*.so`, `Modules/`): the
/// folder that holds the running test bundle, so a build with `--scratch-path` is found as well as
/// the default `.build/debug`; that one when the bundle is somewhere else.
public enum BuildProducts {
    public static let folder: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = (executable as NSString).deletingLastPathComponent
        // The bundle may be a directory (`X.xctest/...`); climb to the folder that holds it.
        while folder.contains(".xctest") { folder = (folder as NSString).deletingLastPathComponent }
        // Every SwiftPM build folder holds the modules it built.
        if FileManager.default.fileExists(atPath: folder + "/Modules") { return folder }
        return Checkout.path(".build/debug")
    }()

    /// The product's path; a clear failure when it was not built.
    public static func path(_ name: String) throws -> String {
        let path = folder + "/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestSetupError("\(name) is not built in \(folder): run `swift build --build-tests` (or `make test`) before `swift test`")
        }
        return path
    }
}
