import Foundation
import TrailheadSchema
import TrailheadTools
import TrailheadSupport

/// `trailhead-bench tool-calls`: the cost of one call of a trivial echo tool along every path a
/// call can take (in process through the JSON ABI or libffi, through the worker, through
/// `agent mcp serve`, from Trailhead into an MCP server), against the official MCP Python SDK and
/// a bare Python JSON-RPC pipe worker, measured in the same run.
struct ToolCallBench: Benchmark {
    let name = "tool-calls"

    struct Row {
        var path: String
        var callsPerSecond: Double
        var p50: Double
        var p99: Double
        /// CPU time per call, caller and worker together: unlike latency, barely moved by a loaded machine.
        var cpuMicroseconds: Double = .nan
        var note = ""
    }

    func run() throws {
        let installation = try BenchInstallation()
        defer { installation.remove() }
        var rows: [Row] = []
        let arguments: GeneratedContent = ["text": "hello"]

        let inProcess = try installation.registry(isolation: "inProcess", plugins: ["fixture", "cplain", "tripmath"])
        rows.append(try measure("in process, JSON ABI, Swift plugin (FixtureTool)", calls: 100_000) { try inProcess.call("echo", arguments: arguments) })
        rows.append(try measure("in process, JSON ABI, C plugin", calls: 200_000) { try inProcess.call("c_echo", arguments: arguments) })
        rows.append(try measure("in process, native C function via libffi", calls: 200_000) { try inProcess.call("native_echo", arguments: arguments) })
        inProcess.shutdown()

        // One registry (one worker) per row, so the worker's CPU time is known when it is reaped.
        for (label, plugin, tool) in [("Swift plugin", "fixture", "echo"), ("C plugin", "cplain", "c_echo"), ("native via libffi", "tripmath", "native_echo")] {
            let isolated = try installation.registry(isolation: "process", plugins: [plugin])
            let childrenBefore = cpuSeconds(RUSAGE_CHILDREN.rawValue)
            let calls = 30_000
            var row = try measure("worker (agent-tool-host), \(label)", calls: calls) { try isolated.call(tool, arguments: arguments) }
            isolated.shutdown()
            row.cpuMicroseconds += (cpuSeconds(RUSAGE_CHILDREN.rawValue) - childrenBefore) / Double(calls + min(calls / 10, 5000)) * 1e6
            rows.append(row)
        }

        let python = installation.python
        let scripts = installation.repository + "/Scripts/bench"
        rows.append(peer("bare Python JSON-RPC pipe worker (Python client)", [python, scripts + "/jsonrpc_pipe_peer.py", "--calls", "20000"]))
        rows.append(peer("official MCP Python SDK server + SDK client", [python, scripts + "/mcp_echo_client.py", "--calls", "2000", "--", python, scripts + "/mcp_echo_server.py"]))
        rows.append(peer("agent-tool-host (Swift plugin) + MCP SDK client", [
            python, scripts + "/mcp_echo_client.py", "--calls", "2000", "--", installation.toolHost, installation.plugins + "/libFixtureTool.so",
        ]))

        // `agent mcp serve`: the registry's tools as one MCP server, each call validated and run
        // in the plugin's worker (or in process), as in `agent plan`.
        for isolation in ["process", "inProcess"] {
            let serve = try installation.serveCommand(isolation: isolation)
            rows.append(peer("agent mcp serve (\(isolation == "process" ? "worker" : "in process"), stdio) + MCP SDK client", [
                python, scripts + "/mcp_echo_client.py", "--calls", "2000", "--",
            ] + serve))
        }
        rows.append(httpPeer("agent mcp serve (worker, Streamable HTTP) + MCP SDK client", server: try installation.serveCommand(isolation: "process") + ["--http", "0"]))
        rows.append(httpPeer("official MCP Python SDK server (Streamable HTTP) + SDK client", server: [python, scripts + "/mcp_echo_server.py", "--http", "0"]))

        // The other way: Trailhead's registry calling the SDK's echo server as a tool (validated, pinned).
        let client = try installation.registryOfMCPServer([python, scripts + "/mcp_echo_server.py"])
        let childrenBefore = cpuSeconds(RUSAGE_CHILDREN.rawValue)
        var row = try measure("Trailhead registry → MCP SDK echo server (stdio)", calls: 2000) { try client.call("echo", arguments: arguments) }
        client.shutdown()
        row.cpuMicroseconds += (cpuSeconds(RUSAGE_CHILDREN.rawValue) - childrenBefore) / 2200 * 1e6
        rows.append(row)
        print(table(rows))
        if let worker = rows.first(where: { $0.path.hasPrefix("worker") }) {
            print("\nTarget: worker round trip p50 ≤ 20 µs — measured \(format(worker.p50)) µs: \(worker.p50 <= 20 ? "met" : "NOT met").")
        }
    }

