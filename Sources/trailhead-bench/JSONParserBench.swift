import Foundation
import TrailheadSchema
import TrailheadSupport

/// `trailhead-bench json`: is the strict JSON parser linear in its input, and how does it compare
/// with Foundation's `JSONSerialization` on the same bytes?
///
/// Documents of 1, 10 and 100 MB (`JSON_BENCH_SIZES_MB`), written once to
/// `$TRAILHEAD_CACHE/bench/` and read into memory before timing, in two shapes made of small
/// arrays and objects: a long array of small records, and one wide object of small arrays (the
/// shapes that were quadratic: 100,000 numbers took over a minute, 25,000 keys 12 s). Both
/// parsers read the same bytes in the same run; times are CPU time of the process (the machine
/// is shared), median of the repetitions. Linear means 100 MB / 1 MB ≈ 100.
struct JSONParserBench: Benchmark {
    let name = "json"

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let sizes = (environment["JSON_BENCH_SIZES_MB"] ?? "1,10,100").split(separator: ",").compactMap { Int($0) }
        let cache = environment["TRAILHEAD_CACHE"] ?? NSHomeDirectory() + "/.cache/trailhead"
        let directory = cache + "/bench"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        print("Load average (1, 5, 15 min) at the start: \(loadAverage()) on \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("CPU time, median of the repetitions; both parsers on the same bytes, in memory.")
        print()
        print("| document | bytes | values | runs | GeneratedContent(json:) | MB/s | JSONSerialization | MB/s | ours / Foundation |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        var ratios: [String] = []
        for shape in Shape.allCases {
            var ours: [Int: Double] = [:]
            for megabytes in sizes {
                let path = directory + "/json-\(shape.fileTag)-\(megabytes)mb.json"
                if !FileManager.default.fileExists(atPath: path) {
                    try Data(shape.document(bytes: megabytes << 20).utf8).write(to: URL(fileURLWithPath: path))
                }
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                let bytes = [UInt8](data)
                let runs = megabytes >= 100 ? 3 : 5
                // Counted once, outside the timings: the parse cannot be skipped, and the table says what was read.
                let counted = countValues(try GeneratedContent(json: bytes))
                let oursTime = try cpuMedian(runs) {
                    guard case .array = try GeneratedContent(json: bytes) else {
                        guard shape == .wideObject else { throw JSONBenchError(message: "not an array: \(path)") }
                        return
                    }
                }
                let foundationTime = try cpuMedian(runs) {
                    let object = try JSONSerialization.jsonObject(with: data)
                    guard (object as? [Any])?.isEmpty == false || (object as? [String: Any])?.isEmpty == false else {
                        throw JSONBenchError(message: "JSONSerialization read nothing from \(path)")
                    }
                }
                ours[megabytes] = oursTime
                let rate = { (t: Double) in String(format: "%.0f", Double(bytes.count) / 1e6 / t) }
                print(
                    "| \(shape.rawValue), \(megabytes) MB | \(bytes.count) | \(counted) | \(runs) | \(seconds(oursTime)) | \(rate(oursTime)) "
                        + "| \(seconds(foundationTime)) | \(rate(foundationTime)) | \(String(format: "%.2f", oursTime / foundationTime)) |")
                fflush(nil)
            }
            if let smallest = sizes.min(), let largest = sizes.max(), smallest < largest {
                let ratio = ours[largest]! / ours[smallest]!
                ratios.append(
                    "Ratio \(largest) MB / \(smallest) MB, ours, \(shape.rawValue): \(String(format: "%.1f", ratio)) "
                        + "(linear ≈ \(largest / smallest))")
            }
        }
        print()
        ratios.forEach { print($0) }
        print("Load average at the end: \(loadAverage())")
    }

    /// Counts every value of the tree.
    private func countValues(_ content: GeneratedContent) -> Int {
        var count = 0
        var pending = [content]
        while let value = pending.popLast() {
            count += 1
            switch value {
            case .array(let elements): pending.append(contentsOf: elements)
            case .object(let members): pending.append(contentsOf: members.values)
            default: break
            }
        }
        return count
    }

    private func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }
}

/// Documents made of small arrays and objects.
private enum Shape: String, CaseIterable {
    /// `[{"id":1,"name":"…","lat":…,"lon":…,"tags":["hike","view"],"open":true,"note":null}, …]`
    case records = "array of small records"
    /// `{"k0":[1,2.5,"x"],"k1":{"a":1,"b":[true]}, …}`: one object with very many keys.
    case wideObject = "one wide object"

    var fileTag: String { self == .records ? "records" : "wide" }

    func document(bytes target: Int) -> String {
        var random = SeededRandom(seed: 13)
        let tags = ["hike", "view", "café", "camp", "museum", "trail", "🌵", "quiet \"spot\""]
        var out = self == .records ? "[" : "{"
        out.reserveCapacity(target + 256)
        var index = 0
        while out.utf8.count < target {
            if index > 0 { out += "," }
            let lat = Double(random.next(180_000_000)) / 1e6 - 90
            let lon = Double(random.next(360_000_000)) / 1e6 - 180
            switch self {
            case .records:
                let tagList = (0..<(1 + random.next(3))).map { _ in GeneratedContent.string(tags[random.next(tags.count)]).jsonString }
                out += #"{"id":\#(index),"name":"place \#(index)","lat":\#(lat),"lon":\#(lon),"tags":[\#(tagList.joined(separator: ","))],"#
                out += #""open":\#(random.next(2) == 0),"note":null}"#
            case .wideObject:
                out += #""k\#(index)":"#
                out += random.next(2) == 0
                    ? #"[\#(random.next(1000)),\#(lat),\#(GeneratedContent.string(tags[random.next(tags.count)]).jsonString)]"#
                    : #"{"a":\#(random.next(100)),"b":[\#(random.next(2) == 0)],"c":\#(lon)}"#
            }
            index += 1
        }
        out += self == .records ? "]" : "}"
        return out
    }
}

private struct JSONBenchError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
