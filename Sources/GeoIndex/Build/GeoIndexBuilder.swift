import Foundation

/// Builds a whole index file from its sources: curated landmarks, then GeoJSON files (the
/// exported open data, or the user's own), each in its own transaction.
///
/// The index is written beside `output` under a temporary name and renamed into place at the
/// end, so a reader never sees a half-built index and a failed build leaves the old one.
public enum GeoIndexBuilder {
    public static func build(output: String, landmarksDirectory: String?, geoJSONFiles: [String]) throws -> ImportSummary {
        let temporary = output + ".building"
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
        var summary = ImportSummary()
        do {
            let writer = try GeoIndexWriter(path: temporary)
            if let landmarksDirectory {
                summary.merge(try writer.importLandmarks(LandmarkFile.loadDirectory(landmarksDirectory)))
            }
            var sources: [String] = landmarksDirectory.map { ["landmarks: \($0)"] } ?? []
            for file in geoJSONFiles {
                summary.merge(try writer.importFile(file))
                sources.append(file)
            }
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
