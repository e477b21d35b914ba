import Foundation
import TrailheadSchema

/// Reads the features of a GeoJSON file: a FeatureCollection, a single Feature, or a GeoJSON
/// text sequence (`.geojsonseq`, RFC 8142: one feature per line, optionally preceded by the
/// record separator 0x1E, as `osmium export -f geojsonseq` writes), each also gzip-compressed
/// (`.gz`, as the shipped Wikipedia places are).
enum GeoJSONReader {
    /// Calls `body` with each feature and where it is ("file.geojsonseq:12", "file.geojson: feature 3").
    static func forEachFeature(in path: String, _ body: (GeneratedContent, String) throws -> Void) throws {
        let compressed = path.hasSuffix(".gz")
        guard let data = compressed ? try GzipFile.contents(of: path) : FileManager.default.contents(atPath: path) else {
            throw GeoIndexError("cannot read GeoJSON file '\(path)'")
        }
        let name = compressed ? String(path.dropLast(3)) : path
        let firstByte = data.first { !isWhitespace($0) }
        if firstByte == recordSeparator || name.hasSuffix("seq") || name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") {
            try forEachLine(of: data, path: path, body)
            return
        }
        let document: GeneratedContent
        do { document = try GeneratedContent(json: data) } catch {
            throw GeoIndexError("\(path): not GeoJSON: \(error)")
        }
        switch document["type"]?.stringValue {
        case "FeatureCollection":
            guard let features = document["features"]?.arrayValue else {
                throw GeoIndexError("\(path): a FeatureCollection needs a 'features' array")
            }
            for (index, feature) in features.enumerated() { try body(feature, "\(path): /features/\(index)") }
        case "Feature":
            try body(document, path)
        default:
            throw GeoIndexError("\(path): expected a GeoJSON FeatureCollection or Feature, got \(document["type"]?.stringValue.map { "type '\($0)'" } ?? document.typeName)")
        }
    }

    private static let recordSeparator: UInt8 = 0x1E

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func forEachLine(of data: Data, path: String, _ body: (GeneratedContent, String) throws -> Void) throws {
        var lineNumber = 0
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            let text = line.drop { $0 == recordSeparator || isWhitespace($0) }
            guard !text.isEmpty else { continue }
            let feature: GeneratedContent
            do { feature = try GeneratedContent(json: text) } catch {
                throw GeoIndexError("\(path):\(lineNumber): invalid JSON: \(error)")
            }
            try body(feature, "\(path):\(lineNumber)")
        }
    }
}
