import Foundation
import TrailheadSchema
import TrailheadSupport

/// `trailhead-bench partial-json`: is streaming parsing linear in the text?
///
/// Itinerary-like documents of 50, 100 and 200 KB (compact JSON, as a model emits it under a
/// grammar) are fed in 4-byte chunks — about one token each — with a snapshot taken after
/// every chunk (the most a streaming UI could ask for) and released before the next one.
/// Times are CPU time of the process (the machine is shared), median of the repetitions.
/// Linear cost means the 200 KB / 50 KB time ratio is about 4; a parser that re-parsed or
/// rebuilt the tree on each snapshot would give about 16.
struct PartialJSONBench: Benchmark {
    let name = "partial-json"
    let sizesKB = [50, 100, 200]
    let chunkSize = 4
    let repetitions = 7

    func run() throws {
        print("Chunks of \(chunkSize) bytes, a snapshot after every chunk; CPU time, median of \(repetitions) runs.")
        print()
        print("| document | bytes | feed + snapshot each chunk | µs/KB | feed only | µs/KB | strict parse (whole) |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        var streamingTimes: [Int: Double] = [:]
        for shape in DocumentShape.allCases {
            for kb in sizesKB {
                let text = shape.document(bytes: kb * 1024)
                let bytes = Array(text.utf8)
                let expected = try GeneratedContent(json: text)
                let streaming = try median { try feed(bytes, snapshots: true, expected: expected) }
                let feedOnly = try median { try feed(bytes, snapshots: false, expected: expected) }
                let strict = try median { _ = try GeneratedContent(json: bytes) }
                if shape == .days { streamingTimes[kb] = streaming }
                let perKB = { (t: Double) in String(format: "%.1f", t * 1e6 / (Double(bytes.count) / 1024)) }
                print(
                    "| \(shape.rawValue) \(kb) KB | \(bytes.count) | \(ms(streaming)) | \(perKB(streaming)) "
                        + "| \(ms(feedOnly)) | \(perKB(feedOnly)) | \(ms(strict)) |")
            }
        }
        print()
        let ratio = streamingTimes[200]! / streamingTimes[50]!
        print("Ratio 200 KB / 50 KB (itinerary days, with snapshots): \(String(format: "%.2f", ratio)) (linear ≈ 4, quadratic ≈ 16)")
    }

    /// Feeds the document chunk by chunk; checks the result so the work cannot be skipped.
    private func feed(_ bytes: [UInt8], snapshots: Bool, expected: GeneratedContent) throws {
        var parser = PartialJSONParser()
        var seen = 0
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            try parser.append(bytes: bytes[start..<end])
            if snapshots, case .object(let members)? = parser.snapshot() { seen &+= members.count }
            start = end
        }
        guard try parser.finish() == expected, !snapshots || seen > 0 else {
            throw BenchError(message: "the streamed document differs from the strict parser's")
        }
    }

    /// Warm-up first: allocator and caches, untimed.
    private func median(_ body: () throws -> Void) throws -> Double { try cpuMedian(repetitions, warmUp: true, body) }

    private func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
}

private struct BenchError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Documents whose size is made of different things, to stress different parts of the parser.
private enum DocumentShape: String, CaseIterable {
    /// Many days of a few activities: a long array of finished subtrees at the top.
    case days = "itinerary days"
    /// A few days whose notes are long strings: long partial strings.
    case longNotes = "long notes"

    func document(bytes target: Int) -> String {
        var random = SeededRandom(seed: 2026)
        let places = ["Hidden Valley Nature Trail", "Keys View", "Ryan Mountain", "Crossroads Café", "Cholla Cactus Garden",
                      "Skull Rock", "Barker Dam", "Arch Rock", "Pappy & Harriet's", "Cottonwood Spring", "Jumbo Rocks Campground"]
        let categories = ["hike", "viewpoint", "restaurant", "campground", "museum", "lodging", "drive"]
        let words = ["granite", "sunrise", "cholla", "quiet", "trail", "water", "shade", "boulders", "stars", "wind", "über", "café", "🌵"]
        func sentence(_ count: Int) -> String {
            (0..<count).map { _ in words[random.next(words.count)] }.joined(separator: " ")
        }
        var days: [GeneratedContent] = []
        var document: GeneratedContent = [:]
        var size = 0
        while size < target {
            let activities: [GeneratedContent] = (0..<(2 + random.next(3))).map { _ in
                [
                    "time": .string(String(format: "%02d:%02d", 6 + random.next(14), random.next(4) * 15)),
                    "place": .string(places[random.next(places.count)]),
                    "category": .string(categories[random.next(categories.count)]),
                    "note": .string(sentence(self == .days ? 6 + random.next(10) : 600 + random.next(400))),
                    "distanceKm": .number(Double(random.next(200)) / 10),
                ]
            }
            let day = 1 + days.count
            days.append(["date": .string(String(format: "2026-%02d-%02d", 1 + (day / 28) % 12, 1 + day % 28)),
                         "activities": .array(activities)])
            document = [
                "title": "Desert Light", "destination": "Joshua Tree National Park",
                "description": "Granite domes, cholla gardens and dark skies.",
                "rationale": "Free days in the calendar; Maya lives nearby.",
                "days": .array(days), "companions": ["Maya Chen", "Léo Martin"],
            ]
            size += activities.reduce(40) { $0 + $1.jsonString.utf8.count }
        }
        return document.jsonString
    }
}

