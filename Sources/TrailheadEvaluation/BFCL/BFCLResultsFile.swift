import Foundation
import TrailheadSchema

/// A BFCL run's results kept on disk as it goes (`agent eval --bfcl --results FILE`), so that a run
/// of hours can stop — Ctrl-C, a machine taken back — and go on later where it stopped, as the same
/// run.
///
/// JSON Lines. The first line says which run it is (`{"run": {…}}`: the options that change a
/// result, the model, the sha256 of the `agent` binary); each further line holds one case's results,
/// every agent's (`{"case": ID, "results": […]}`), written when the case is done. A file of another
/// run is refused, naming what differs. A last line cut short (the process killed while writing it)
/// is dropped, and its case runs again.
public struct BFCLResultsFile {
    public let path: String
    /// The cases done, by id, with each agent's result.
    public private(set) var done: [String: [BFCLEvaluation.CaseResult]] = [:]

    /// Opens `path` for the run described by `run`, reading the cases it holds (a new file starts
    /// with `run`).
    public init(path: String, run: GeneratedContent) throws(BFCLError) {
        self.path = path
        let data = FileManager.default.contents(atPath: path) ?? Data()
        guard !data.isEmpty else {
            try write(Data(GeneratedContent.object(["run": run]).jsonString.utf8 + [0x0A]), append: false)
            return
        }
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if lines.last == "" { lines.removeLast() }
        guard let recorded = (try? GeneratedContent(json: lines[0]))?["run"] else {
            throw BFCLError("\(path) is not a results file of agent eval --bfcl: its first line is not {\"run\": …}")
        }
        let differences = Self.differences(recorded, run)
        guard differences.isEmpty else {
            throw BFCLError("\(path) holds the results of another run (\(differences.joined(separator: "; "))): give another file, or the same options")
        }
        var kept = 1
        for (index, line) in lines.enumerated().dropFirst() {
            guard let entry = try? GeneratedContent(json: line), let id = entry["case"]?.stringValue, let results = entry["results"]?.arrayValue else {
                guard index == lines.count - 1 else { throw BFCLError("\(path), line \(index + 1): not a case's results") }
                break
            }
            var parsed: [BFCLEvaluation.CaseResult] = []
            for result in results {
                do { parsed.append(try BFCLEvaluation.CaseResult(json: result)) } catch { throw BFCLError("\(path), line \(index + 1): \(error.message)") }
            }
            done[id] = parsed
            kept = index + 1
        }
        if kept < lines.count || data.last != 0x0A {
            // The last line was cut short: the file goes on from the lines before it.
            try write(Data(lines.prefix(kept).joined(separator: "\n").utf8 + [0x0A]), append: false)
        }
    }

    /// Keeps one case's results, every agent's, at the end of the file.
    public mutating func append(case id: String, _ results: [BFCLEvaluation.CaseResult]) throws(BFCLError) {
        let line = GeneratedContent.object(["case": .string(id), "results": .array(results.map(\.json))]).jsonString
        try write(Data(line.utf8 + [0x0A]), append: true)
        done[id] = results
    }

    private func write(_ data: Data, append: Bool) throws(BFCLError) {
        do {
            if append, let handle = FileHandle(forWritingAtPath: path) {
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: data)
            } else {
                try data.write(to: URL(fileURLWithPath: path))
            }
        } catch {
            throw BFCLError("cannot write the results to \(path): \(error.localizedDescription)")
        }
    }

    /// What differs between the run a file holds and this one, member by member ("instructions:
    /// bfcl in the file, none now").
    static func differences(_ recorded: GeneratedContent, _ run: GeneratedContent) -> [String] {
        let before = recorded.objectValue ?? [:], now = run.objectValue ?? [:]
        let keys = now.keys.map { $0 } + before.keys.filter { now[$0] == nil }
        return keys.compactMap { key in
            let old = before[key], new = now[key]
            guard old != new else { return nil }
            return "\(key): \(old?.jsonString ?? "none") in the file, \(new?.jsonString ?? "none") now"
        }
    }
}
