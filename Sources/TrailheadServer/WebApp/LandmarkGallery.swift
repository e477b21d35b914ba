import Foundation
import TrailheadSchema

/// The curated landmarks (`Data/landmarks/*.json`, with their descriptions and points of
/// interest) as the web app's gallery shows them, read once.
enum LandmarkGallery {
    static let landmarks: [GeneratedContent] = {
        guard let home = WebAppFiles.packageHome else { return [] }
        let folder = home + "/Data/landmarks"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return names.compactMap { name -> GeneratedContent? in
            guard let data = FileManager.default.contents(atPath: folder + "/" + name), let landmark = try? GeneratedContent(json: data),
                let title = landmark["name"]?.stringValue
            else { return nil }
            let points = (landmark["pointsOfInterest"]?.arrayValue ?? []).map { point -> GeneratedContent in
                ["name": point["name"] ?? .null, "category": point["category"] ?? .null, "latitude": point["latitude"] ?? .null,
                 "longitude": point["longitude"] ?? .null, "description": point["description"] ?? .null]
            }
            return [
                "id": .string(String(name.dropLast(5))), "name": .string(title), "aliases": landmark["aliases"] ?? [],
                "country": landmark["country"] ?? .null, "kind": landmark["kind"] ?? .null, "latitude": landmark["latitude"] ?? .null,
                "longitude": landmark["longitude"] ?? .null, "description": landmark["description"] ?? .null, "pointsOfInterest": .array(points),
            ]
        }
    }()

    /// The curated landmark whose name or alias `sentence` spells out (whole words, any case),
    /// the longest such name when several are; nil when none is.
    static func named(in sentence: String) -> String? {
        let folded = folded(sentence)
        var best: (name: String, length: Int)?
        for landmark in landmarks {
            guard let name = landmark["name"]?.stringValue else { continue }
            for candidate in [name] + (landmark["aliases"]?.arrayValue ?? []).compactMap(\.stringValue) {
                guard candidate.count >= 3, folded.contains(Self.folded(candidate)), candidate.count > (best?.length ?? 0) else { continue }
                best = (name, candidate.count)
            }
        }
        return best?.name
    }

    /// Lower case, words between single spaces and with a space at each end: " lake tahoe ".
    static func folded(_ text: String) -> String {
        " " + text.lowercased().split { !($0.isLetter || $0.isNumber) }.joined(separator: " ") + " "
    }
}