    /// Times `calls` calls after a warm-up; per-call latencies from the monotonic clock.
    private func measure(_ path: String, calls: Int, _ body: () throws -> GeneratedContent) throws -> Row {
        let cpuBefore = cpuSeconds(RUSAGE_SELF.rawValue)
        for _ in 0..<min(calls / 10, 5000) { _ = try body() }
        var samples = [Double](repeating: 0, count: calls)
        let started = now()
        for index in 0..<calls {
            let before = now()
            _ = try body()
            samples[index] = now() - before
        }
        let elapsed = now() - started
        let cpu = (cpuSeconds(RUSAGE_SELF.rawValue) - cpuBefore) / Double(calls + min(calls / 10, 5000)) * 1e6
        return Row(
            path: path, callsPerSecond: Double(calls) / elapsed, p50: percentile(samples, 0.5) * 1e6, p99: percentile(samples, 0.99) * 1e6,
            cpuMicroseconds: cpu)
    }

    /// User + system CPU seconds of this process (`RUSAGE_SELF`) or of its reaped children.
    private func cpuSeconds(_ who: Int32) -> Double {
        var usage = rusage()
        getrusage(who, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Runs a Python peer that prints `{"calls_per_s", "p50_us", "p99_us"}`.
    private func peer(_ path: String, _ command: [String]) -> Row {
        do {
            let output = try BenchInstallation.run(command[0], Array(command.dropFirst()))
            let last = output.split(separator: "\n").last.map(String.init) ?? ""
            let report = try GeneratedContent(json: last)
            guard let rate = report["calls_per_s"]?.doubleValue, let p50 = report["p50_us"]?.doubleValue, let p99 = report["p99_us"]?.doubleValue else {
                return Row(path: path, callsPerSecond: .nan, p50: .nan, p99: .nan, note: "unreadable report: \(last)")
            }
            return Row(path: path, callsPerSecond: rate, p50: p50, p99: p99)
        } catch {
            return Row(path: path, callsPerSecond: .nan, p50: .nan, p99: .nan, note: "not measured: \(error)")
        }
    }

    /// Starts an HTTP server that prints its URL (`http://127.0.0.1:PORT/mcp`) on stderr, and
    /// runs the SDK client against it.
    private func httpPeer(_ path: String, server command: [String]) -> Row {
        do {
            let server = try BackgroundServer(command)
            defer { server.stop() }
            let url = try server.url()
            let python = command[0].hasSuffix("python") ? command[0] : BenchInstallation.pythonPath
            return peer(path, [python, BenchInstallation.scripts + "/mcp_echo_client.py", "--calls", "2000", "--url", url])
        } catch {
            return Row(path: path, callsPerSecond: .nan, p50: .nan, p99: .nan, note: "not measured: \(error)")
        }
    }

    private func table(_ rows: [Row]) -> String {
        // Each row against the MCP SDK's own server on the same transport (stdio or HTTP).
        let sdkStdio = rows.first { $0.path.hasPrefix("official MCP Python SDK server +") }?.p50 ?? .nan
        let sdkHTTP = rows.first { $0.path.hasPrefix("official MCP Python SDK server (Streamable HTTP)") }?.p50 ?? .nan
        var lines = ["| path | calls/s | p50 µs | p99 µs | CPU µs/call | p50 speed-up vs MCP SDK server |", "|---|---:|---:|---:|---:|---:|"]
        for row in rows {
            let sdk = row.path.contains("Streamable HTTP") ? sdkHTTP : sdkStdio
            let speedUp = sdk / row.p50
            let ratio = speedUp.isFinite ? String(format: speedUp < 10 ? "%.1f×" : "%.0f×", speedUp) : "–"
            lines.append(
                "| \(row.path) | \(String(format: "%.0f", row.callsPerSecond)) | \(format(row.p50)) | \(format(row.p99)) | \(format(row.cpuMicroseconds)) | \(ratio) |"
                    + (row.note.isEmpty ? "" : " \(row.note)"))
        }
        var load = [0.0, 0.0, 0.0]
        getloadavg(&load, 3)
        lines.append("")
        lines.append("Load average at the end: \(String(format: "%.2f", load[0])) on \(ProcessInfo.processInfo.activeProcessorCount) cores (latency grows with it; CPU per call much less). Python rows: CPU not measured.")
        return lines.joined(separator: "\n")
    }

    private func format(_ microseconds: Double) -> String {
        guard microseconds.isFinite else { return "–" }
        return microseconds < 10 ? String(format: "%.2f", microseconds) : String(format: "%.1f", microseconds)
    }
}

/// A temporary installation with the FixtureTool plugin, the C echo plugin and the native library.
private struct BenchInstallation {
    let root = NSTemporaryDirectory() + "trailhead-bench-\(UUID().uuidString)"
    var plugins: String { root + "/Plugins" }
    let repository: String
    let products: String
    var toolHost: String { products + "/agent-tool-host" }
    var python: String { Self.pythonPath }
    static var pythonPath: String {
        let cache = ProcessInfo.processInfo.environment["TRAILHEAD_CACHE"] ?? NSHomeDirectory() + "/.cache/trailhead"
        return cache + "/venv/bin/python"
    }
    static var scripts: String {
        var source = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { source.deleteLastPathComponent() }
        return source.path + "/Scripts/bench"
    }

    init() throws {
        var source = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { source.deleteLastPathComponent() }
        repository = source.path
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        products = (executable as NSString).deletingLastPathComponent
        for product in ["libFixtureTool.so", "agent-tool-host", "agent"] where !FileManager.default.fileExists(atPath: products + "/" + product) {
            throw BenchError("\(product) is not built in \(products): run `swift build -c release` first")
        }
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: products + "/libFixtureTool.so", toPath: plugins + "/libFixtureTool.so")
        let cPlugins = repository + "/Tests/Fixtures/CPlugins"
        try Self.run("/usr/bin/gcc", ["-shared", "-fPIC", "-O2", "-I", repository + "/Sources/CTrailheadTool/include", "-o", plugins + "/libcplain.so", cPlugins + "/plain_plugin.c"])
        try Self.run("/usr/bin/gcc", ["-shared", "-fPIC", "-O2", "-o", plugins + "/libtripmath.so", cPlugins + "/native_lib.c"])
    }

    /// A registry over some of the three plugins, all with the given isolation.
    func registry(isolation: String, plugins names: Set<String>) throws -> ToolRegistry {
        let manifests = root + "/Manifests-\(isolation)-\(names.sorted().joined(separator: "-"))"
        try FileManager.default.createDirectory(atPath: manifests, withIntermediateDirectories: true)
        let object: GeneratedContent = ["type": "object"]
        func write(_ plugin: String, _ library: String, _ tools: [GeneratedContent]) throws {
            guard names.contains(plugin) else { return }
            let manifest: GeneratedContent = [
                "manifestVersion": 1, "plugin": .string(plugin), "version": "1", "library": .string(library),
                "isolation": .string(isolation), "timeoutMs": 5000, "tools": .array(tools),
            ]
            try manifest.jsonString.write(toFile: manifests + "/\(plugin).json", atomically: true, encoding: .utf8)
        }
        try write("fixture", "libFixtureTool.so", [["name": "echo", "description": "echo", "arguments": object]])
        try write("cplain", "libcplain.so", [["name": "c_echo", "description": "echo", "arguments": object]])
        try write("tripmath", "libtripmath.so", [[
            "name": "native_echo", "description": "echo",
            "arguments": ["type": "object", "properties": ["text": ["type": "string"]], "required": ["text"]],
            "binding": ["kind": "native", "symbol": "echo_text", "parameters": [["argument": "text", "type": "string"]], "returns": "string"],
        ]])
        let registry = ToolRegistry(.init(pluginsFolder: plugins, manifestsFolder: manifests, toolHost: toolHost))
        for record in registry.plugins where !record.status.isOK {
            throw BenchError("\(record.name): \(record.status)")
        }
        return registry
    }

    /// `agent mcp serve` over the FixtureTool plugin with the given isolation.
    func serveCommand(isolation: String) throws -> [String] {
        try registry(isolation: isolation, plugins: ["fixture"]).shutdown()
        return [products + "/agent", "mcp", "serve", "--plugins", plugins, "--manifests", root + "/Manifests-\(isolation)-fixture"]
    }

    /// A registry whose one plugin is the MCP server started by `command`, registered (pinned) first.
    func registryOfMCPServer(_ command: [String]) throws -> ToolRegistry {
        let manifests = root + "/Manifests-mcp"
        try FileManager.default.createDirectory(atPath: manifests, withIntermediateDirectories: true)
        let manifest = try MCPServerRegistration.manifest(for: MCPServerSpec(transport: .stdio(command: command, environment: [:], directory: nil)), plugin: "python-echo")
        try manifest.json.jsonString.write(toFile: manifests + "/python-echo.json", atomically: true, encoding: .utf8)
        let registry = ToolRegistry(.init(pluginsFolder: plugins, manifestsFolder: manifests, toolHost: toolHost))
        for record in registry.plugins where !record.status.isOK { throw BenchError("\(record.name): \(record.status)") }
        return registry
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let completed = try ChildProcess.run(executable, arguments)
        guard completed.status == 0 else {
            throw BenchError("\((executable as NSString).lastPathComponent) failed: \(String(decoding: completed.standardError.suffix(400), as: UTF8.self))")
        }
        return completed.stdout
    }
}

/// A server started for one row, whose URL it prints on stderr; stopped with SIGTERM.
private final class BackgroundServer {
    private let process: ChildProcess

    init(_ command: [String]) throws {
        process = try ChildProcess(command[0], Array(command.dropFirst()), options: .init(standardError: .pipe))
    }

    /// The first `http://…/mcp` URL on the server's stderr (waiting up to 30 s).
    func url() throws -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        let errors = process.standardError!
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let count = read(errors, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
            if let match = text.split(whereSeparator: { " \n".contains($0) }).first(where: { $0.hasPrefix("http://") && $0.hasSuffix("/mcp") }) {
                // Keep draining stderr so a chatty server never blocks on a full pipe.
                Thread {
                    var sink = [UInt8](repeating: 0, count: 4096)
                    while read(errors, &sink, sink.count) > 0 {}
                }.start()
                return String(match)
            }
        }
        throw BenchError("the server printed no URL: \(text.suffix(300))")
    }

    func stop() {
        process.signal(SIGTERM)
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        if process.isRunning { process.signal(SIGKILL) }
        _ = process.wait()
    }
}

private struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
