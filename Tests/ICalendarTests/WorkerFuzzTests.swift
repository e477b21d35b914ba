import Foundation
import XCTest

/// A seeded mutation fuzzer against the real plugin workers: `agent-tool-host` with the built
/// libCalendarTool.so and libContactsTool.so, each file mutated (bytes replaced, inserted,
/// deleted, lines duplicated, rule parts spliced in), written where the plugin reads it, and a
/// call made. A call that does not answer within 10 s is a hang; a worker that exits is a crash;
/// the worker is restarted and the run goes on. Both must stay at 0.
final class WorkerFuzzTests: XCTestCase {
    static let casesPerPlugin = 1_000

    func testMutatedCalendarsNeitherHangNorCrashTheWorker() throws {
        var seeds = TestData.icsFiles(under: TestData.repository + "/Tests/Fixtures/ics")
        seeds += TestData.icsFiles(under: try TestData.folder("recurring-ical-events")).prefix(60)
        let splices = [
            "RRULE:FREQ=SECONDLY;BYSECOND=60", "RRULE:FREQ=MINUTELY;BYHOUR=1", "RRULE:FREQ=SECONDLY;COUNT=100000000",
            "RRULE:FREQ=DAILY;BYMONTHDAY=-1", "RRULE:FREQ=YEARLY;BYWEEKNO=53;BYDAY=1MO", "RECURRENCE-ID;RANGE=THISANDFUTURE:20200101T000000Z",
            "DTSTART;VALUE=DATE:19000101", "EXDATE:20200101T000000Z", "BEGIN:VEVENT", "END:VEVENT", "SEQUENCE:99",
        ]
        let outcome = try fuzz(
            library: "libCalendarTool.so", configKey: "calendar", fileName: "calendar.ics", seeds: seeds, splices: splices,
            call: ["name": "calendarFreeDays", "arguments": ["start": "2020-01-01", "end": "2020-02-11"]])
        print("calendar fuzz: \(outcome.cases) cases, \(outcome.answers) answers, \(outcome.toolErrors) tool errors, \(outcome.hangs) hangs, \(outcome.crashes) crashes")
        XCTAssertEqual(outcome.hangs, 0)
        XCTAssertEqual(outcome.crashes, 0)
    }

    func testMutatedContactsNeitherHangNorCrashTheWorker() throws {
        let folder = TestData.repository + "/Tests/Fixtures/vcards"
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".vcf") }.sorted().map { folder + "/" + $0 }
            + [TestData.repository + "/Data/sample/contacts.vcf"]
        let splices = ["AGENT:", "BEGIN:VCARD", "END:VCARD", "N;CHARSET=SHIFT_JIS:", "NOTE;ENCODING=QUOTED-PRINTABLE:=", " folded", "\r\r\n", "\u{0}"]
        let outcome = try fuzz(
            library: "libContactsTool.so", configKey: "contacts", fileName: "contacts.vcf", seeds: seeds, splices: splices,
            call: ["name": "searchContacts", "arguments": ["query": ""]])
        print("contacts fuzz: \(outcome.cases) cases, \(outcome.answers) answers, \(outcome.toolErrors) tool errors, \(outcome.hangs) hangs, \(outcome.crashes) crashes")
        XCTAssertEqual(outcome.hangs, 0)
        XCTAssertEqual(outcome.crashes, 0)
    }

    struct Outcome {
        var cases = 0, answers = 0, toolErrors = 0, hangs = 0, crashes = 0
    }

    private func fuzz(
        library: String, configKey: String, fileName: String, seeds: [String], splices: [String], call: [String: Any]
    ) throws -> Outcome {
        let folder = try TestData.temporaryFolder(for: self)
        let target = folder + "/" + fileName
        let originals = seeds.compactMap { FileManager.default.contents(atPath: $0) }.map { [UInt8]($0) }
        XCTAssertFalse(originals.isEmpty)
        try Data(originals[0]).write(to: URL(fileURLWithPath: target))
        var generator = FuzzGenerator(seed: 13)
        var outcome = Outcome()
        var worker = try Worker(library: library, config: [configKey: target])
        defer { worker.stop() }
        for index in 0..<Self.casesPerPlugin {
            var bytes = originals[index % originals.count]
            generator.mutate(&bytes, splices: splices.map { Array($0.utf8) })
            // A new file (new inode) each time, so the plugin sees the change whatever the clock.
            try Data(bytes).write(to: URL(fileURLWithPath: target + ".new"))
            _ = rename(target + ".new", target)
            outcome.cases += 1
            switch worker.call(call, id: index + 2, timeout: 10) {
            case .answer(let isError): if isError { outcome.toolErrors += 1 } else { outcome.answers += 1 }
            case .timeout:
                outcome.hangs += 1
                try Data(bytes).write(to: URL(fileURLWithPath: folder + "/hang-\(index)-" + fileName))
                worker.stop()
                worker = try Worker(library: library, config: [configKey: target])
            case .exited:
                outcome.crashes += 1
                try Data(bytes).write(to: URL(fileURLWithPath: folder + "/crash-\(index)-" + fileName))
                worker = try Worker(library: library, config: [configKey: target])
            }
        }
        return outcome
    }
}

