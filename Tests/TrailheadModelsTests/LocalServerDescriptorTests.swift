import Foundation
import XCTest

@testable import TrailheadModels

/// The managed server outlives the command that starts it, so it must take nothing of that
/// command with it: a server was seen holding a caller's lock file and a pipe for ten minutes
/// after `agent` exited. The server here is a stand-in (a small Python HTTP server answering
/// /health), started the way `agent plan` starts llama-server, with its idle watchdog.
final class LocalServerDescriptorTests: XCTestCase {
    private var cache: StandInCache!

    override func setUpWithError() throws {
        cache = try StandInCache("descriptors")
    }

    override func tearDown() {
        cache.remove()
    }

    func testTheManagedServerAndItsWatchdogHoldNoDescriptorOfTheirCaller() async throws {
        // Given a caller holding a lock file and a pipe open without close-on-exec, as any
        // program embedding the runtime may…
        let lock = open(cache.folder + "/caller.lock", O_RDWR | O_CREAT, 0o600)
        var pipeEnds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&pipeEnds), 0)
        let callers = [lock] + pipeEnds
        defer { callers.forEach { close($0) } }
        XCTAssertTrue(callers.allSatisfy { $0 >= 0 && fcntl($0, F_GETFD) & FD_CLOEXEC == 0 }, "the caller's descriptors are inheritable")
        let callerFiles = Set(callers.map(identity(ofDescriptor:)))

        // …when it starts the managed server, which starts its idle watchdog…
        let configuration = cache.configuration(server: try standIn(), idleShutdownSeconds: 30)
        let model = LocalModel(configuration: configuration)
        let record = try await model.start()
        let found = await watchdogPID(serving: record.pid)
        let watchdog = try XCTUnwrap(found, "the idle watchdog runs")

        // …then neither holds any of them: only its standard streams and what it opened itself.
        for (name, pid) in [("server", record.pid), ("watchdog", watchdog)] {
            let held = descriptors(of: pid)
            XCTAssertFalse(held.isEmpty, "\(name): /proc/\(pid)/fd is readable")
            for (fd, file) in held {
                XCTAssertFalse(callerFiles.contains(file), "\(name) (pid \(pid)) holds descriptor \(fd), one of its caller's")
            }
            XCTAssertEqual(link(pid, 0), "/dev/null", "\(name): stdin")
            XCTAssertEqual(link(pid, 1), configuration.logPath, "\(name): stdout")
            XCTAssertEqual(link(pid, 2), configuration.logPath, "\(name): stderr")
            XCTAssertEqual(ignoredSignals(of: pid) & (1 << (SIGINT - 1)), 0, "\(name) does not ignore SIGINT")
        }

        _ = await model.stop()
        kill(watchdog, SIGTERM)
    }

    /// A stand-in llama-server: answers every GET (so /health) with 200, until stopped.
    private func standIn() throws -> String {
        try cache.standIn(
            """
            import http.server, sys
            port = int(sys.argv[sys.argv.index("--port") + 1])
            class Handler(http.server.BaseHTTPRequestHandler):
                def log_message(self, *args): pass
                def do_GET(self):
                    self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers()
                    self.wfile.write(b'{"status":"ok"}')
            http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
            """, interpreter: "/usr/bin/env python3")
    }

    /// The watchdog's shell, found by the name and the server pid on its command line (looked
    /// for a few times: it is started just after the server answers).
    private func watchdogPID(serving server: Int32) async -> Int32? {
        for _ in 0..<50 {
            if let pid = findWatchdog(serving: server) { return pid }
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
        return nil
    }

    private func findWatchdog(serving server: Int32) -> Int32? {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in processes.compactMap({ Int32($0) }) {
            let arguments = readProcFile("/proc/\(pid)/cmdline").split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if let name = arguments.firstIndex(of: "trailhead-model-watchdog"), arguments.dropFirst(name + 1).first == "\(server)" {
                return pid
            }
        }
        return nil
    }

    /// A /proc file's bytes (they report a size of 0, so read to the end).
    private func readProcFile(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return bytes }
            bytes += buffer[0..<count]
        }
    }

    private struct FileIdentity: Hashable {
        var device: UInt
        var inode: UInt
    }

    private func identity(ofDescriptor fd: Int32) -> FileIdentity {
        var info = stat()
        fstat(fd, &info)
        return FileIdentity(device: UInt(info.st_dev), inode: UInt(info.st_ino))
    }

    /// Every open descriptor of `pid` and the file it refers to (`stat` follows /proc's links).
    private func descriptors(of pid: Int32) -> [(Int32, FileIdentity)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return entries.compactMap { entry in
            var info = stat()
            guard let fd = Int32(entry), stat("/proc/\(pid)/fd/\(entry)", &info) == 0 else { return nil }
            return (fd, FileIdentity(device: UInt(info.st_dev), inode: UInt(info.st_ino)))
        }
    }

    private func link(_ pid: Int32, _ fd: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")
    }

    /// The `SigIgn` mask of /proc/PID/status.
    private func ignoredSignals(of pid: Int32) -> UInt64 {
        let status = String(decoding: readProcFile("/proc/\(pid)/status"), as: UTF8.self)
        let line = status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") } ?? ""
        return UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16) ?? .max
    }
}
