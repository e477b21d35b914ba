import Foundation
import TrailheadSchema

/// Appends entries to a JSON Lines file, one `write(2)` per entry, so a run that is interrupted
/// (Ctrl-C, a crash) keeps every entry up to its last one, and no entry is ever half-written
/// by a concurrent append from this process.
public final class TranscriptWriter: @unchecked Sendable {
    public let path: String
    private let fd: Int32
    private let lock = NSLock()

    /// Creates the file (and its folder); an existing file is appended to.
    public init(path: String) throws(TranscriptError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TranscriptError("cannot write transcript \(path): \(String(cString: strerror(errno)))") }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Writes one entry as one line.
    public func append(_ entry: Transcript.Entry) {
        let line = entry.content.jsonString + "\n"
        lock.lock()
        defer { lock.unlock() }
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // a full disk must not take the agent down; the run goes on without its log
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Reads a transcript back.
public enum TranscriptReader {
    /// Every entry of the file. A malformed line is an error naming its line number, except a
    /// last line cut short by an interruption, which is skipped and reported in `truncated`.
    public static func read(path: String) throws(TranscriptError) -> (entries: [Transcript.Entry], truncated: Bool) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TranscriptError("cannot read transcript \(path)")
        }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var entries: [Transcript.Entry] = []
        var truncated = false
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let isLast = index == lines.count - 1
            do {
                entries.append(try Transcript.Entry(content: try GeneratedContent(json: line)))
            } catch let error as JSONSyntaxError {
                if isLast { truncated = true; continue }
                throw TranscriptError("\(path):\(index + 1): not JSON: \(error)")
            } catch let error as TranscriptError {
                throw TranscriptError("\(path):\(index + 1): \(error.message)")
            } catch {
                throw TranscriptError("\(path):\(index + 1): \(error)")
            }
        }
        return (entries, truncated)
    }
}
