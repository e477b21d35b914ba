import Foundation

/// `--plugins DIR` and `--manifests DIR`, shared by the commands that load plugins
/// (`@OptionGroup var pluginFolders: PluginFolderOptions`), with one way to resolve them.
public struct PluginFolderOptions: ParsableArguments {
    @Option(valueName: "DIR", help: "Plugin libraries folder (default: Plugins/ under the Trailhead home).")
    public var plugins: String?
    @Option(valueName: "DIR", help: "Plugin manifests folder (default: Manifests/ under the Trailhead home).")
    public var manifests: String?

    public init() {}

    /// The plugin and manifest folders: the options when given (relative to the current
    /// directory), else `Plugins/` and `Manifests/` under `CommonOptions.home(context:)`.
    public func resolved(_ context: CommandContext) -> PluginFolders {
        let home = CommonOptions.home(context: context)
        return PluginFolders(
            plugins: plugins.map(context.absolutePath) ?? home + "/Plugins",
            manifests: manifests.map(context.absolutePath) ?? home + "/Manifests")
    }
}

/// Where a command finds the Trailhead home and puts new transcripts.
public enum CommonOptions {
    /// The Trailhead home: `$TRAILHEAD_HOME` when set; else the checkout the executable was
    /// built in, i.e. the nearest folder above the executable's real path (at most four levels,
    /// which covers `.build/<triple>/debug/agent`) that contains `Plugins/`; else the current
    /// directory.
    public static func home(context: CommandContext) -> String {
        if let home = context.environment["TRAILHEAD_HOME"], !home.isEmpty { return context.absolutePath(home) }
        var folder = (context.executablePath as NSString).deletingLastPathComponent
        for _ in 0..<4 {
            folder = (folder as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/Plugins", isDirectory: &isDirectory), isDirectory.boolValue {
                return folder
            }
            if folder == "/" { break }
        }
        return context.currentDirectory
    }
}

extension CommonOptions {
    /// A new transcript file in the runs folder: `runs/<time>-<what, as a slug>.jsonl`.
    public static func newTranscriptPath(home: String, naming what: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let slug = what.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
            .split(separator: "-").joined(separator: "-")
        return "\(home)/runs/\(formatter.string(from: Date()))-\(slug.prefix(40)).jsonl"
    }
}

/// Where plugins and their manifests are.
public struct PluginFolders: Sendable, Equatable {
    public var plugins: String
    public var manifests: String

    public init(plugins: String, manifests: String) {
        self.plugins = plugins
        self.manifests = manifests
    }
}
