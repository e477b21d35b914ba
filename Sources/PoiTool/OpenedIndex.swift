import Foundation
import GeoIndex
import TrailheadPluginKit

/// The index the plugin was opened with, shared by its tools.
final class OpenedIndex: @unchecked Sendable {
    static let shared = OpenedIndex()

    /// Where `make` puts the index (a stable link to the newest build).
    static let defaultPath = "~/.cache/trailhead/geo/poi.sqlite"

    private let lock = NSLock()
    private var index: GeoIndex?

    /// Opens the index named by the config's `index` (relative paths against the
    /// installation). The default path follows `$TRAILHEAD_CACHE` when that is set, as
    /// Scripts/build-geo-index.sh does.
    func open(_ config: PluginConfig) throws {
        let cache = ProcessInfo.processInfo.environment["TRAILHEAD_CACHE"]
        let configured = config.string("index") ?? OpenedIndex.defaultPath
        let path = configured == OpenedIndex.defaultPath
            ? (cache ?? NSHomeDirectory() + "/.cache/trailhead") + "/geo/poi.sqlite"
            : config.path("index") ?? configured
        let opened = try GeoIndex(path: path)
        lock.withLock { index = opened }
    }

    func close() { lock.withLock { index = nil } }

    /// The open index, or a tool error when the plugin was not opened.
    func get() throws -> GeoIndex {
        guard let index = lock.withLock({ index }) else {
            throw ToolFailure("the points-of-interest index is not open (the plugin's open failed or was not called)")
        }
        return index
    }
}
