import CTrailheadSystem
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A signal handled on a thread of its own: the handler proper only writes a byte to a pipe
/// (all a signal handler may safely do), and one reader thread per signal, started once, runs
/// the current watch's body for each.
///
/// It replaces `signal(SIGINT, SIG_IGN)` with a Dispatch signal source, which on Linux never
/// saw the signal (the kernel drops an ignored signal before Dispatch can read it), so Ctrl-C
/// did nothing during `agent plan`. A handled signal also returns to its default in every child
/// (an ignored one was inherited).
public final class SignalWatch: Sendable {
    private let signal: Int32
    private let id: Int

    /// Calls `body` with the number of times `signal` arrived since this watch started.
    public init(_ signal: Int32, _ body: @escaping @Sendable (Int) -> Void) throws(SpawnError) {
        self.signal = signal
        let fd = th_signal_pipe(signal)
        guard fd >= 0 else { throw SpawnError("signal \(signal)", "cannot watch it: \(String(cString: strerror(-fd)))") }
        id = Self.watches.withLock { state in
            state.next += 1
            state.current[signal] = (state.next, body, 0)
            if state.readers.insert(signal).inserted { Self.startReader(signal, fd) }
            return state.next
        }
    }

    /// Puts the signal back to its default; the body is not called again.
    public func stop() {
        Self.watches.withLock { state in
            guard state.current[signal]?.id == id else { return }
            state.current[signal] = nil
            _ = th_signal_default(signal)
        }
    }

    deinit { stop() }

    private struct State {
        var next = 0
        var current: [Int32: (id: Int, body: @Sendable (Int) -> Void, count: Int)] = [:]
        var readers: Set<Int32> = []
    }

    private static let watches = Mutex(State())

    private static func startReader(_ signal: Int32, _ fd: Int32) {
        Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(fd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                let call: ((@Sendable (Int) -> Void), Int)? = watches.withLock { state in
                    guard var watch = state.current[signal] else { return nil }
                    watch.count += 1
                    state.current[signal] = watch
                    return (watch.body, watch.count)
                }
                if let (body, count) = call { body(count) }
            }
        }.start()
    }
}
