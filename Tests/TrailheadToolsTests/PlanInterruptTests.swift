import Foundation
import Testing
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport

/// `agent plan` interrupted the way a user interrupts it: Ctrl-C in the terminal, which sends
/// SIGINT to the terminal's foreground process group. The agent handles SIGINT while it runs (to
/// finish cleanly); its workers, in process groups of their own, are stopped by the agent once
/// it has cancelled the plan. A worker it restarts inherits neither the agent's handling of
/// SIGINT nor any of its descriptors.
@Suite struct PlanInterruptTests {
    @Test func aPlanInterruptedAfterAWorkerRestartEndsCleanlyAndLeavesNoWorker() throws {
        // Given a plan whose first call crashes the fixture plugin's worker, and whose second
        // call, on the restarted worker, hangs (the plugin's timeout is far away)…
        let installation = try TestInstallation()
        try installation.install(product: "libFixtureTool.so")
        try installation.writeManifest(
            "fixture.json",
            manifest(plugin: "fixture", library: "libFixtureTool.so", sha256: try installation.sha256("libFixtureTool.so"), timeoutMs: 600_000,
                     tools: fixtureTools))
        let script = try installation.script([#"{"name":"crash","arguments":{}}"#, #"{"name":"hang","arguments":{}}"#])
        let transcript = installation.root + "/run.jsonl"
        let agent = try AgentProcess.start(
            installation.planArguments(tools: "fixture", script: script, transcript: transcript), environment: ["TRAILHEAD_HOME": installation.root],
            folder: installation.root)

        // …when the restarted worker is busy with the hanging call…
        var workers: [ProcessEntry] = []
        try waitUntil("the restarted worker runs the hanging call", timeout: 120) {
            let text = (try? String(contentsOfFile: transcript, encoding: .utf8)) ?? ""
            workers = ProcessEntry.all().filter { $0.parent == agent.process.pid && $0.name == "agent-tool-host" && !$0.isZombie }
            return text.contains(#""tool":"hang""#) && text.contains(#""kind":"toolOutput""#) && workers.count == 1
        }
        let worker = try #require(workers.first)
        #expect(worker.ignoredSignals & (1 << UInt64(SIGINT - 1)) == 0, "the restarted worker does not ignore SIGINT")
        #expect(worker.caughtSignals & (1 << UInt64(SIGINT - 1)) == 0, "the restarted worker does not inherit the agent's SIGINT handler")
        #expect(worker.group == worker.pid, "the worker leads a process group of its own, out of the terminal's reach")
        #expect(ProcessEntry.openFiles(of: agent.process.pid).contains(transcript), "the agent holds its transcript open")
        #expect(!ProcessEntry.openFiles(of: worker.pid).contains(transcript), "the worker holds none of the agent's files")

        // …a Ctrl-C in the agent's terminal…
        #expect(agent.interrupt())
        let ended = try agent.ended(within: 60)

        // …and the plan ends cleanly: cancelled, said so, its transcript whole…
        let stderr = agent.stderr
        #expect(ended == .exited(status: 130), "\(stderr)")
        #expect(stderr.contains("agent: cancelled; transcript: \(transcript)"), "\(stderr)")
        let entries = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n").map { try GeneratedContent(json: String($0)) }
        let outputs = entries.filter { $0["kind"] == "toolOutput" }
        #expect(outputs.first?["error"]?.stringValue?.contains("tool 'crash' crashed") == true, "\(outputs)")
        #expect(entries.last?["kind"] == "cancelled", "\(entries.last ?? .null)")
        // …and no worker is left running.
        try waitUntil("no worker of this installation runs", timeout: 10) {
            !ProcessEntry.all().contains { $0.name == "agent-tool-host" && !$0.isZombie && $0.commandLine.contains(installation.root) }
        }
        #expect(!ProcessEntry.all().contains { $0.pid == worker.pid && !$0.isZombie })
    }
}

/// A process as /proc shows it.
struct ProcessEntry {
    var pid: pid_t
    var name: String
    var state: Character
    var parent: pid_t
    var group: pid_t
    var ignoredSignals: UInt64
    var caughtSignals: UInt64
    var commandLine: String

    var isZombie: Bool { state == "Z" || state == "X" }

    static func all() -> [ProcessEntry] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.compactMap(entry)
    }

    static func entry(_ pid: pid_t) -> ProcessEntry? {
        // /proc/PID/stat: "pid (name) state ppid pgrp …"; the name may hold spaces and parentheses.
        guard let stat = read("/proc/\(pid)/stat"), let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 3, let state = fields[0].first, let parent = Int32(fields[1]), let group = Int32(fields[2]) else { return nil }
        let status = read("/proc/\(pid)/status") ?? ""
        func mask(_ name: String) -> UInt64 {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap {
                UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
            } ?? 0
        }
        return ProcessEntry(
            pid: pid, name: String(stat[stat.index(after: open)..<close]), state: state, parent: parent, group: group,
            ignoredSignals: mask("SigIgn"), caughtSignals: mask("SigCgt"),
            commandLine: (read("/proc/\(pid)/cmdline") ?? "").replacingOccurrences(of: "\0", with: " "))
    }

    /// Where the process's descriptors point.
    static func openFiles(of pid: pid_t) -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
    }

    /// A /proc file (they report a size of 0: read to the end).
    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = Glibc.read(fd, &buffer, buffer.count), count > 0 { bytes += buffer[0..<count] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
