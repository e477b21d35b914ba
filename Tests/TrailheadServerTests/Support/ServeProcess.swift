import Foundation
import TrailheadAgent
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `agent serve` replica for a test: the built executable on a free port, its stderr in a
/// file, stopped (or killed, as a test may) when the test is done.
final class ServeProcess {
    let process: ChildProcess
    let port: Int
    let log: String
    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `agent serve --port 0 arguments…` and waits until it says where it listens.
    init(_ arguments: [String], environment: [String: String?] = [:]) throws {
        log = try Scratch.newFolder("serve") + "/serve.log"
        var changes: [String: String?] = ["SWIFT_BACKTRACE": "enable=no"]
        for (name, value) in environment { changes[name] = value }
        process = try ChildProcess(
            try BuildProducts.path("agent"), ["serve", "--port", "0"] + arguments,
            options: .init(environment: ChildProcess.Options.environment(adding: changes), standardOutput: .file(log), standardError: .file(log)))
        let deadline = monotonicSeconds() + 60
        while true {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"127\.0\.0\.1:[0-9]+/v1|0\.0\.0\.0:[0-9]+/v1"#, options: .regularExpression),
                let port = Int(text[range].split(separator: ":")[1].split(separator: "/")[0]) {
                self.port = port
                return
            }
            if !process.isRunning || monotonicSeconds() > deadline {
                _ = process.signal(SIGKILL)
                throw Failure(description: "agent serve did not start: \(text)")
            }
            usleep(20_000)
        }
    }

    deinit {
        if process.isRunning {
            _ = process.signal(SIGTERM)
            let deadline = monotonicSeconds() + 5
            while process.isRunning, monotonicSeconds() < deadline { usleep(20_000) }
            if process.isRunning { _ = process.signal(SIGKILL) }
        }
        _ = process.wait()
    }

    /// Stops the replica as an operator would (SIGTERM), and waits for it to exit.
    func stop() {
        _ = process.signal(SIGTERM)
        _ = process.wait()
    }

    /// Ends the replica at once, as a crash or an OOM killer would.
    func kill() {
        _ = process.signal(SIGKILL)
        _ = process.wait()
    }

    var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// POSTs `body` to `path` under /v1 and returns the status and the JSON answer.
    func post(_ path: String, _ body: GeneratedContent, headers: [String: String] = [:], timeout: Double = 60) throws -> (status: Int, body: GeneratedContent) {
        try Self.post(baseURL + path, body, headers: headers, timeout: timeout)
    }

    static func post(_ url: String, _ body: GeneratedContent, headers: [String: String] = [:], timeout: Double = 60) throws -> (status: Int, body: GeneratedContent) {
        var request = URLRequest(url: URL(string: url)!, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = Data(body.jsonString.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let result = Locked<(Int, Data)?>(nil)
        let failure = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        // The session's own limits too: on Linux its 60 s default cuts a longer request's timeout.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request) { data, response, error in
            if let error {
                failure.withLock { $0 = error }
            } else {
                result.withLock { $0 = ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()) }
            }
            done.signal()
        }.resume()
        done.wait()
        if let error = failure.current { throw error }
        let (status, data) = result.current!
        return (status, (try? GeneratedContent(json: data)) ?? .string(String(decoding: data, as: UTF8.self)))
    }

    /// Sends `method` to `path` (from the server's root, not /v1) and returns the status, the
    /// Content-Type and the body as text.
    func fetch(_ path: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:], timeout: Double = 60) throws
        -> (status: Int, type: String, text: String)
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)" + path)!, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let result = Locked<(Int, String, Data)?>(nil)
        let failure = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request) { data, response, error in
            let http = response as? HTTPURLResponse
            if let error {
                failure.withLock { $0 = error }
            } else {
                result.withLock { $0 = (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Content-Type") ?? "", data ?? Data()) }
            }
            done.signal()
        }.resume()
        done.wait()
        if let error = failure.current { throw error }
        let (status, type, data) = result.current!
        return (status, type, String(decoding: data, as: UTF8.self))
    }
}

/// Files a test writes: an agents file and a model script.
enum ServeFixtures {
    /// An agent that answers with text after asking the calendar (a bundled plugin).
    static let agents = """
        {"agents": [{"name": "free-days", "instructions": "You tell the user which days their calendar leaves free.",
                     "tools": ["calendarFreeDays"], "maxTurns": 4}]}
        """

    /// One scripted model output (`delayMs`: how long the "model" takes before it).
    static func call(_ start: String, _ end: String, delayMs: Int = 0) -> String {
        let text = LanguageModelSession.stepText(calling: "calendarFreeDays", arguments: ["start": .string(start), "end": .string(end)])
        return GeneratedContent.object(["text": .string(text), "delayMs": .number(Double(delayMs))]).jsonString
    }

    static func final(_ answer: String, delayMs: Int = 0) -> String {
        let text = LanguageModelSession.stepText(answering: .string(answer))
        return GeneratedContent.object(["text": .string(text), "delayMs": .number(Double(delayMs))]).jsonString
    }

    static func write(_ text: String, to path: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }
}
