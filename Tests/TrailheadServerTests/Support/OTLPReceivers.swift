import Foundation
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// Arize Phoenix (PyPI, in a venv of its own that Scripts/setup-python.sh makes), started by the
/// test on free ports with a database in a folder of its own: a real OTLP receiver and trace
/// viewer. Its REST API gives back the spans it stored.
final class Phoenix {
    let process: ChildProcess
    let port: Int
    let log: String
    /// What `OTEL_EXPORTER_OTLP_ENDPOINT` is set to.
    var endpoint: String { "http://127.0.0.1:\(port)" }

    init() throws {
        let phoenix = try TrailheadCache.phoenix("phoenix")
        let folder = try Scratch.newFolder()
        port = try freeLoopbackPort()
        log = folder + "/phoenix.log"
        process = try ChildProcess(
            phoenix, ["serve"],
            options: .init(
                environment: ChildProcess.Options.environment(adding: [
                    "PHOENIX_HOST": "127.0.0.1", "PHOENIX_PORT": "\(port)", "PHOENIX_GRPC_PORT": "\(try freeLoopbackPort())",
                    "PHOENIX_WORKING_DIR": folder + "/phoenix", "PHOENIX_TELEMETRY_ENABLED": "false", "DO_NOT_TRACK": "1",
                ]),
                standardOutput: .file(log), standardError: .file(log)))
        // It imports a web stack and migrates its database first: tens of seconds on a loaded machine.
        try RawHTTP.waitUntilAnswering("/healthz", port: port, process: process, timeout: 180) { output }
    }

    deinit {
        if process.isRunning {
            _ = process.signal(SIGTERM)
            let deadline = monotonicSeconds() + 10
            while process.isRunning, monotonicSeconds() < deadline { usleep(50_000) }
            if process.isRunning { _ = process.signal(SIGKILL) }
        }
        _ = process.wait()
    }

    var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// The spans of the default project, once there are at least `count` (polled: the exporter
    /// sends a batch every second).
    func spans(atLeast count: Int, timeout: Double = 60) async throws -> [GeneratedContent] {
        let deadline = monotonicSeconds() + timeout
        var spans: [GeneratedContent] = []
        while monotonicSeconds() < deadline {
            let answer = try await HTTPClient.fetch(.init(url: endpoint + "/v1/projects/default/spans?limit=100", idleSeconds: 10, totalSeconds: 20))
            spans = (try? GeneratedContent(json: Data(answer.body)))?["data"]?.arrayValue ?? []
            if spans.count >= count { return spans }
            try await Task.sleep(nanoseconds: 500_000_000)
        }
        XCTFail("Phoenix holds \(spans.count) spans, not \(count): \(spans)\n\(output.suffix(2000))")
        return spans
    }
}

/// `Clients/otlp_receiver.py` in Phoenix's venv: decodes every export with the official
/// opentelemetry-proto classes (OTLP/JSON too, which Phoenix does not take) and keeps them.
final class OTLPDecodingReceiver {
    let process: ChildProcess
    let port: Int
    let output: String
    var endpoint: String { "http://127.0.0.1:\(port)" }

    init() throws {
        let folder = try Scratch.newFolder()
        port = try freeLoopbackPort()
        output = folder + "/exports.jsonl"
        process = try ChildProcess(
            try TrailheadCache.phoenix("python"), [Checkout.path("Tests/TrailheadServerTests/Clients/otlp_receiver.py"), "\(port)", output],
            options: .init(standardOutput: .file(folder + "/receiver.log"), standardError: .file(folder + "/receiver.log")))
        let deadline = monotonicSeconds() + 30
        while (try? LoopbackSocket.connect(host: "127.0.0.1", port: port)).map({ close($0) }) == nil {
            if !process.isRunning || monotonicSeconds() > deadline {
                throw ServeProcess.Failure(description: "the OTLP receiver did not start: \((try? String(contentsOfFile: folder + "/receiver.log", encoding: .utf8)) ?? "")")
            }
            usleep(50_000)
        }
    }

    deinit {
        _ = process.signal(SIGKILL)
        _ = process.wait()
    }

    /// The exports received so far, each `{"contentType", "request"}` (protobuf's JSON mapping).
    var exports: [GeneratedContent] {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { try? GeneratedContent(json: String($0)) }
    }
}
