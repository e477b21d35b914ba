import Foundation

/// An incremental parser of a `text/event-stream` body: feed it bytes as they arrive, get the
/// `data` of every complete event. Lines may end in LF, CRLF or CR, and may be split anywhere
/// across chunks (even inside a CRLF or a UTF-8 sequence). Comments (`:`) and other fields
/// (`event`, `id`, `retry`) are skipped: chat completions and MCP's Streamable HTTP only use `data`.
public struct ServerSentEventParser {
    private var line: [UInt8] = []
    private var dataLines: [String] = []
    private var lastWasCR = false

    /// The bytes consumed so far that were not part of any `data` line; used to explain a
    /// response that is not an event stream at all.
    public private(set) var ignoredPrefix: [UInt8] = []

    /// The most bytes one event may hold (its lines together); a larger one sets `overflowed` and
    /// the rest of the stream is ignored, so an endless event cannot exhaust memory.
    public let maximumEventBytes: Int
    /// Whether an event was larger than `maximumEventBytes` (the stream is then unusable).
    public private(set) var overflowed = false
    private var eventBytes = 0

    public init(maximumEventBytes: Int = 16 << 20) { self.maximumEventBytes = maximumEventBytes }

    /// Consumes `bytes` and returns the data of each event they complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [String] {
        var events: [String] = []
        for byte in bytes {
            if overflowed { break }
            if lastWasCR {
                lastWasCR = false
                if byte == 0x0A { continue }  // the LF of a CRLF
            }
            switch byte {
            case 0x0A: endLine(into: &events)
            case 0x0D:
                lastWasCR = true
                endLine(into: &events)
            default:
                line.append(byte)
                eventBytes += 1
                if eventBytes > maximumEventBytes {
                    overflowed = true
                    line = []
                    dataLines = []
                }
            }
        }
        return events
    }

    /// Ends the stream: an event without its blank line is still delivered.
    public mutating func finish() -> [String] {
        var events: [String] = []
        if !line.isEmpty { endLine(into: &events) }
        if !dataLines.isEmpty { endLine(into: &events) }
        return events
    }

    private mutating func endLine(into events: inout [String]) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            if !dataLines.isEmpty {
                events.append(dataLines.joined(separator: "\n"))
                dataLines.removeAll()
            }
            eventBytes = 0
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = String(decoding: line[..<colon], as: UTF8.self)
        var valueStart = colon < line.endIndex ? colon + 1 : colon
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        if field == "data" {
            dataLines.append(String(decoding: line[valueStart...], as: UTF8.self))
        } else if ignoredPrefix.count < 512 {
            ignoredPrefix.append(contentsOf: line.prefix(512 - ignoredPrefix.count))
        }
    }
}
