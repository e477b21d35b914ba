import Foundation
import ICalendar
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// A seeded mutation fuzzer against the real plugin workers: `agent-tool-host` with the built
/// libCalendarTool.so and libContactsTool.so, each file mutated (bytes replaced, inserted,
/// deleted, lines duplicated, rule parts spliced in), written where the plugin reads it, and a
/// call made. A call that does not answer within 10 s is a hang; a worker that exits is a crash;
/// the worker is restarted and the run goes on. Both must stay at 0.
final class WorkerFuzzTests: XCTestCase {
    static let casesPerPlugin = 1_000

    func testMutatedCalendarsNeitherHangNorCrashTheWorker() throws {
        var seeds = TestData.icsFiles(under: Checkout.root + "/Tests/Fixtures/ics")
        seeds += TestData.icsFiles(under: try TrailheadCache.testData("recurring-ical-events")).prefix(60)
        let splices = [
            "RRULE:FREQ=SECONDLY;BYSECOND=60", "RRULE:FREQ=MINUTELY;BYHOUR=1", "RRULE:FREQ=SECONDLY;COUNT=100000000",
            "RRULE:FREQ=DAILY;BYMONTHDAY=-1", "RRULE:FREQ=YEARLY;BYWEEKNO=53;BYDAY=1MO", "RECURRENCE-ID;RANGE=THISANDFUTURE:20200101T000000Z",
            "DTSTART;VALUE=DATE:19000101", "EXDATE:20200101T000000Z", "BEGIN:VEVENT", "END:VEVENT", "SEQUENCE:99",
        ]
        let outcome = try fuzz(
            library: "libCalendarTool.so", configKey: "calendar", fileName: "calendar.ics", seeds: seeds, splices: splices,
            call: ["name": "calendarFreeDays", "arguments": ["start": "2020-01-01", "end": "2020-02-11"]])
        XCTAssertGreaterThan(outcome.answers, outcome.cases / 10, "the worker reads the mutated files (a denied read would answer nothing)")
        print("calendar fuzz: \(outcome.cases) cases, \(outcome.answers) answers, \(outcome.toolErrors) tool errors, \(outcome.hangs) hangs, \(outcome.crashes) crashes")
        XCTAssertEqual(outcome.hangs, 0)
        XCTAssertEqual(outcome.crashes, 0)
    }

    func testMutatedContactsNeitherHangNorCrashTheWorker() throws {
        let folder = Checkout.root + "/Tests/Fixtures/vcards"
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".vcf") }.sorted().map { folder + "/" + $0 }
            + [Checkout.root + "/Data/sample/contacts.vcf"]
        let splices = ["AGENT:", "BEGIN:VCARD", "END:VCARD", "N;CHARSET=SHIFT_JIS:", "NOTE;ENCODING=QUOTED-PRINTABLE:=", " folded", "\r\r\n", "\u{0}"]
        let outcome = try fuzz(
            library: "libContactsTool.so", configKey: "contacts", fileName: "contacts.vcf", seeds: seeds, splices: splices,
            call: ["name": "searchContacts", "arguments": ["query": ""]])
        XCTAssertGreaterThan(outcome.answers, outcome.cases / 10, "the worker reads the mutated files (a denied read would answer nothing)")
        print("contacts fuzz: \(outcome.cases) cases, \(outcome.answers) answers, \(outcome.toolErrors) tool errors, \(outcome.hangs) hangs, \(outcome.crashes) crashes")
        XCTAssertEqual(outcome.hangs, 0)
        XCTAssertEqual(outcome.crashes, 0)
    }

    struct Outcome {
        var cases = 0, answers = 0, toolErrors = 0, hangs = 0, crashes = 0
    }

    private func fuzz(
        library: String, configKey: String, fileName: String, seeds: [String], splices: [String], call: GeneratedContent
    ) throws -> Outcome {
        let folder = try Scratch.newFolder("ical", removedAfter: self)
        let target = folder + "/" + fileName
        let originals = seeds.compactMap { FileManager.default.contents(atPath: $0) }.map { [UInt8]($0) }
        XCTAssertFalse(originals.isEmpty)
        try Data(originals[0]).write(to: URL(fileURLWithPath: target))
        var generator = SeededRandom(seed: 13)
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

/// One `agent-tool-host` process speaking newline-delimited JSON-RPC over pipes, confined (as the
/// registry's workers are) to a manifest that grants it the folder the mutated file is written to.
private final class Worker {
    enum Reply { case answer(isError: Bool), timeout, exited }

    private let child: ChildProcess
    private var pending: [UInt8] = []
    private var stopped = false

    init(library: String, config: [String: String]) throws {
        let products = BuildProducts.folder
        let folder = (config.values.first! as NSString).deletingLastPathComponent
        let manifest = try Self.manifest(for: products + "/" + library, granting: folder)
        let configJSON = GeneratedContent.object(JSONObject(config.map { ($0.key, .string($0.value)) })).jsonString
        child = try ChildProcess(
            products + "/agent-tool-host", [products + "/" + library, "--config", configJSON, "--manifest", manifest],
            options: .init(
                environment: ChildProcess.Options.environment(adding: ["SWIFT_BACKTRACE": "enable=no"]), standardInput: .pipe,
                standardOutput: .pipe))
        _ = call([:], id: 1, timeout: 30, method: "initialize")
    }

    deinit { stop() }

    /// The library's embedded manifest, with `permissions.read` granting `folder`, written beside it.
    private static func manifest(for library: String, granting folder: String) throws -> String {
        let described = try ChildProcess.run(BuildProducts.folder + "/agent-tool-host", ["--describe", library])
        let report = try GeneratedContent(json: described.stdout)
        guard case .object(var members) = try GeneratedContent(json: report["embeddedManifest"]?.stringValue ?? "") else {
            throw CalendarError("\(library) embeds no manifest: \(described.stderr)")
        }
        members["library"] = .string((library as NSString).lastPathComponent)
        members["permissions"] = ["read": [.string(folder)], "write": [], "network": false]
        let path = folder + "/" + (library as NSString).lastPathComponent + ".manifest.json"
        try GeneratedContent.object(members).jsonString.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func call(_ params: GeneratedContent, id: Int, timeout: Double, method: String = "tools/call") -> Reply {
        let message: GeneratedContent = ["jsonrpc": "2.0", "id": .number(Double(id)), "method": .string(method), "params": params]
        let line = Array((message.jsonString + "\n").utf8)
        guard let input = child.standardInput, let output = child.standardOutput else { return .exited }
        let sent = line.withUnsafeBytes { write(input, $0.baseAddress!, $0.count) }
        guard sent == line.count else { return .exited }
        let deadline = monotonicSeconds() + timeout
        while true {
            while let end = pending.firstIndex(of: 0x0A) {
                let reply = try? GeneratedContent(json: pending[..<end])
                pending.removeSubrange(...end)
                guard let reply, reply["id"]?.intValue == id else { continue }
                return .answer(isError: reply["result"]?["isError"]?.boolValue ?? (reply["error"] != nil))
            }
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { return .timeout }
            var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = read(output, &buffer, buffer.count)
            if count <= 0 { return .exited }
            pending += buffer[0..<count]
        }
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        child.signal(SIGKILL)
        _ = child.wait()
    }
}

/// The mutations, drawn from a seeded generator: a seeded run is the same run everywhere.
extension SeededRandom {
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
