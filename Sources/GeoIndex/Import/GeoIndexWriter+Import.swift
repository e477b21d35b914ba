import Foundation

extension GeoIndexWriter {
    /// Imports the places of a GeoJSON file (see `GeoJSONReader`) or an OpenStreetMap
    /// `.osm.pbf` extract (converted with osmium first) in one transaction: a bad feature
    /// aborts the import naming its line, and nothing of the file is written.
    /// Features without a name or a category, non-places (`NonPlaceFilter`) and twins of curated
    /// places already in the index (`CuratedTwins`) are skipped and counted. Rows are tagged with
    /// `source`, else with the feature's `source` property, else with the file's name.
    public func importFile(_ path: String, source: String? = nil) throws -> ImportSummary {
        var (places, summary) = try Self.readPlaces(path, source: source)
        let curated = try curatedPlaces()
        var twins = CuratedTwins(curated.map { ($0.place, $0.isLandmark) })
        places.removeAll { place in
            guard twins.absorb(place) else { return false }
            summary.skipped[CuratedTwins.skipReason, default: 0] += 1
            summary.imported[place.category, default: 0] -= 1
            return true
        }
        try transaction { writer in
            for index in twins.changed {
                try writer.updateRank(id: curated[index].id, popularity: twins.places[index].popularity, wikipedia: twins.places[index].wikipedia)
            }
            for place in places.sorted(by: Place.spatialOrder) { try writer.add(place) }
        }
        return summary
    }

    /// The places of a file, and what was skipped, without writing anything.
    static func readPlaces(_ path: String, source: String? = nil) throws -> ([Place], ImportSummary) {
        if path.hasSuffix(".osm.pbf") || path.hasSuffix(".osm") {
            let converted = try OSMExtract.convertToGeoJSONSequence(path)
            defer { try? FileManager.default.removeItem(atPath: converted.deletingLastPathComponent) }
            return try readPlaces(converted, source: source ?? "osm")
        }
        let sourceIsFixed = source != nil
        let source = source ?? (path as NSString).lastPathComponent
        var summary = ImportSummary()
        var places: [Place] = []
        try GeoJSONReader.forEachFeature(in: path) { feature, location in
            let outcome: GeoJSONFeature.Outcome
            do { outcome = try GeoJSONFeature.convert(feature, source: source, sourceIsFixed: sourceIsFixed) } catch {
                throw GeoIndexError("\(location): \(error)")
            }
            switch outcome {
            case .place(let place):
                places.append(place)
                summary.imported[place.category, default: 0] += 1
            case .skipped(let reason):
                summary.skipped[reason, default: 0] += 1
            }
        }
        return (places, summary)
    }

    /// Adds places in one transaction, in spatial order (see `Place.spatialOrder`).
    public func add(contentsOf places: [Place]) throws {
        try transaction { writer in
            for place in places.sorted(by: Place.spatialOrder) { try writer.add(place) }
        }
    }
}

extension CuratedTwins {
    static let skipReason = "same as a curated place"
}

extension String {
    var deletingLastPathComponent: String { (self as NSString).deletingLastPathComponent }
}
