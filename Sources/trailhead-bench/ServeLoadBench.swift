import Foundation
import Synchronization
import TrailheadAgent
import TrailheadModels
import TrailheadPostgres
import TrailheadSchema
import TrailheadServer
import TrailheadSupport
import TrailheadTools

/// `agent serve` under load, on 127.0.0.1 with a scripted model (so only the runtime is timed):
/// 64 conversations at once, each a response with a real tool call (the calendar plugin, in its
/// worker) and a second response continuing it from the store. Reports the runtime's time per
/// model turn (p50/p99), the memory each open conversation costs, and checks every transcript:
/// complete, and holding nothing of another conversation. The peer is the same conversation in
/// process (a `LanguageModelSession` without HTTP or store), measured in the same run.
struct ServeLoadBench: Benchmark {
    let name = "serve-load"
    let sessions = 64

    /// A conversation's two responses: a call of the calendar, an answer; then an answer.
    static let script = [
        LanguageModelSession.stepText(calling: "calendarFreeDays", arguments: ["start": "2026-12-01", "end": "2026-12-14"]),
        LanguageModelSession.stepText(answering: "You are free on Sunday 6 December and Saturday 12 December."),
        LanguageModelSession.stepText(answering: "The weekend of the 12th is free too."),
    ]

    func run() throws {
        let home = ProcessInfo.processInfo.environment["TRAILHEAD_HOME"] ?? FileManager.default.currentDirectoryPath
        let registry = ToolRegistry(.checkout(home))
        defer { registry.shutdown() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-serve-load-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try run(store: try FileSessionStore(folder: folder), registry: registry)
        // The same through PostgreSQL, when its server is installed: a throwaway cluster.
        let postgres: ThrowawayPostgres?
        do { postgres = try ThrowawayPostgres() } catch {
            print("(PostgreSQL store not measured: \(error))")
            postgres = nil
        }
        if let postgres {
            let store = try PostgresSessionStore(url: postgres.url, connections: 8)
            try store.migrate()
            print()
            try run(store: store, registry: registry)
        } else {
            return
        }
    }

    private func run(store: any SessionStore, registry: ToolRegistry) throws {
        let agent = try AgentSpec.parse([
            "agents": [["name": "free-days", "instructions": "You tell the user which days their calendar leaves free.", "tools": ["calendarFreeDays"], "maxTurns": 4]],
        ])
        let script = ScriptedModel(outputs: Self.script, path: "serve-load")
        let server = try AgentServer(configuration: .init(agents: agent, store: store, models: .scripted(script)), registry: registry)
        Thread { server.run() }.start()
        defer { server.stop() }

        // Warm up: the plugin worker starts, the code paths are paged in.
        _ = try Self.post(port: server.port, ["model": "free-days", "input": "warm-up"])

        let peer = try inProcess(registry: registry)
        let baseline = Self.residentBytes()
        let peak = Mutex(baseline)
        let sampling = Mutex(true)
        Thread {
            while sampling.withLock({ $0 }) {
                let resident = Self.residentBytes()
                peak.withLock { $0 = max($0, resident) }
                usleep(2_000)
            }
        }.start()

        let results = Mutex<[Int: (first: GeneratedContent, second: GeneratedContent, seconds: [Double])]>([:])
        let failures = Mutex<[String]>([])
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let cpuBefore = processCPUTime()
        for index in 0..<sessions {
            done.enter()
            Thread {
                start.wait()
                do {
                    let t0 = now()
                    let first = try Self.post(port: server.port, ["model": "free-days", "input": .string("When am I free? (conversation \(index))")])
                    let t1 = now()
                    guard let id = first["id"] else { throw ServeProcessError("no id: \(first.jsonString.prefix(200))") }
                    let second = try Self.post(port: server.port, [
                        "model": "free-days", "input": .string("And the weekend? (conversation \(index))"), "previous_response_id": id,
                    ])
                    let t2 = now()
                    results.withLock { $0[index] = (first, second, [t1 - t0, t2 - t1]) }
                } catch {
                    failures.withLock { $0.append("conversation \(index): \(error)") }
                }
                done.leave()
            }.start()
        }
        let wallStart = now()
        for _ in 0..<sessions { start.signal() }
        done.wait()
        let wall = now() - wallStart
        let cpu = processCPUTime() - cpuBefore
        sampling.withLock { $0 = false }

        // Every transcript complete, and only its own.
        var incomplete = 0, foreign = 0, turns: [Double] = []
        let expected: [Transcript.Entry.Kind] = [.instructions, .prompt, .modelTurn, .toolCall, .toolOutput, .modelTurn, .response, .prompt, .modelTurn, .response]
        for (index, result) in results.withLock({ $0 }) {
            guard let session = result.second["trailhead"]?["session"]?.stringValue, let stored = try store.load(session) else {
                incomplete += 1
                continue
            }
            if stored.transcript.map(\.kind) != expected { incomplete += 1 }
            for entry in stored.transcript {
                if case .prompt(let prompt) = entry, !prompt.text.hasSuffix("(conversation \(index))") { foreign += 1 }
            }
            // Runtime time per model turn: the first response had two, the second one.
            turns.append(result.seconds[0] / 2)
            turns.append(result.seconds[1])
        }
        let failed = failures.withLock { $0 }
        print("| what | value |")
        print("|---|---|")
        print("| conversations at once | \(sessions) (2 responses each, 3 model turns, 1 calendar call) |")
        print(String(format: "| served: time per model turn p50 / p99 | %.2f ms / %.2f ms |", percentile(turns, 0.5) * 1e3, percentile(turns, 0.99) * 1e3))
        print(String(format: "| peer, in process (no HTTP, no store), one at a time: per turn p50 / p99 | %.2f ms / %.2f ms |", percentile(peer, 0.5) * 1e3, percentile(peer, 0.99) * 1e3))
        print(String(format: "| wall time for all, CPU time | %.2f s, %.2f s CPU (%.0f responses/s) |", wall, cpu, Double(2 * sessions) / wall))
        print(String(format: "| memory per open conversation | %.0f KiB (peak RSS %.1f MiB over a baseline of %.1f MiB) |",
                     Double(peak.withLock { $0 } - baseline) / Double(sessions) / 1024, Double(peak.withLock { $0 }) / 1_048_576, Double(baseline) / 1_048_576))
        print("| incomplete transcripts | \(incomplete + failed.count) |")
        print("| entries of one conversation in another's | \(foreign) |")
        print("load average \(loadAverage()); scripted model (no model time); store \(store.description)")
        for failure in failed.prefix(5) { print("failed: \(failure)") }
        if incomplete + failed.count + foreign > 0 { throw ServeProcessError("\(incomplete + failed.count) incomplete, \(foreign) foreign entries") }
    }

    /// The same conversation as a session in process, one at a time: the runtime without HTTP or store.
    private func inProcess(registry: ToolRegistry) throws -> [Double] {
        let tools = try registry.sessionTools(plugins: ["calendarFreeDays"])
        return try blocking {
            var perTurn: [Double] = []
            for _ in 0..<64 {
                let session = LanguageModelSession(
                    model: ScriptedModel(outputs: Self.script, path: "peer"), tools: tools,
                    instructions: "You tell the user which days their calendar leaves free.")
                let t0 = now()
                _ = try await session.respond(to: "When am I free?")
                let t1 = now()
                _ = try await session.respond(to: "And the weekend?")
                let t2 = now()
                perTurn += [(t1 - t0) / 2, t2 - t1]
            }
            return perTurn
        }
    }

    /// One POST /v1/responses through the one HTTP client.
    static func post(port: Int, _ body: GeneratedContent) throws -> GeneratedContent {
        var status = 0
        var bytes: [UInt8] = []
        let request = HTTPClient.Request(
            url: "http://127.0.0.1:\(port)/v1/responses", method: "POST", headers: ["Content-Type": "application/json"],
            body: Array(body.jsonString.utf8), idleSeconds: 120, totalSeconds: 120)
        try HTTPClient.perform(request) { event in
            switch event {
            case .head(let s, _): status = s
            case .body(let piece): bytes += piece
            }
            return true
        }
        guard status == 200 else { throw ServeProcessError("HTTP \(status): \(String(decoding: bytes, as: UTF8.self).prefix(300))") }
        return try GeneratedContent(json: bytes)
    }

    /// This process's resident memory, in bytes.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}

struct ServeProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A PostgreSQL cluster for one benchmark run (as the tests make theirs): initdb in a temporary
/// folder, as the postgres user when run as root, on a free port of 127.0.0.1.
final class ThrowawayPostgres {
    static let binaries = "/usr/lib/postgresql/15/bin"
    /// In /tmp itself: the postgres user must reach it, and the socket path must stay short.
    let folder = "/tmp/trailhead-bench-pg-\(UUID().uuidString.prefix(8))"
    let port: Int
    var url: String { "postgresql://postgres@127.0.0.1:\(port)/postgres" }

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binaries + "/initdb") else { throw ServeProcessError("no initdb") }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if getuid() == 0, let user = getpwnam("postgres") { _ = chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) }
        port = try Self.freePort()
        try run("initdb", ["-D", folder + "/data", "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        // fsync stays on: the bench measures a store that keeps what it acknowledged.
        try run("pg_ctl", ["start", "-D", folder + "/data", "-w", "-l", folder + "/log", "-o", "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1"])
    }

    /// A port free now (the probe socket is closed before the server binds it).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        guard let port = LoopbackSocket.bindLoopback(fd, port: 0) else { throw ServeProcessError("no free port") }
        return port
    }

    deinit {
        _ = try? run("pg_ctl", ["stop", "-D", folder + "/data", "-m", "immediate", "-w"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let root = getuid() == 0
        let done = try ChildProcess.run(
            root ? "/usr/sbin/runuser" : Self.binaries + "/" + tool, (root ? ["-u", "postgres", "--", Self.binaries + "/" + tool] : []) + arguments,
            options: .init(directory: folder), timeLimit: 120)
        guard done.status == 0 else { throw ServeProcessError("\(tool) failed: \(done.stderr)") }
    }
}
