import CMicroHTTPD
import Foundation
import Synchronization

extension HTTPServer {
    public typealias EventStream = TrailheadSupport.EventStream
}

/// One open `text/event-stream` response. Events wait in a buffer that libmicrohttpd drains
/// through its content callback; with nothing to send the connection is suspended (no thread and
/// no CPU held) until the next event or the end. A comment is sent after a few idle seconds so a
/// client that went away is noticed.
public final class EventStream: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var open = true
        var suspended = false
        var lastWrite = monotonicSeconds()
    }

    private let state = Mutex(State())
    private let exchange: Exchange
    private let connection: ConnectionHandle
    /// Silence longer than this is broken by a comment line (`:`), which clients ignore.
    static let heartbeatSeconds = 2.0

    init(exchange: Exchange) {
        self.exchange = exchange
        connection = exchange.connection
    }

    /// Sends one event carrying `data` (one line of JSON) under the name `event` (none: an
    /// unnamed event, as OpenAI's chat-completion chunks are); false once the stream is closed.
    @discardableResult
    public func send(_ data: String, event: String? = "message") -> Bool {
        let text = (event.map { "event: \($0)\n" } ?? "") + "data: \(data)\n\n"
        return enqueue(Array(text.utf8))
    }

    /// Ends the stream (the response ends, and its connection with it).
    public func close() {
        let resume = state.withLock { state in
            defer { state.open = false }
            return takeSuspended(&state)
        }
        if resume { wake() }
    }

    public var isOpen: Bool { state.withLock { $0.open } }

    private func enqueue(_ bytes: [UInt8]) -> Bool {
        let (accepted, resume) = state.withLock { state -> (Bool, Bool) in
            guard state.open else { return (false, false) }
            state.pending += bytes
            return (true, takeSuspended(&state))
        }
        if resume { wake() }
        return accepted
    }

    /// Clears the suspended mark; true when the caller must resume the connection.
    private func takeSuspended(_ state: inout State) -> Bool {
        guard state.suspended else { return false }
        state.suspended = false
        return true
    }

    private func wake() {
        exchange.core.noteSuspended(exchange, false)
        MHD_resume_connection(connection.pointer)
    }

    /// The client went away or the server stopped: nothing more can be sent.
    func connectionEnded() {
        state.withLock { $0.open = false }
    }

    /// Sends a comment if the stream has been silent a while (called by the heartbeat).
    func beat() {
        let due = state.withLock { $0.open && $0.pending.isEmpty && monotonicSeconds() - $0.lastWrite >= Self.heartbeatSeconds }
        if due { _ = enqueue(Array(":\n\n".utf8)) }
    }

    /// libmicrohttpd asks for the next bytes of the response.
    static let read: MHD_ContentReaderCallback = { context, _, buffer, maximum in
        guard let context, let buffer else { return -2 }
        let stream = Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue()
        return stream.state.withLock { state -> Int in
            if !state.pending.isEmpty {
                let count = min(maximum, state.pending.count)
                state.pending.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: count) }
                state.pending.removeFirst(count)
                state.lastWrite = monotonicSeconds()
                return count
            }
            if !state.open || stream.exchange.core.isStopped { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            // Nothing to send yet: suspend until an event (or the end, or a heartbeat) comes.
            state.suspended = true
            stream.exchange.core.noteSuspended(stream.exchange, true)
            MHD_suspend_connection(stream.connection.pointer)
            return 0
        }
    }
}
