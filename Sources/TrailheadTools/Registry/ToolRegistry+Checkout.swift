import Foundation

extension ToolRegistry.Configuration {
    /// The plugins installed in a Trailhead checkout (`make` installs the bundled ones): its
    /// `Plugins/` and `Manifests/`, and the `agent-tool-host` it built — for programs built
    /// elsewhere (an agent in another package) that use the checkout's plugins.
    public static func checkout(_ home: String) -> ToolRegistry.Configuration {
        var toolHost = defaultToolHost
        if !FileManager.default.isExecutableFile(atPath: toolHost) {
            for configuration in ["release", "debug"] where FileManager.default.isExecutableFile(atPath: "\(home)/.build/\(configuration)/agent-tool-host") {
                toolHost = "\(home)/.build/\(configuration)/agent-tool-host"
                break
            }
        }
        return ToolRegistry.Configuration(pluginsFolder: home + "/Plugins", manifestsFolder: home + "/Manifests", home: home, toolHost: toolHost)
    }
}
