import Foundation
import GeoIndex
import TrailheadPluginKit

/// The points-of-interest plugin: places near a landmark or a point, from the geodata index
/// built by `make` (Scripts/build-geo-index.sh). Config: `{"index": <path of the .sqlite>}`.
@_cdecl("trailhead_plugin_v1")
public func trailheadPluginV1() -> UnsafeRawPointer {
    Plugin(
        name: "poi", version: "1.0.0",
        tools: [FindPointsOfInterest(), DescribeLandmark()],
        isolation: "process", timeoutMs: 5000,
        config: ["index": .string(OpenedIndex.defaultPath)],
        // The folder, not the file: poi.sqlite is a link `make` moves to each new build.
        permissions: ["read": ["$TRAILHEAD_CACHE/geo"], "write": [], "network": false],
        open: { config in try OpenedIndex.shared.open(config) },
        close: { OpenedIndex.shared.close() }
    ).export()
}
