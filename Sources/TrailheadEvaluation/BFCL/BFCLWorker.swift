import Foundation
import TrailheadSchema
import TrailheadSupport

/// The Python half of `agent eval --bfcl` (`Scripts/bfcl/bfcl_worker.py`), run once for the whole
/// evaluation: it reads BFCL's cases from the pinned `bfcl-eval` wheel, runs the peers against the
/// same llama-server, and scores calls with BFCL's own AST checker. One JSON request a line, one
/// JSON answer a line. One request at a time (a lock): a conversation's tools ask it too.
public final class BFCLWorker: @unchecked Sendable {
    private let process: ChildProcess
    private var lines: LineReader
    private let lock = NSLock()
    /// The script's sha256: part of what makes a kept run the same run (its peers, its checks).
    public let scriptSHA256: String

    /// Starts the worker with the cache's Python (`make bench` installs `bfcl-eval` there).
    public init(home: String, python: String) throws(BFCLError) {
        let script = home + "/Scripts/bfcl/bfcl_worker.py"
        guard FileManager.default.fileExists(atPath: script) else { throw BFCLError("\(script) is missing: --bfcl runs from a Trailhead checkout") }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw BFCLError("\(python) is missing: run `Scripts/setup-python.sh` (`make test` and `make bench` run it) to install BFCL's data and checker")
        }
        do { scriptSHA256 = try SHA256.hex(ofFileAt: script) } catch { throw BFCLError("cannot read \(script): \(error)") }
        do {
            // A group of its own, out of the terminal's reach: a Ctrl-C cancels the evaluation,
            // which then stops the worker itself (`interruptible`), mid-request or not.
            process = try ChildProcess(
                python, [script], options: .init(standardInput: .pipe, standardOutput: .pipe, standardError: .inherit, grouping: .newGroup, interruptible: true))
        } catch {
            throw BFCLError("cannot start the BFCL worker: \(error)")
        }
        lines = LineReader(fd: process.standardOutput!)
    }

    deinit {
        process.closeStandardInput()
        _ = process.wait()
    }

    /// Sends one request and waits for its answer; a `failure` answer is thrown.
    func ask(_ request: GeneratedContent) throws(BFCLError) -> GeneratedContent {
        lock.lock()
        defer { lock.unlock() }
        let line = Array((request.jsonString + "\n").utf8)
        guard let fd = process.standardInput, Self.writeAll(fd, line) else { throw BFCLError("the BFCL worker stopped reading") }
        guard let answer = lines.next() else { throw BFCLError("the BFCL worker ended (its errors are above)") }
        let content: GeneratedContent
        do { content = try GeneratedContent(json: String(decoding: answer, as: UTF8.self)) } catch {
            throw BFCLError("the BFCL worker answered something that is not JSON: \(String(decoding: answer.prefix(200), as: UTF8.self))")
        }
        if let failure = content["failure"]?.stringValue { throw BFCLError("BFCL worker: \(failure)") }
        return content
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
