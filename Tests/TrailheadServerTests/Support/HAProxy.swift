import Foundation
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// Debian's HAProxy in front of `agent serve` replicas, as an operator runs it: round robin,
/// health checks on `GET /health` every 200 ms (a replica that stops answering is out after one
/// failed check), a connection refused retried on the other replica, and each response saying
/// which replica served it (`X-Served-By: r1`, `r2`, …).
final class HAProxy {
    static let executable = "/usr/sbin/haproxy"

    let process: ChildProcess
    let port: Int
    let log: String
    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// Starts HAProxy on a free port in front of `replicas` (named r1, r2, … in that order) and
    /// waits until it answers.
    init(replicas: [ServeProcess]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw XCTSkip("HAProxy is not installed (apt-get install haproxy, as Scripts/setup-system.sh does): the balancer tests need it")
        }
        let folder = try Scratch.newFolder()
        port = try freeLoopbackPort()
        log = folder + "/haproxy.log"
        let servers = replicas.enumerated().map { "    server r\($0.offset + 1) 127.0.0.1:\($0.element.port) check" }
        let configuration = """
            global
                maxconn 256
            defaults
                mode http
                timeout connect 2s
                timeout client 120s
                timeout server 120s
                option redispatch
                retries 3
            frontend api
                bind 127.0.0.1:\(port)
                default_backend replicas
            backend replicas
                balance roundrobin
                option httpchk GET /health
                http-check expect status 200
                default-server inter 200ms fall 1 rise 1
                http-response set-header X-Served-By %s
            \(servers.joined(separator: "\n"))

            """
        try ServeFixtures.write(configuration, to: folder + "/haproxy.cfg")
        // -db: in the foreground, so the test owns the process; -W off (no master process).
        process = try ChildProcess(
            Self.executable, ["-db", "-f", folder + "/haproxy.cfg"], options: .init(standardOutput: .file(log), standardError: .file(log)))
        try RawHTTP.waitUntilAnswering("/health", port: port, process: process, timeout: 30) { output }
    }

    deinit {
        if process.isRunning { _ = process.signal(SIGKILL) }
        _ = process.wait()
    }

    var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// `GET path` through the balancer: the status and which replica answered.
    func servedBy(_ path: String) async throws -> (status: Int, replica: String?) {
        let answer = try await HTTPClient.fetch(.init(url: "http://127.0.0.1:\(port)" + path, idleSeconds: 10, totalSeconds: 20))
        return (answer.status, answer.headers["x-served-by"])
    }
}