/// One `agent-tool-host` process speaking newline-delimited JSON-RPC over pipes.
private struct Worker {
    enum Reply { case answer(isError: Bool), timeout, exited }

    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private let buffer = LineBuffer()

    init(library: String, config: [String: String]) throws {
        let products = Self.productsFolder
        process.executableURL = URL(fileURLWithPath: products + "/agent-tool-host")
        let configJSON = String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)
        process.arguments = [products + "/" + library, "--config", configJSON]
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let buffer = self.buffer
        output.fileHandleForReading.readabilityHandler = { handle in buffer.append(handle.availableData) }
        try process.run()
        _ = call(["initialize": true], id: 1, timeout: 30, method: "initialize")
    }

    func call(_ params: [String: Any], id: Int, timeout: Double, method: String = "tools/call") -> Reply {
        let message: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method, "params": method == "initialize" ? [:] : params]
        guard var data = try? JSONSerialization.data(withJSONObject: message) else { return .exited }
        data.append(0x0A)
        guard process.isRunning else { return .exited }
        do { try input.fileHandleForWriting.write(contentsOf: data) } catch { return .exited }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = buffer.nextLine() {
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                guard object["id"] as? Int == id else { continue }
                let result = object["result"] as? [String: Any]
                return .answer(isError: result?["isError"] as? Bool ?? (object["error"] != nil))
            }
            if !process.isRunning { return .exited }
            usleep(1_000)
        }
        return .timeout
    }

    func stop() {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { process.terminate() }
        try? input.fileHandleForWriting.close()
    }

    /// Built products sit beside the test bundle in `.build/debug/`.
    static var productsFolder: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = (executable as NSString).deletingLastPathComponent
        while folder.contains(".xctest") { folder = (folder as NSString).deletingLastPathComponent }
        return folder
    }
}

/// Bytes from the worker, cut into lines.
private final class LineBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ more: Data) { lock.withLock { data.append(more) } }

    func nextLine() -> Data? {
        lock.withLock {
            guard let end = data.firstIndex(of: 0x0A) else { return nil }
            let line = data[data.startIndex..<end]
            data = Data(data[(end + 1)...])
            return Data(line)
        }
    }
}

/// SplitMix64 with the mutations: a seeded run is the same run everywhere.
private struct FuzzGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func mutate(_ bytes: inout [UInt8], splices: [[UInt8]]) {
        let interesting: [UInt8] = Array("\r\n:;=,\\\" \t.0123456789-TZ".utf8) + [0x00, 0xC3, 0xFF]
        for _ in 0..<Int.random(in: 1...8, using: &self) where !bytes.isEmpty {
            let position = Int.random(in: 0..<bytes.count, using: &self)
            switch Int.random(in: 0..<6, using: &self) {
            case 0: bytes[position] = interesting.randomElement(using: &self)!
            case 1: bytes.insert(interesting.randomElement(using: &self)!, at: position)
            case 2: bytes.remove(at: position)
            case 3: bytes.insert(contentsOf: Array("\r\n".utf8) + splices.randomElement(using: &self)! + Array("\r\n".utf8), at: position)
            case 4:
                let end = min(bytes.count, position + Int.random(in: 1...200, using: &self))
                bytes.insert(contentsOf: bytes[position..<end], at: end)
            default:
                bytes = Array(bytes.prefix(position))
            }
        }
    }
}
