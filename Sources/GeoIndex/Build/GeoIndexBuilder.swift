import Foundation

/// Builds a whole index file from its sources: curated landmarks and GeoJSON files (the
/// exported open data, the shipped Wikipedia places, the user's own).
///
/// Every source is read first; rows that duplicate a curated place are left out (the curated
/// entry wins, see `CuratedTwins`); places without a country take the nearest town's
/// (`NearestTown`); then all places are written in one transaction in one
/// Hilbert order (`Place.spatialOrder`), so the row ids of a circle's places, whatever their
/// source, fall into a few short ranges.
///
/// The index is written beside `output` under a temporary name and renamed into place at the
/// end, so a reader never sees a half-built index and a failed build leaves the old one.
public enum GeoIndexBuilder {
    public static func build(output: String, landmarksDirectory: String?, geoJSONFiles: [String]) throws -> ImportSummary {
        let temporary = output + ".building"
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
        var summary = ImportSummary()
        do {
            let landmarks = try landmarksDirectory.map(LandmarkFile.loadDirectory) ?? []
            for landmark in landmarks {
                summary.landmarks += 1
                summary.imported[.landmark, default: 0] += 1
                for poi in landmark.pointsOfInterest { summary.imported[poi.category, default: 0] += 1 }
            }
            var twins = CuratedTwins(landmarks)
            var rows: [Place] = []
            for file in geoJSONFiles {
                var (places, fileSummary) = try GeoIndexWriter.readPlaces(file)
                places.removeAll { place in
                    guard twins.absorb(place) else { return false }
                    fileSummary.skipped[CuratedTwins.skipReason, default: 0] += 1
                    fileSummary.imported[place.category, default: 0] -= 1
                    return true
                }
                summary.merge(fileSummary)
                rows += places
            }
            var places = twins.places + rows
            NearestTown.fill(&places)
            places.sort(by: Place.spatialOrder)
            let writer = try GeoIndexWriter(path: temporary, bulk: true)
            try writer.transaction { writer in
                for landmark in landmarks { try writer.addNames(of: landmark) }
                for place in places { try writer.add(place) }
            }
            let sources: [String] = (landmarksDirectory.map { ["landmarks: \($0)"] } ?? []) + geoJSONFiles
            try writer.setMetadata("sources", sources.joined(separator: "\n"))
            try writer.setMetadata("builtAt", ISO8601DateFormatter().string(from: Date()))
            try writer.optimize()
            try writer.checkpoint()
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
            throw error
        }
        _ = try? FileManager.default.removeItem(atPath: output)
        try FileManager.default.moveItem(atPath: temporary, toPath: output)
        return summary
    }
}
