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
    /// installation), else `$TRAILHEAD_CACHE/geo/poi.sqlite`, else the default path.
    func open(_ config: PluginConfig) throws {
        let path = config.path("index")
            ?? ProcessInfo.processInfo.environment["TRAILHEAD_CACHE"].map { $0 + "/geo/poi.sqlite" }
            ?? NSHomeDirectory() + "/.cache/trailhead/geo/poi.sqlite"
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
