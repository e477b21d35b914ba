import Foundation
import Synchronization
import TrailheadSchema
import TrailheadSupport

/// `agent mcp serve` over stdio: newline-delimited JSON-RPC on two descriptors. Tool calls run
/// concurrently (calls into different plugins overlap), so a `notifications/cancelled` can reach
/// a call in flight; replies go out as calls finish, one whole line at a time.
final class MCPStdioTransport: Sendable {
    private let source: any MCPToolSource
    private let output: Int32
    private let writing = Mutex(false)
    /// Calls in flight by request id (as JSON text), and whether `initialize` has been answered.
    private struct State {
        var inFlight: [String: ToolCallCancellation] = [:]
        var initialized = false
    }
    private let state = Mutex(State())
    private let calls = DispatchGroup()

    init(source: any MCPToolSource, output: Int32) {
        self.source = source
        self.output = output
    }

    /// Serves requests from `input` until it closes; in-flight calls are then cancelled and awaited.
    func run(input: Int32) {
        var session = MCPServerSession(source: source)
        var reader = LineReader(fd: input)
        while let line = reader.next() {
            switch session.handle(line) {
            case .reply(let reply): write(reply)
            case .initialized(let reply):
                write(reply)
                state.withLock { $0.initialized = true }
            case .call(let id, let tool, let arguments): start(id: id, tool: tool, arguments: arguments)
            case .cancel(let requestID): state.withLock { $0.inFlight[requestID.jsonString] }?.cancel()
            case .none: break
            }
        }
        for cancellation in state.withLock({ Array($0.inFlight.values) }) { cancellation.cancel() }
        calls.wait()
    }

    /// Sends a notification, once the client is initialized (MCP sends none before).
    func notify(_ method: String) {
        guard state.withLock({ $0.initialized }) else { return }
        write(JSONRPC.notification(method: method).jsonString)
    }

    private func start(id: GeneratedContent, tool: String, arguments: GeneratedContent) {
        let key = id.jsonString
        let cancellation = ToolCallCancellation()
        state.withLock { $0.inFlight[key] = cancellation }
        DispatchQueue.global().async(group: calls) { [source] in
            let outcome = source.call(tool, arguments: arguments, cancellation: cancellation)
            self.state.withLock { _ = $0.inFlight.removeValue(forKey: key) }
            // A cancelled request gets no reply (MCP: the receiver SHOULD NOT respond).
            guard !cancellation.isCancelled else { return }
            self.write(MCPServerSession.reply(to: id, with: outcome))
        }
    }

    private func write(_ line: String) {
        writing.withLock { _ in writeAll(output, line + "\n") }
    }
}
