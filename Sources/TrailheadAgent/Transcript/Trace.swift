import Foundation
import TrailheadSchema
import TrailheadSupport

/// A Chrome trace-event file (opens in Perfetto or chrome://tracing): model loading, each
/// inference with its token counts, each tool call, on one timeline.
///
/// Written as the JSON Array Format, event by event: that format allows the closing `]` to be
/// missing, so an interrupted run still leaves a trace that opens.
public final class Trace: @unchecked Sendable {
    private let fd: Int32
    private let origin: Double
    private let lock = NSLock()
    private var closed = false

    public init(path: String) throws(TranscriptError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TranscriptError("cannot write trace \(path): \(String(cString: strerror(errno)))") }
        self.fd = fd
        self.origin = monotonicSeconds()
        emit("[\n")
    }

    deinit { finish() }

    /// Microseconds since the trace began.
    public func now() -> Double { (monotonicSeconds() - origin) * 1e6 }

    /// Records a finished span ("X" event). `track` names the timeline row (model, a plugin).
    public func span(_ name: String, category: String, track: String, start: Double, end: Double, args: JSONObject = [:]) {
        let event: GeneratedContent = [
            "name": .string(name), "cat": .string(category), "ph": "X",
            "ts": .number(start.rounded()), "dur": .number(max(0, end - start).rounded()),
            "pid": 1, "tid": .string(track), "args": .object(args),
        ]
        emit(event.jsonString + ",\n")
    }

    /// Times `body` as a span.
    public func measure<T>(_ name: String, category: String, track: String, args: JSONObject = [:], _ body: () async throws -> T) async rethrows -> T {
        let start = now()
        defer { span(name, category: category, track: track, start: start, end: now(), args: args) }
        return try await body()
    }

    /// Ends the array (optional in the format, but tidy) and closes the file.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        let tail = "{\"name\":\"end\",\"ph\":\"i\",\"ts\":\(now().rounded()),\"pid\":1,\"tid\":\"agent\",\"s\":\"g\"}\n]\n"
        _ = tail.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }

    private func emit(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }

}
