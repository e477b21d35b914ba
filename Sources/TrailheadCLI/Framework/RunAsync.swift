import Dispatch
import Foundation
import Synchronization
import TrailheadSupport

/// The one bridge from the synchronous entry point to a command's `async` run: runs `body` in a
/// task and waits for it.
///
/// With `cancellingOnInterrupt`, Ctrl-C (SIGINT) cancels the task instead of killing the
/// process, so the work can finish cleanly (stop the workers its calls wait on, close the
/// transcript) and report the interruption; a second Ctrl-C exits at once. Plugin workers run in
/// process groups of their own, out of the terminal's reach: work that knows how stops them
/// itself, after it has recorded its cancellation (`TripPlanRun`); for any other, they are
/// stopped two seconds after the interrupt if the work has not ended by then.
func runAsync<T: Sendable>(cancellingOnInterrupt: Bool, _ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let task = Task {
        do { result.value = .success(try await body()) } catch { result.value = .failure(error) }
        done.signal()
    }
    let finished = Mutex(false)
    let watch = !cancellingOnInterrupt ? nil : try? SignalWatch(SIGINT) { count in
        if count > 1 { _exit(130) }
        task.cancel()
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) {
            if !finished.withLock({ $0 }) { ChildProcess.interruptAll() }
        }
    }
    done.wait()
    finished.withLock { $0 = true }
    watch?.stop()
    return try result.value!.get()
}

/// Written once by the task before the semaphore is signalled, read after the wait.
private final class ResultBox<T>: @unchecked Sendable {
    var value: Result<T, any Error>?
}

/// Runs blocking work (a server's loop, a sqlite build) on a thread of its own and waits for it
/// without holding one of the concurrency pool's few threads, which the work's own async parts
/// (a server's responses) need.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
