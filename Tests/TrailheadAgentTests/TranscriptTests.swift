import Foundation
import Testing
import TrailheadSchema
@testable import TrailheadAgent

@Suite struct TranscriptTests {
    func temporaryPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-\(UUID().uuidString)")
        return dir.appendingPathComponent(name).path
    }

    @Test func entriesRoundTripLineByLine() throws {
        let path = temporaryPath("run.jsonl")
        let writer = try TranscriptWriter(path: path)
        let written: [Transcript.Entry] = [
            .prompt(.init(text: "Plan a trip")),
            .modelTurn(.init(turn: 1, text: "{\"tool\":\"x\"}", parsed: ["tool": "x"], model: "scripted", tokensIn: 10, tokensOut: 4, latencyMs: 12.3)),
            .toolOutput(.init(id: "call-1", tool: "x", result: nil, error: "worker crashed (signal 11)", latencyMs: 1.5)),
        ]
        for entry in written { writer.append(entry) }
        let (entries, truncated) = try TranscriptReader.read(path: path)
        #expect(!truncated)
        #expect(entries == written, "typed entries come back as they were written")
        #expect(entries.map(\.kind) == [.prompt, .modelTurn, .toolOutput])
        // Every line is an object with a kind and a timestamp, readable without this code.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        for line in lines {
            let object = try GeneratedContent(json: String(line))
            #expect(object["kind"]?.stringValue != nil)
            #expect(object["timestamp"]?.stringValue?.hasSuffix("Z") == true)
        }
        // …with `kind` first and the fields as earlier transcripts spelled them.
        #expect(lines[1].hasPrefix("{\"kind\":\"modelTurn\",\"timestamp\":"))
        #expect(lines[2].contains("\"error\":\"worker crashed (signal 11)\""))
    }

    @Test func anInterruptedLastLineIsSkippedAndReported() throws {
        let path = temporaryPath("cut.jsonl")
        let writer = try TranscriptWriter(path: path)
        writer.append(.prompt(.init(text: "Plan a trip")))
        let handle = FileHandle(forWritingAtPath: path)!
        handle.seekToEndOfFile()
        handle.write(Data("{\"kind\":\"modelTurn\",\"text\":\"{\\\"to".utf8))
        handle.closeFile()
        let (entries, truncated) = try TranscriptReader.read(path: path)
        #expect(entries.count == 1)
        #expect(truncated)
    }

    @Test func aMalformedMiddleLineNamesItsLine() throws {
        let path = temporaryPath("bad.jsonl")
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "{\"kind\":\"prompt\",\"text\":\"a\"}\nnot json\n{\"kind\":\"prompt\",\"text\":\"b\"}\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: TranscriptError.self) { try TranscriptReader.read(path: path) }
        do { _ = try TranscriptReader.read(path: path) } catch { #expect("\(error)".contains(":2:")) }
    }

    @Test func aTraceOpensAsJSONEvenWhenNotFinished() throws {
        let path = temporaryPath("trace.json")
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let trace = try Trace(path: path)
        trace.span("inference 1", category: "model", track: "model", start: 0, end: 1500, args: ["tokensOut": 42])
        trace.finish()
        let events = try GeneratedContent(json: String(contentsOfFile: path, encoding: .utf8)).arrayValue ?? []
        #expect(events.first?["ph"] == "X")
        #expect(events.first?["args"]?["tokensOut"] == 42)
    }
}
